"""``greedy``: a one-ply Colorado County player working from its seat's view only.

It scores a position as the CC-8 valuation of every round still to come (the current one
at full weight, later ones a little less: markers stay on the board, but the opponents
will move too), relative to the mean of the other seats. Every decision compares the
score before and after the cells at stake change hands:

- claims: the claim with the largest gain, a little more if it also denies an opponent;
- bids: each face-up card is worth its best claim; the bid size maximises the expected
  card won (rank estimated from the opponents' last revealed bids and cowboy counts) minus
  the cowboys spent, against drawing 2 cowboys with the empty bid. A cowboy's worth grows
  with the turns left and shrinks with the hand;
- flags: the cell that gains most for this seat and least for the best opponent;
- sales: interested when the cell gains more than the cowboys it may cost; pays with the
  lowest cowboy; sells only when losing the cell (even to the best opponent) costs less
  than the cowboys the sale brings, e.g. a 3-area broken into two doubles in round 1.

The valuation is computed here on cell bitmasks (the same table as the engine's
``valuation`` helper; a test checks they agree) because one decision may evaluate a few
hundred positions and must stay well under 50 ms.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine import Rules

from . import board
from .data import DATA

Action = dict[str, Any]
Features = tuple[int, int, int]  # border cells, doubles, largest connected area (>= 3, else 0)

# Weight of the valuation 0, 1, 2, 3 rounds after the current one.
ROUND_WEIGHTS = (1.0, 0.8, 0.65, 0.5)
DENIAL = 0.3  # share of an opponent's gain counted when choosing a claim
FLAG_DENIAL = 0.8  # share of the best opponent's gain counted against a flag cell
COWBOY_WORTH = 1.0  # points a cowboy is worth per turn left per cowboy held
SELL_MARGIN = 1.5  # a sale must gain at least this many points
SELL_MAX_LOSS = -0.25  # and the board without the cell must be worth at least this much more
INTEREST_MARGIN = 0.3


def majority_ranks(counts: list[int]) -> list[int]:
    """CC-8.1 for one item: 1 for every seat tied for most, 2 for every seat tied for
    second if a single seat had most, else 0; a count of 0 scores nothing."""
    out = [0] * len(counts)
    top = max(counts)
    if top <= 0:
        return out
    firsts = [i for i, c in enumerate(counts) if c == top]
    for i in firsts:
        out[i] = 1
    if len(firsts) == 1:
        second = max((c for c in counts if c < top), default=0)
        if second > 0:
            for i, c in enumerate(counts):
                if c == second:
                    out[i] = 2
    return out


def features(mask: int, border: int) -> Features:
    """Border cells, doubles and largest connected area (0 if below 3) of one seat."""
    doubles = 0
    largest = 0
    for group in board.components(mask):
        size = group.bit_count()
        if size == 2:
            doubles += 1
        elif size > largest:
            largest = size
    return (mask & border).bit_count(), doubles, largest if largest >= 3 else 0


class Shape:
    """One seat's connected groups, to get the features after adding one cell quickly."""

    def __init__(self, mask: int, border: int) -> None:
        self.mask = mask
        self.border = border
        self.group_of: dict[int, int] = {}
        self.sizes: list[int] = []
        for i, group in enumerate(board.components(mask)):
            self.sizes.append(group.bit_count())
            for c in board.bits(group):
                self.group_of[c] = i
        self.by_size = sorted(range(len(self.sizes)), key=lambda i: -self.sizes[i])
        self.doubles = self.sizes.count(2)
        self.border_count = (mask & border).bit_count()

    def features(self) -> Features:
        largest = self.sizes[self.by_size[0]] if self.sizes else 0
        return self.border_count, self.doubles, largest if largest >= 3 else 0

    def features_with(self, cell: int) -> Features:
        """The features of this seat after it gains the free cell ``cell``."""
        merged = {self.group_of[c] for c in board.bits(board.NEIGHBOURS[cell] & self.mask)}
        size = 1 + sum(self.sizes[i] for i in merged)
        doubles = self.doubles - sum(1 for i in merged if self.sizes[i] == 2) + (size == 2)
        largest = size
        for i in self.by_size:
            if i not in merged:
                largest = max(largest, self.sizes[i])
                break
        border = self.border_count + (self.border >> cell & 1)
        return border, doubles, largest if largest >= 3 else 0


