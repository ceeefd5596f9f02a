"""The search bot's hooks for Colorado County (``games.engine.bots.search``).

``determinise(state, seat, rng)`` rebuilds every part of the state that ``seat`` cannot
see, from public information and the seat's own hand only:

- the cowboys: all 66 minus the seat's hand is the public pool of "somewhere else"; each
  other seat gets a random subset of it of its public size (``cowboy_count``), the rest
  is the bag;
- the cards: the cards not yet revealed (stack and piles together) are public as a set,
  and so is the number of each colour left in this round's stack (3 each at the start of
  the round, minus those revealed); which cards of a colour are in this round's stack and
  the order of the stack and piles are drawn at random;
- sealed actions not yet revealed (other seats' bids, sale answers and sale bids) are
  dropped: those seats are to act again and the search chooses for them without seeing
  this seat's choice (an automatic empty bid of a seat with no cowboy is public and kept);
- the generator and the seed are new.

The hidden fields are read or written only in ``_redeal_cowboys``, ``_redeal_cards`` and
``_drop_sealed`` (hands, bag, bids, sale answers and sale bids, stack, piles, rng, seed).

``search_actions`` is the move list the search considers: the greedy bot's best few flag
cells and the bids it would make of each size, instead of every cell and every subset,
and no land sale; ``playout_action`` is the cheap default policy of the playouts.
"""

from __future__ import annotations

from typing import Any, Final

from games.engine import Generator

from . import board, rules, views
from .data import CARDS, COLOURS, DATA
from .greedy_bot import GreedyBot, Position, bid_cowboys
from .scoring import score_round
from .state import State

Action = dict[str, Any]

ALL_COWBOYS: Final = sum(1 << c for c in range(1, DATA.cowboys + 1))
FLAG_CANDIDATES: Final = 6
"""Flag cells the search compares (the greedy bot's best for each colour held)."""
MAX_BID: Final = 6
"""The largest bid the search considers (and the greedy bot rarely exceeds)."""
_GREEDY: Final = GreedyBot()


def determinise(s: State, seat: int, rng: Generator) -> State:
    t = s.copy()
    _redeal_cowboys(s, t, seat, rng)
    _redeal_cards(s, t, rng)
    _drop_sealed(t, seat)
    t.rng = rng.getrandbits(64)
    t.seed = "determinised"
    return t


def _redeal_cowboys(s: State, t: State, seat: int, rng: Generator) -> None:
    pool = board.bits(ALL_COWBOYS & ~s.hands[seat])
    rng.shuffle(pool)
    for o in range(s.n):
        if o == seat:
            continue
        k = s.hands[o].bit_count()
        hand = 0
        for c in pool[:k]:
            hand |= 1 << c
        t.hands[o] = hand
        pool = pool[k:]
    bag = 0
    for c in pool:
        bag |= 1 << c
    t.bag = bag


def _redeal_cards(s: State, t: State, rng: Generator) -> None:
    unseen = [*s.stack, *(c for pile in s.piles for c in pile)]
    in_stack = [0, 0, 0, 0]
    for c in s.stack:
        in_stack[CARDS[c].colour_index] += 1
    by_colour: list[list[int]] = [[], [], [], []]
    for c in sorted(unseen):
        by_colour[CARDS[c].colour_index].append(c)
    stack: list[int] = []
    piles: list[tuple[int, ...]] = []
    for colour, cards in enumerate(by_colour):
        rng.shuffle(cards)
        stack.extend(cards[: in_stack[colour]])
        piles.append(tuple(cards[in_stack[colour] :]))
    rng.shuffle(stack)
    t.stack = tuple(stack)
    t.piles = tuple(piles)


def _drop_sealed(t: State, seat: int) -> None:
    for o in range(t.n):
        if o != seat and t.bids[o] is not None:
            t.bids[o] = 0 if not t.hands[o] else None
    sale = t.sale
    if sale is not None:
        for o in range(t.n):
            if o == seat:
                continue
            if sale.stage == "interest":
                sale.answers[o] = None
            elif sale.stage == "bid":
                sale.sale_bids[o] = None


