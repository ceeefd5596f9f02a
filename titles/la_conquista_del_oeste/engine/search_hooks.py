"""The search bot's other hooks for La Conquista del Oeste (``games.engine.bots.search``):
which moves it weighs, how its playouts play, and where they stop.

``search_actions``: the hard bot's usual move (``hard_policy``: the medium bot's, with spare
items and careful roads once equipped), and besides it only the moves that change a
race by several turns at once and that the medium bot never makes (``FOCUS``): robbing a
bank, a duel, the railway, and a move onto a town where a rival stands (to duel there) for
a pawn with a revolver. Any other decision has one candidate and costs no search: the
search weighed every sensible move once and lost to the medium bot, because its estimate
one round ahead errs by more than the small differences between ordinary moves.
``sensible_actions`` are those ordinary moves (no offer, no sale, no purchase of an item
held, an accepted offer only for a missing item, the smallest poker bet, the destinations
nearer the end of the leg): the candidates of the focused moves come from them.

``playout_action``: the greedy bot's move (or, one time in ``1 / PLAYOUT_EPSILON`` if it is
set, a uniformly drawn sensible move).

``search_budget``: the share of the per-move budget a decision spends (``BUDGET``): a
half in town, a fifth for the move, three tenths after it, one move's budget for a turn
that searches in each phase, so that a bot's turn thinks about as long as one Colorado
County move (most turns search once or not at all).

``playout_estimate``: a playout stops ``HORIZON`` rounds after it began and every seat is
scored by the turns it still needs to win (``remaining``): the expected rolls of a tour of
shops selling its missing items (in the best order), then its family's town and the
Pacific; the turns of work its purchases still need; the turns it must miss or may spend
in prison; its cards' money and items counted as held. Two seats: the chance to win
(``win_chance``) from the gap between the two, drawn as a win or a tie.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from games.engine import Generator
from games.engine._rng import next_u64

from . import actions, hard_policy, routes, views
from .data import CITIES, DATA
from .greedy_bot import GreedyBot
from .rules import has_lily
from .state import Player, State

Action = dict[str, Any]

PLAYOUT_EPSILON = 0.0
MOVES_KEPT = 3
HORIZON = 1
PRISON_TURNS = 6.0  # a double in one roll of six
#: The spread of the turns a seat still needs: ``NOISE * sqrt(remaining + 1)`` (standard
#: deviation), fitted on 400 two-player games of the medium bot against itself (9,229
#: round starts; the difference of two seats' estimates predicts the winner best with
#: 1.5-1.6).
NOISE = 1.6
#: Share of the per-move budget for one decision, by phase (``search_budget``): together
#: one move's budget (five to eight searched decisions a game, mostly one a turn).
BUDGET = {"town": 0.5, "move": 0.2, "after": 0.3}
_GREEDY = GreedyBot()
#: The moves the search weighs besides the medium bot's: those that change a race by
#: several turns at once (a robbery's vault, a duel's three missed turns, the railway).
FOCUS = frozenset({"rob", "duel", "rail"})
_TRADE = frozenset({"offer", "accept", "refuse", "withdraw"})


def _leg(p: Player) -> routes.Plan:
    return routes.plan(p.pos, p.outfit, p.money, p.family, has_lily(p))


def search_actions(s: State, seat: int) -> list[Action]:
    legal = actions.legal_actions(s, seat, offers=False)
    kept = sensible_actions(s, seat, legal)
    if not FOCUS:
        return kept
    usual = hard_policy.usual_action(s, seat, legal)
    p = s.players[seat]
    armed = p.outfit["revolver"] > 0
    rivals = {q.pos for t, q in enumerate(s.players) if t != seat and not q.jail}
    hunt = [a for a in legal if a["type"] == "move" and armed and a["to"] in rivals]
    out = [usual]
    for a in kept + hunt:
        if a not in out and (a in hunt or a["type"] in FOCUS):
            out.append(a)
    return out


def sensible_actions(s: State, seat: int, legal: list[Action]) -> list[Action]:
    p = s.players[seat]
    missing = set(routes.missing_items(p.outfit))
    moves = [a for a in legal if a["type"] == "move"]
    kept_moves: set[str] = set()
    if moves:
        leg = _leg(p)
        ranked = leg.ranked([str(a["to"]) for a in moves])
        here = leg.cost(p.pos)
        closer = [c for c in ranked if leg.cost(c) < here][:MOVES_KEPT]
        kept_moves = set(closer or ranked[:1])
    bets = [int(a["bet"]) for a in legal if a["type"] == "poker"]
    out: list[Action] = []
    for a in legal:
        kind = a["type"]
        if kind in ("offer", "sell"):
            continue
        if kind == "buy" and a["item"] not in missing:
            continue
        if kind == "move" and a["to"] not in kept_moves:
            continue
        if kind == "poker" and a["bet"] != min(bets):
            continue
        if kind == "accept" and not _fair(s, seat, a["offer"], missing):
            continue
        out.append(a)
    return out or legal


def _fair(s: State, seat: int, offer: int, missing: set[str]) -> bool:
    """An offer worth accepting: a missing item for no more than the West price, nothing
    asked of the seat but money."""
    o = next((x for x in s.offers if x["id"] == offer), None)
    if o is None or o["take"]["items"]:
        return False
    got = [i for i in o["give"]["items"] if i in missing]
    return bool(got) and o["take"]["money"] <= DATA.prices[got[0]]["west"][0]


def playout_action(s: State, seat: int, rng: Generator) -> Action:
    if rng.random() < PLAYOUT_EPSILON:
        moves = [
            a
            for a in sensible_actions(s, seat, actions.legal_actions(s, seat, offers=False))
            if a["type"] not in _TRADE
        ]
        if moves:
            return moves[rng.randrange(len(moves))]
    legal = actions.legal_actions(s, seat, offers=False)
    # The search passes its seeded random.Random; the greedy bot is typed for that.
    action: Action = _GREEDY.choose(None, views.view(s, seat), legal, rng)  # type: ignore[arg-type]
    return action


def remaining(p: Player) -> float:
    """The rolls (turns) a player still needs to win, estimated from its position,
    outfit, money, family, prison, missed turns and the money and items its cards give."""
    outfit, money = p.outfit, p.money
    for card in p.hand:
        eff = DATA.opportunity[card].effect
        if eff["kind"] == "money":
            money += eff["amount"]
        elif eff["kind"] == "free_item" and not outfit[eff["item"]]:
            outfit = {**outfit, eff["item"]: 1}
    lily = has_lily(p)
    missing = routes.missing_items(outfit)
    turns = float(p.skip)
    if not missing:
        leg = routes.plan(p.pos, outfit, money, p.family, lily)
        return turns + leg.table.get(p.pos, routes.UNREACHABLE) + _jailed(p)
    west = bool(p.family) or CITIES[p.pos].west
    zone = "west" if west else "east"
    turns += min(
        routes.turns_tour(tuple(routes.shops(i, west) for i in order), west, lily, p.family).get(
            p.pos, routes.UNREACHABLE
        )
        for order in itertools.permutations(missing)
    )
    need = sum(DATA.prices[i][zone][0] for i in missing)
    turns += max(0, need - money) / DATA.work_pay
    return turns + _jailed(p)


def _jailed(p: Player) -> float:
    return PRISON_TURNS if p.jail else 0.0


def search_budget(s: State, seat: int) -> float:
    if s.poker_wait or seat != s.seat:
        return 0.2
    return BUDGET.get(s.phase, 0.2)


def win_chance(mine: float, theirs: float, head_start: float = 0.0) -> float:
    """The chance that a seat with ``mine`` turns still to go finishes before a rival with
    ``theirs`` (each seat's turns spread by ``NOISE * sqrt(turns + 1)``); ``head_start``
    in turns (half a turn for the seat that plays first in the round of two)."""
    spread = NOISE * math.sqrt(mine + theirs + 2.0)
    gap = theirs - mine + head_start
    return 0.5 * (1.0 + math.erf(gap / (spread * math.sqrt(2.0))))


class _Draws:
    """Uniform and normal draws from a splitmix64 state (the rules import no ``random``)."""

    def __init__(self, state: int) -> None:
        self.state = state

    def random(self) -> float:
        self.state, out = next_u64(self.state)
        return (out >> 11) / float(1 << 53)

    def gauss(self, mu: float, sigma: float) -> float:
        u = 1.0 - self.random()  # in (0, 1]: the logarithm is finite
        return mu + sigma * math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * self.random())


def playout_estimate(start: State, s: State) -> list[float] | None:
    if s.phase == "over" or s.round < start.round + HORIZON:
        return None
    left = [remaining(p) for p in s.players]
    # A seat later in the round than another finishes later with as many turns to go.
    later = [((k - s.seat) % s.n) / s.n for k in range(s.n)]
    noise = _Draws(s.rng)  # a playout's dice, from the state's own generator
    if s.n == 2:
        # The search scores a result by its winner only: draw one whose expectation is
        # the estimated chance to win, as a win or a tie rather than a win or a loss
        # (four times less variance where the chances are even).
        first = win_chance(left[0], left[1], later[1] - later[0])
        if noise.random() < abs(2.0 * first - 1.0):
            return [1.0, 0.0] if first > 0.5 else [0.0, 1.0]
        return [0.5, 0.5]
    return [
        100.0 - t - d - noise.gauss(0.0, NOISE * math.sqrt(t + 1.0))
        for t, d in zip(left, later, strict=True)
    ]