def round_points(
    feats: list[Features], owners: list[int], lake_values: list[int], round_no: int
) -> list[int]:
    """The CC-8 valuation total of every seat for round ``round_no`` (1..4)."""
    r = round_no - 1
    border = (0, *DATA.border_points[r])
    area = (0, *DATA.area_points[r])
    b_rank = majority_ranks([f[0] for f in feats])
    a_rank = majority_ranks([f[2] for f in feats])
    per_lake = DATA.lake_points[r]
    dbl = DATA.double_points[r]
    pts = [border[b_rank[p]] + area[a_rank[p]] + f[1] * dbl for p, f in enumerate(feats)]
    for owner, value in zip(owners, lake_values, strict=True):
        if owner >= 0:
            pts[owner] += value if per_lake is None else per_lake
    return pts


class Weights:
    """The valuation table summed over the rounds still to score, each round weighted by
    ``ROUND_WEIGHTS`` (so one evaluation costs one pass over the seats)."""

    def __init__(
        self, round_no: int, lake_values: list[int], weights: tuple[float, ...] = ROUND_WEIGHTS
    ) -> None:
        rounds = [(r - 1, weights[r - round_no]) for r in range(round_no, 5)]
        self.border = (0.0, *(sum(w * DATA.border_points[r][i] for r, w in rounds) for i in (0, 1)))
        self.area = (0.0, *(sum(w * DATA.area_points[r][i] for r, w in rounds) for i in (0, 1)))
        self.double = sum(w * DATA.double_points[r] for r, w in rounds)
        self.lakes = [
            sum(
                w * (v if DATA.lake_points[r] is None else DATA.lake_points[r] or 0)
                for r, w in rounds
            )
            for v in lake_values
        ]