# -- the moves the search considers ----------------------------------------------------


def search_actions(s: State, seat: int) -> list[Action]:
    legal = views.legal_actions(s, seat)
    moves = [a for a in legal if a["type"] != "sell"]
    if not moves:
        return legal
    kind = moves[0]["type"]
    if kind == "place_flag":
        return _flag_candidates(s, seat, moves)
    if kind == "bid":
        hand = board.bits(s.hands[seat])
        return [
            {"type": "bid", "cowboys": bid_cowboys(hand, k)}
            for k in range(min(len(hand), MAX_BID) + 1)
        ]
    if kind == "sale_bid":
        pool = sorted(c for a in moves for c in a["cowboys"])
        return [{"type": "sale_bid", "cowboys": pool[:k]} for k in range(1, min(len(pool), 4) + 1)]
    if kind == "sale_pay":
        return [min(moves, key=lambda a: int(a["cowboy"]))]
    if kind == "claim":
        seen: set[tuple[str, str | None]] = set()
        out = []
        for a in moves:
            cells = (a["flag"], a["second"])
            if cells not in seen:
                seen.add(cells)
                out.append(a)
        return out
    return moves


_FLAG_MEMO: Final[dict[tuple[Any, ...], list[Action]]] = {}
_FLAG_MEMO_SIZE: Final = 4096
"""Flag candidates already ranked: a search meets the same board in most of its
iterations (every determinisation of one information set has the same public board)."""


def _flag_candidates(s: State, seat: int, moves: list[Action]) -> list[Action]:
    """The greedy bot's best ``FLAG_CANDIDATES`` flag cells for ``seat``, one action each.
    The ranking reads only the public board (markers, flags, lakes and their owners, the
    round) and the flags the seat holds, which together also fix ``moves``: it is kept
    under those, never under anything hidden."""
    key = (
        seat,
        s.n,
        s.round,
        tuple(s.markers),
        tuple(s.flags),
        s.lake_owners,
        s.lakes,
        s.flag_hands[seat],
    )
    found = _FLAG_MEMO.get(key)
    if found is None:
        found = _rank_flags(s, seat, moves)
        if len(_FLAG_MEMO) >= _FLAG_MEMO_SIZE:
            _FLAG_MEMO.clear()
        _FLAG_MEMO[key] = found
    return list(found)


def _rank_flags(s: State, seat: int, moves: list[Action]) -> list[Action]:
    """The greedy bot's best ``FLAG_CANDIDATES`` cells (its gain there, less
    ``flag_denial`` times the best other seat's gain), each with its first colour, ranked by
    score, colour, cell. A cell's own gain bounds its score (the denial only lowers it), so
    the other seats' gains are computed in order of that bound and only until no cell left
    can reach the ranking: the same ranking as scoring every cell, for a fraction of it."""
    pos = Position(views.view(s, seat))
    index = board.CELL_INDEX
    first: dict[str, Action] = {}
    for a in moves:
        held = first.get(a["cell"])
        if held is None or a["colour"] < held["colour"]:
            first[a["cell"]] = a
    bounds = sorted(
        ((pos.gain(seat, 1 << index[cell]), cell) for cell in first), key=lambda b: -b[0]
    )
    denial = _GREEDY.flag_denial
    others = [o for o in range(pos.n) if o != seat]
    scored: list[tuple[float, str, str, Action]] = []
    for own, cell in bounds:
        if len(scored) >= FLAG_CANDIDATES:
            scored.sort(key=_rank_key)
            del scored[FLAG_CANDIDATES:]
            if own < scored[-1][0]:
                break
        bit = 1 << index[cell]
        best_other = max((pos.gain(o, bit) for o in others), default=0.0)
        a = first[cell]
        scored.append((own - denial * max(best_other, 0.0), a["colour"], cell, a))
    scored.sort(key=_rank_key)
    return [a for _, _, _, a in scored[:FLAG_CANDIDATES]]


