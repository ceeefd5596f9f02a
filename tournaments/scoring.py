"""Points and tie-breaks from tables' results: pure functions (no Django). The rules, with
their ids, are in docs/tournaments.md ("Scoring", TR-S-…).

A table's result is each entrant's rank (1 the best; equal ranks tie). An entrant scores
one point for each opponent at the table they finish above and half a point for each they
tie with (TR-S-1): a two-seat table is 1, ½ or 0, a four-seat table 3, 2, 1, 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class TableResult:
    ranks: Mapping[int, int]  # entrant -> rank at the table (1 = best)


@dataclass
class Line:
    entrant: int
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def versus(ranks: Mapping[int, int], a: int, b: int) -> Fraction:
    """What ``a`` scores against ``b`` at one table: 1 above, ½ level, 0 below."""
    if ranks[a] < ranks[b]:
        return Fraction(1)
    if ranks[a] == ranks[b]:
        return Fraction(1, 2)
    return Fraction(0)


def bye_points(seats: int) -> Fraction:
    """A bye is a win at two-seat tables, the middle of the table at larger ones (TR-S-2)."""
    return Fraction(1) if seats == 2 else Fraction(seats - 1, 2)


def standings(
    entrants: Sequence[int],
    results: Iterable[TableResult],
    byes: Iterable[int],
    *,
    seats: int,
    order: str,
) -> list[Line]:
    """Every entrant's line, best first. ``order``: ``swiss`` (points, Buchholz,
    Sonneborn-Berger: TR-S-3), ``round_robin`` (points, head to head, Sonneborn-Berger:
    TR-S-4). Remaining ties keep the order of ``entrants`` (the seed order: TR-S-5)."""
    lines = {e: Line(e) for e in entrants}
    tables = list(results)
    for table in tables:
        for a in table.ranks:
            line = lines[a]
            line.games += 1
            for b in table.ranks:
                if b != a:
                    line.points += versus(table.ranks, a, b)
                    line.opponents.append(b)
    for e in byes:
        lines[e].points += bye_points(seats)
        lines[e].byes += 1
    for table in tables:
        for a in table.ranks:
            for b in table.ranks:
                if b == a:
                    continue
                lines[a].buchholz += lines[b].points
                lines[a].sonneborn_berger += versus(table.ranks, a, b) * lines[b].points
    seed = {e: i for i, e in enumerate(entrants)}
    if order == "round_robin":
        by_points: dict[Fraction, list[int]] = {}
        for e in entrants:
            by_points.setdefault(lines[e].points, []).append(e)
        for group in by_points.values():
            tied = set(group)
            for table in tables:
                for a in table.ranks:
                    if a in tied:
                        for b in table.ranks:
                            if b != a and b in tied:
                                lines[a].head_to_head += versus(table.ranks, a, b)

    def key(e: int) -> tuple[Fraction, Fraction, Fraction, int]:
        line = lines[e]
        second = line.head_to_head if order == "round_robin" else line.buchholz
        return (-line.points, -second, -line.sonneborn_berger, seed[e])

    return [lines[e] for e in sorted(entrants, key=key)]


def met_counts(results: Iterable[TableResult]) -> dict[tuple[int, int], int]:
    """How often each two entrants have sat at one table."""
    met: dict[tuple[int, int], int] = {}
    for table in results:
        players = sorted(table.ranks)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                met[(a, b)] = met.get((a, b), 0) + 1
    return met


def as_number(value: Fraction) -> float | int:
    """A score for JSON: whole numbers as integers, halves and thirds as decimals."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 3)