class Position:
    """The public board of a view as bitmasks, plus the seat's own hand."""

    def __init__(
        self,
        view: dict[str, Any],
        weights: tuple[float, ...] = ROUND_WEIGHTS,
        cowboy_worth: float = COWBOY_WORTH,
    ) -> None:
        self.worth_factor = cowboy_worth
        players = view["players"]
        self.n: int = len(players)
        self.me: int = view["seat"]
        self.round: int = view["round"]
        index = board.CELL_INDEX
        markers = [0] * self.n
        flags: dict[str, int] = {}
        occupied = 0
        for name, item in view["board"]["cells"].items():
            bit = 1 << index[name]
            occupied |= bit
            if "marker" in item:
                markers[item["marker"]] |= bit
            elif "flag" in item:
                flags[item["flag"]] = flags.get(item["flag"], 0) | bit
        self.markers = markers
        self.flags = flags
        water = 0
        lake_masks: list[int] = []
        self.lake_values: list[int] = []
        self.owners: list[int] = []
        for lake in view["board"]["lakes"]:
            m = sum(1 << index[c] for c in lake["cells"])
            lake_masks.append(m)
            water |= m
            self.lake_values.append(lake["value"])
            self.owners.append(-1 if lake["owner"] is None else lake["owner"])
        self.land = board.FULL & ~water
        self.border = board.EDGE & self.land
        self.shores = [board.grow(m) & self.land for m in lake_masks]
        self.free = self.land & ~occupied
        self.hand: list[int] = sorted(view.get("hand") or [])
        self.my_flags: list[str] = list(players[self.me]["flags_in_hand"])
        self.counts: list[int] = [p["cowboy_count"] for p in players]
        self.bag: int = view.get("bag_count", 0)
        k = 3 if self.n == 4 else 2
        self.cards_per_turn = k
        turns_per_round = 12 // k
        phase = view.get("resume_phase") or view["phase"]  # under a sale: the phase it paused
        # In a turn (bid or claim): this turn and those still in the stack.
        left = turns_per_round if phase == "flags" else view["stack_left"] // k + 1
        self.turns_left: int = left + (4 - self.round) * turns_per_round
        self.weights = Weights(self.round, self.lake_values, weights)
        self.shapes = [Shape(m, self.border) for m in markers]
        self.feats = [shape.features() for shape in self.shapes]
        self.base = [self.evaluate(p, self.feats, self.owners) for p in range(self.n)]

    # -- scoring -------------------------------------------------------------------------

    def evaluate(self, seat: int, feats: list[Features], owners: list[int]) -> float:
        """Weighted points of ``seat`` minus the other seats' mean, rounds still to score."""
        w = self.weights
        b_rank = majority_ranks([f[0] for f in feats])
        a_rank = majority_ranks([f[2] for f in feats])
        pts = [
            w.border[b_rank[p]] + w.area[a_rank[p]] + f[1] * w.double for p, f in enumerate(feats)
        ]
        for owner, value in zip(owners, w.lakes, strict=True):
            if owner >= 0:
                pts[owner] += value
        mine = pts[seat]
        return mine - (sum(pts) - mine) / max(self.n - 1, 1)

    def owners_after(self, markers: list[int], changed: int, prefer: int, first: int) -> list[int]:
        """Lake owners after the cells in ``changed`` changed hands (CC-7, with the CC-7.3
        tie rulings: ``prefer`` is the claimer or buyer, ``first`` the clockwise start)."""
        owners = list(self.owners)
        order = [(first + i) % self.n for i in range(self.n)]
        for i, shore in enumerate(self.shores):
            if not shore & changed:
                continue
            counts = [(m & shore).bit_count() for m in markers]
            owner = owners[i]
            if owner >= 0:
                best = max((c for s, c in enumerate(counts) if s != owner), default=0)
                if best <= counts[owner]:
                    if counts[owner] == 0:
                        owners[i] = -1
                    continue
            else:
                best = max(counts)
                if best == 0:
                    continue
            tied = [s for s in order if counts[s] == best and s != owner]
            owners[i] = prefer if prefer in tied else tied[0]
        return owners

    def gain(
        self,
        seat: int,
        add: int,
        remove: int = 0,
        perspective: int | None = None,
        buyer: int = -1,
    ) -> float:
        """Change of ``perspective``'s evaluation (default ``seat``) when ``seat`` gains the
        cells ``add`` and loses the cells ``remove`` (bought by ``buyer`` if >= 0)."""
        who = seat if perspective is None else perspective
        markers = list(self.markers)
        markers[seat] = (markers[seat] | add) & ~remove
        feats = list(self.feats)
        if add and not remove and add & (add - 1) == 0 and not self.markers[seat] & add:
            feats[seat] = self.shapes[seat].features_with(add.bit_length() - 1)
        else:
            feats[seat] = features(markers[seat], self.border)
        prefer = seat
        if buyer >= 0:
            markers[buyer] |= remove
            feats[buyer] = features(markers[buyer], self.border)
            prefer = buyer
        owners = self.owners_after(markers, add | remove, prefer=prefer, first=seat)
        return self.evaluate(who, feats, owners) - self.base[who]

    def cowboy_worth(self) -> float:
        """Points one cowboy is worth now: dear with many turns left and few cowboys."""
        ratio = self.turns_left / (len(self.hand) + 1)
        return self.worth_factor * min(3.0, max(0.05, ratio))

    def card_options(self, card: dict[str, Any]) -> list[int]:
        """Cell sets a claim of ``card`` could occupy (CC-6)."""
        out: list[int] = []
        offset = card["offset"]
        for flag in board.bits(self.flags.get(card["colour"], 0)):
            bit = 1 << flag
            if offset is None:
                out.append(bit)
                continue
            seconds = [t for t in board.targets(flag, offset[0], offset[1]) if self.free >> t & 1]
            out.extend(bit | (1 << t) for t in seconds) if seconds else out.append(bit)
        return out