def _rank_key(item: tuple[float, str, str, Action]) -> tuple[float, str, str]:
    return (-item[0], item[1], item[2])


if _GREEDY.flag_denial < 0:
    raise ValueError("the pruning in _rank_flags needs a flag denial that only lowers a score")


# -- the playout policy ----------------------------------------------------------------

FUTURE_WEIGHT: Final = 0.75
"""Weight of a later round's valuation of the board as it stands in ``playout_estimate``."""
COWBOY_POINTS: Final = 0.4
"""Points a cowboy in hand is worth per round still to come in ``playout_estimate``."""


def playout_estimate(start: State, s: State) -> list[float] | None:
    """Stop a playout when the round it began in is over: the score so far plus, for each
    round still to come, ``FUTURE_WEIGHT`` times the valuation of today's board and
    ``COWBOY_POINTS`` per cowboy held."""
    if s.round == start.round or s.phase == "over":
        return None
    done = s.round - 1  # rounds valued so far
    est = [float(x) for x in s.scores]
    lake_ids = [lid for lid, _ in s.lakes]
    markers = dict(enumerate(s.markers))
    for r in range(done + 1, 5):
        vals = score_round(markers, s.lake_owners, lake_ids, s.layout.border, r)
        for p in range(s.n):
            est[p] += FUTURE_WEIGHT * vals[p]["total"]
    for p in range(s.n):
        est[p] += COWBOY_POINTS * (4 - done) * s.hands[p].bit_count()
    return est


NEAR_CHANCE: Final = 0.7
"""How often a playout flag goes next to the seat's own markers (when it can) and a
playout claim is the one that adds most cells next to them."""


def playout_action(s: State, seat: int, rng: Generator) -> Action:
    """A cheap move: a flag cell, next to the seat's markers 70 % of the time; a random bid
    of 0-3 cowboys (the highest and the lowest); a claim, 70 % of the time the one adding
    most cells and most cells next to the seat's markers; never a sale or interest in one."""
    sale = s.sale
    if sale is not None:
        if sale.stage == "interest":
            return {"type": "sale_interest", "interested": False}
        pool = board.bits(rules.uncommitted(s, seat))
        if sale.stage == "bid":
            return {"type": "sale_bid", "cowboys": pool[:1]}
        return {"type": "sale_pay", "cowboy": pool[0]}
    if s.phase == "flags":
        held = [c for c in range(4) if s.flag_hands[seat][c]]
        free = rules.flag_cells(s)
        near = free & board.grow(s.markers[seat])
        cells = board.bits(near if near and rng.random() < NEAR_CHANCE else free)
        if held and cells:
            return {
                "type": "place_flag",
                "colour": COLOURS[held[rng.randrange(len(held))]],
                "cell": board.CELL_NAMES[cells[rng.randrange(len(cells))]],
            }
        legal = views.legal_actions(s, seat)
        return legal[rng.randrange(len(legal))]
    if s.phase == "bid":
        hand = board.bits(s.hands[seat])
        k = rng.randrange(min(len(hand), 3) + 1)
        return {"type": "bid", "cowboys": bid_cowboys(hand, k)}
    claims = views.claim_actions(s)
    if rng.random() < NEAR_CHANCE:
        near = board.grow(s.markers[seat])
        index = board.CELL_INDEX
        best = -1
        picks: list[Action] = []
        for a in claims:
            got = 1 << index[a["flag"]]
            if a["second"] is not None:
                got |= 1 << index[a["second"]]
            score = (got & near).bit_count() + got.bit_count()
            if score > best:
                best, picks = score, [a]
            elif score == best:
                picks.append(a)
        return picks[rng.randrange(len(picks))]
    return claims[rng.randrange(len(claims))]
