"""Who sits with whom in each round: pure functions over entrants' positions (no Django).

Entrants are numbered by their place in the order given (the seed order for a round robin
and a knockout's first round, the current standings for a Swiss round). The rules are
written down, with their ids, in docs/tournaments.md ("Pairing", TR-P-…).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Pair = tuple[int, int]


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class RoundPlan:
    tables: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


def round_robin(n: int, k: int) -> list[RoundPlan]:
    """Every round of a round robin of ``n`` entrants at tables of ``k`` (TR-P-1, TR-P-2)."""
    if n < 2 or k < 2:
        return []
    if k == 2:
        return _circle(n)
    return _covering(n, k)


def _circle(n: int) -> list[RoundPlan]:
    """The circle method: entrant 0 stays, the others turn one place a round; with an odd
    number a dummy entrant makes the bye (TR-P-1)."""
    players: list[int | None] = list(range(n))
    if n % 2:
        players.append(None)
    m = len(players)
    rounds = []
    for _ in range(m - 1):
        plan = RoundPlan()
        for i in range(m // 2):
            a, b = players[i], players[m - 1 - i]
            if a is None or b is None:
                plan.byes.append(a if b is None else b)  # type: ignore[arg-type]
            else:
                plan.tables.append(sorted((a, b)))
        rounds.append(plan)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _covering(n: int, k: int) -> list[RoundPlan]:
    """Tables of ``k`` until every two entrants have met at least once (TR-P-2): each round
    seats, table by table, the entrant with the most others still unmet, then whoever meets
    the most new people at that table (ties: the lower number); the n mod k left over sit
    out with a bye: those with the fewest byes so far, then the fewest others unmet."""
    unmet = {pair(a, b) for a, b in combinations(range(n), 2)}
    byes_so_far = [0] * n
    rounds: list[RoundPlan] = []
    while unmet:

        def unmet_of(p: int) -> int:
            return sum(1 for q in range(n) if q != p and pair(p, q) in unmet)

        # Who sits out: the fewest byes so far, then the fewest still unmet (TR-P-2).
        resting = sorted(range(n), key=lambda p: (byes_so_far[p], unmet_of(p), -p))[: n % k]
        playing = [p for p in range(n) if p not in resting]
        plan = RoundPlan(byes=sorted(resting))
        free = set(playing)
        new_pairs = 0
        while free:
            first = max(free, key=lambda p: (unmet_of(p), -p))
            table = [first]
            free.discard(first)
            while len(table) < k:
                best = max(
                    free,
                    key=lambda p: (sum(1 for t in table if pair(p, t) in unmet), unmet_of(p), -p),
                )
                table.append(best)
                free.discard(best)
            for a, b in combinations(table, 2):
                if pair(a, b) in unmet:
                    new_pairs += 1
            plan.tables.append(sorted(table))
        if new_pairs == 0:
            break
        for table in plan.tables:
            for a, b in combinations(table, 2):
                unmet.discard(pair(a, b))
        for p in plan.byes:
            byes_so_far[p] += 1
        plan.tables.sort()
        rounds.append(plan)
    return rounds


def swiss(
    order: Sequence[int], k: int, *, met: dict[Pair, int], byes: Iterable[int] = ()
) -> RoundPlan:
    """One Swiss round for the entrants in ``order`` (best standing first, ties by rating):
    TR-P-3 (the bye), TR-P-4 (two seats: the best unpaired meets the next best not yet met),
    TR-P-5 (more seats: tables of neighbours in the standings, then swaps that make fewer
    repeat meetings)."""
    had_bye = set(byes)
    players = list(order)
    plan = RoundPlan()
    extra = len(players) % k
    for _ in range(extra):
        # The lowest-placed who has had no bye yet; if all have, the lowest-placed.
        candidates = [p for p in reversed(players) if p not in had_bye] or [players[-1]]
        players.remove(candidates[0])
        plan.byes.append(candidates[0])
    if k == 2:
        plan.tables = _pairs(players, met)
    else:
        plan.tables = _groups(players, k, met)
    return plan


def _pairs(players: list[int], met: dict[Pair, int]) -> list[list[int]]:
    """Top down, each unpaired entrant meets the next one they have met least (the first
    such in standing order); backtracks so that the last ones are not forced into a
    rematch when another order avoids it."""
    best: list[list[int]] | None = None
    best_repeats = None

    def search(left: list[int], tables: list[list[int]], repeats: int, budget: list[int]) -> None:
        nonlocal best, best_repeats
        if best_repeats is not None and repeats >= best_repeats and best is not None:
            return
        if not left:
            best, best_repeats = [t[:] for t in tables], repeats
            return
        budget[0] -= 1
        if budget[0] < 0:
            return
        first, rest = left[0], left[1:]
        candidates = sorted(rest, key=lambda q: (met.get(pair(first, q), 0), rest.index(q)))
        for q in candidates:
            r = met.get(pair(first, q), 0)
            search([p for p in rest if p != q], [*tables, [first, q]], repeats + r, budget)
            if best_repeats == 0:
                return

    search(players, [], 0, [10_000])
    return best or []


def _groups(players: list[int], k: int, met: dict[Pair, int]) -> list[list[int]]:
    tables = [players[i : i + k] for i in range(0, len(players), k)]

    def repeats(table: list[int]) -> int:
        return sum(met.get(pair(a, b), 0) for a, b in combinations(table, 2))

    for i in range(len(tables) - 1):
        for _ in range(k):
            here, there = tables[i], tables[i + 1]
            now = repeats(here) + repeats(there)
            if now == 0:
                break
            swap = None
            for a in reversed(range(len(here))):
                for b in range(len(there)):
                    h2 = [*here[:a], there[b], *here[a + 1 :]]
                    t2 = [*there[:b], here[a], *there[b + 1 :]]
                    if repeats(h2) + repeats(t2) < now:
                        swap = (h2, t2)
                        break
                if swap:
                    break
            if swap is None:
                break
            tables[i], tables[i + 1] = swap
    return tables


def knockout_first(n: int) -> list[list[int]]:
    """The first round of a knockout of ``n`` seeded entrants (TR-P-6), slot by slot in
    bracket order: the bracket is the next power of two; seed i meets seed size+1-i, and a
    missing opponent is a bye (a slot of one: the top seeds get the byes)."""
    size = 1
    while size < n:
        size *= 2
    order = _bracket_order(size)
    return [[p for p in order[i : i + 2] if p < n] for i in range(0, size, 2)]


def knockout_next(winners: Sequence[int]) -> list[list[int]]:
    """The next round: the winners of slots 1 and 2 meet, 3 and 4, … (TR-P-6)."""
    return [list(winners[i : i + 2]) for i in range(0, len(winners), 2)]


def _bracket_order(size: int) -> list[int]:
    """Seeds (0-based) in bracket order: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight, so the top
    two seeds can meet only in the final."""
    order = [0]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    return order


def knockout_rounds(n: int) -> int:
    rounds, size = 0, 1
    while size < n:
        size *= 2
        rounds += 1
    return rounds