def lowest(cowboys: list[int], k: int) -> list[int]:
    return sorted(cowboys)[:k]


def bid_cowboys(hand: list[int], k: int) -> list[int]:
    """``k`` cowboys for a bid: the highest (it breaks ties of equal count, CC-1.6) and
    the ``k - 1`` lowest."""
    if k <= 0:
        return []
    ordered = sorted(hand)
    return sorted([ordered[-1], *ordered[: k - 1]])


def beaten_probability(expected: float, count: int, size: int) -> float:
    """Chance that an opponent expected to bid ``expected`` cowboys (holding ``count``)
    outbids a bid of ``size``."""
    if count <= 0 or count < size:
        return 0.0
    return 1.0 / (1.0 + math.exp(-1.5 * (expected - size)))


class GreedyBot:
    """The greedy player; the keyword arguments exist for tuning experiments."""

    name = "greedy"
    reads_view = True
    reads_state = False

    def __init__(
        self,
        *,
        weights: tuple[float, ...] = ROUND_WEIGHTS,
        cowboy_worth: float = COWBOY_WORTH,
        denial: float = DENIAL,
        flag_denial: float = FLAG_DENIAL,
        sell_margin: float = SELL_MARGIN,
        sell_max_loss: float = SELL_MAX_LOSS,
    ) -> None:
        self.weights = weights
        self.cowboy_worth = cowboy_worth
        self.denial = denial
        self.flag_denial = flag_denial
        self.sell_margin = sell_margin
        self.sell_max_loss = sell_max_loss

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action:
        kinds = {a["type"] for a in legal_actions}
        if "sale_pay" in kinds:
            pays = [a for a in legal_actions if a["type"] == "sale_pay"]
            return dict(min(pays, key=lambda a: int(a["cowboy"])))
        pos = Position(view, self.weights, self.cowboy_worth)
        if "sale_interest" in kinds:
            return {"type": "sale_interest", "interested": self.wants_land(pos, view)}
        if "sale_bid" in kinds:
            pool = [c for a in legal_actions if a["type"] == "sale_bid" for c in a["cowboys"]]
            return {"type": "sale_bid", "cowboys": self.sale_bid(pos, view, pool)}
        if "bid" in kinds:
            if "sell" in kinds:
                sell = self.best_sale(pos, legal_actions)
                if sell is not None:
                    return dict(sell)
            return {"type": "bid", "cowboys": self.bid(pos, view)}
        # listed actions are shared between calls (views.legal_actions): return copies
        if "claim" in kinds:
            return dict(self.claim(pos, [a for a in legal_actions if a["type"] == "claim"], rng))
        if "place_flag" in kinds:
            return dict(
                self.flag(pos, [a for a in legal_actions if a["type"] == "place_flag"], rng)
            )
        return dict(rng.choice(legal_actions))

    # -- claims and flags ----------------------------------------------------------------

    def claim(self, pos: Position, claims: list[Action], rng: random.Random) -> Action:
        index = board.CELL_INDEX
        best: list[Action] = []
        best_score = -math.inf
        cache: dict[int, float] = {}
        for action in claims:
            cells = 1 << index[action["flag"]]
            if action.get("second"):
                cells |= 1 << index[action["second"]]
            score = cache.get(cells)
            if score is None:
                score = pos.gain(pos.me, cells)
                denied = max((pos.gain(o, cells) for o in range(pos.n) if o != pos.me), default=0.0)
                score += self.denial * max(denied, 0.0)
                cache[cells] = score
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif score > best_score - 1e-9:
                best.append(action)
        return rng.choice(best)

    def flag(self, pos: Position, flags: list[Action], rng: random.Random) -> Action:
        index = board.CELL_INDEX
        colours: dict[str, int] = {}
        for a in flags:
            colours[a["colour"]] = colours.get(a["colour"], 0) + 1
        held = pos.my_flags
        # The colour held most often keeps the most options for later flags.
        colour = max(sorted(colours), key=lambda c: held.count(c))
        best: list[str] = []
        best_score = -math.inf
        for cell in sorted({a["cell"] for a in flags if a["colour"] == colour}):
            bit = 1 << index[cell]
            score = pos.gain(pos.me, bit)
            others = [pos.gain(o, bit) for o in range(pos.n) if o != pos.me]
            score -= self.flag_denial * max(max(others, default=0.0), 0.0)
            if score > best_score + 1e-9:
                best, best_score = [cell], score
            elif score > best_score - 1e-9:
                best.append(cell)
        return {"type": "place_flag", "colour": colour, "cell": rng.choice(best)}

    # -- bids ----------------------------------------------------------------------------

    def card_value(self, pos: Position, card: dict[str, Any]) -> float:
        return max((pos.gain(pos.me, cells) for cells in pos.card_options(card)), default=0.0)

    def bid(self, pos: Position, view: dict[str, Any]) -> list[int]:
        hand = pos.hand
        if not hand:
            return []
        k = pos.cards_per_turn
        values = sorted((max(self.card_value(pos, c), 0.0) for c in view["face_up"]), reverse=True)
        values += [0.0] * (k - len(values))
        worth = pos.cowboy_worth()
        last = view.get("last_bids") or {}
        expected: list[tuple[float, int]] = []
        for o in range(pos.n):
            if o == pos.me:
                continue
            seen = last.get(str(o))
            guess = float(len(seen)) if seen is not None else 2.0
            expected.append((max(guess, 1.0), pos.counts[o]))
        best_size = 0
        best = min(2, pos.bag) * worth
        for size in range(1, min(len(hand), 10) + 1):
            # Poisson-binomial distribution of the number of opponents ranked ahead.
            ahead = [1.0]
            for guess, count in expected:
                p = beaten_probability(guess, count, size)
                nxt = [0.0] * (len(ahead) + 1)
                for j, q in enumerate(ahead):
                    nxt[j] += q * (1 - p)
                    nxt[j + 1] += q * p
                ahead = nxt
            value = sum(q * values[j] for j, q in enumerate(ahead) if j < k)
            utility = value - size * worth
            if utility > best:
                best, best_size = utility, size
        return bid_cowboys(hand, best_size)

    # -- sales ---------------------------------------------------------------------------

    def wants_land(self, pos: Position, view: dict[str, Any]) -> bool:
        cell = 1 << board.CELL_INDEX[view["sale"]["cell"]]
        return pos.gain(pos.me, cell) > pos.cowboy_worth() + INTEREST_MARGIN

    def sale_bid(self, pos: Position, view: dict[str, Any], pool: list[int]) -> list[int]:
        cell = 1 << board.CELL_INDEX[view["sale"]["cell"]]
        worth = max(pos.cowboy_worth(), 0.05)
        size = int(pos.gain(pos.me, cell) / worth)
        return lowest(pool, max(1, min(size, len(pool))))

    def best_sale(self, pos: Position, legal_actions: list[Action]) -> Action | None:
        """A ``sell`` whose cowboys (2 drawn, maybe 1 paid) outweigh the land lost even if
        the opponent who gains most buys it; None if no sale is worth it."""
        worth = pos.cowboy_worth()
        income = 2.5 * worth
        best: Action | None = None
        best_score = self.sell_margin
        for action in legal_actions:
            if action["type"] != "sell":
                continue
            cell = 1 << board.CELL_INDEX[action["cell"]]
            loss = pos.gain(pos.me, 0, remove=cell)
            if loss < -self.sell_max_loss or loss + income <= best_score:
                continue
            bought = min(
                (
                    pos.gain(pos.me, 0, remove=cell, buyer=o)
                    for o in range(pos.n)
                    if o != pos.me and pos.counts[o]
                ),
                default=loss,
            )
            score = income + 0.5 * loss + 0.5 * bought
            if score > best_score:
                best, best_score = action, score
        return best
