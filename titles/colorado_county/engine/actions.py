"""Strict parsing and validation of player actions (CC-12 JSON forms).

``apply_action`` validates everything before touching anything; it then applies the
action to a copy, so a refused action never changes the caller's state and anything a
client sends either works or raises ``IllegalAction``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn

from games.engine import IllegalAction

from . import board, rules, sales
from .data import CARD_INDEX, CARDS, COLOUR_INDEX, COLOURS, DATA
from .state import State

Event = dict[str, Any]

FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    # type: (required keys, optional keys) besides "type"
    "place_flag": (frozenset({"colour", "cell"}), frozenset()),
    "bid": (frozenset({"cowboys"}), frozenset()),
    "claim": (frozenset({"card", "flag"}), frozenset({"second"})),
    "sell": (frozenset({"cell"}), frozenset()),
    "sale_interest": (frozenset({"interested"}), frozenset()),
    "sale_bid": (frozenset({"cowboys"}), frozenset()),
    "sale_pay": (frozenset({"cowboy"}), frozenset()),
}
# type -> every allowed key set (with "type"), for the quick check of a well-formed action
KEY_SETS: Final[dict[str, tuple[frozenset[str], ...]]] = {
    kind: (req | {"type"},) + ((req | opt | {"type"},) if opt else ())
    for kind, (req, opt) in FIELDS.items()
}
SALE_TYPES: Final = frozenset({"sale_interest", "sale_bid", "sale_pay"})
BASE_PHASE: Final = {"place_flag": "flags", "bid": "bid", "claim": "claim"}
PHASE_WORDS: Final = {"flags": "flag placement", "bid": "bidding", "claim": "claiming"}


def fail(code: str, message: str) -> NoReturn:
    raise IllegalAction(code, message)


def parse_cell(value: Any, what: str) -> int:
    if not isinstance(value, str):
        fail("bad_action", f'The {what} must be a cell name such as "C4".')
    idx = board.CELL_INDEX.get(value)
    if idx is None:
        fail("unknown_cell", f"There is no cell {value[:10]!r} on the board (A1 to O10).")
    return idx


def parse_cowboy(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail("bad_action", "Cowboys are given by their numbers (whole numbers 1 to 66).")
    return value


def parse_cowboys(value: Any) -> int:
    if not isinstance(value, (list, tuple)):  # a tuple, not list | tuple: no union per call
        fail("bad_action", "Cowboys must be a list of cowboy numbers.")
    top = DATA.cowboys
    if len(value) > top:
        fail("bad_action", "That list has more cowboys than the game has.")
    mask = 0
    for c in value:
        if type(c) is not int:
            c = parse_cowboy(c)
        if not 1 <= c <= top:
            fail("cowboy_not_held", f"There is no cowboy number {c}.")
        if mask >> c & 1:
            fail("duplicate_cowboy", f"Cowboy {c} is listed twice.")
        mask |= 1 << c
    return mask


def check_held(s: State, seat: int, mask: int, committed_ok: bool) -> None:
    missing = mask & ~s.hands[seat]
    if missing:
        fail("cowboy_not_held", f"You do not hold cowboy {board.bits(missing)[0]}.")
    if not committed_ok:
        busy = mask & ~rules.uncommitted(s, seat)
        if busy:
            fail(
                "cowboy_committed",
                f"Cowboy {board.bits(busy)[0]} is committed to your bid for this turn.",
            )


def check_shape(action: Any) -> str:
    if not isinstance(action, dict):
        fail("bad_action", 'An action must be an object with a "type".')
    kind = action.get("type")
    if not isinstance(kind, str):
        fail("bad_action", 'An action must have a "type" string.')
    key_sets = KEY_SETS.get(kind)
    if key_sets is None:
        fail("unknown_action", f"There is no action called {kind[:30]!r}.")
    keys = action.keys()
    for allowed in key_sets:
        if keys == allowed:
            return kind
    required, optional = FIELDS[kind]
    given = set(action) - {"type"}
    if not required <= given:
        missing = ", ".join(sorted(str(k) for k in required - given))
        fail("bad_action", f"The {kind} action needs: {missing}.")
    extra = ", ".join(sorted(str(k)[:30] for k in given - required - optional))
    fail("bad_action", f"The {kind} action does not take: {extra}.")


def apply_action(s0: State, seat: Any, action: Any) -> tuple[State, list[Event]]:
    if type(seat) is not int or not 0 <= seat < s0.n:
        fail("not_a_player", "That seat does not play in this game.")
    if s0.phase == "over":
        fail("game_over", "The game is over.")
    # fast path: a plain dict with exactly one of its type's key sets; else the full check
    kind = action.get("type") if type(action) is dict else None
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None or (action.keys() != spec[0] and action.keys() != spec[1]):
        kind = check_shape(action)
        spec = _SPECS[kind]
    if spec[3]:
        if s0.sale is None:
            fail("wrong_phase", "No land sale is open.")
    elif s0.sale is not None:
        fail("sale_open", "A land sale is open; the game waits until it is settled.")
    elif spec[4] is not None and s0.phase != spec[4]:
        fail("wrong_phase", f"This is not the time for that: it is {PHASE_WORDS[s0.phase]}.")
    return spec[2](s0, seat, action)


def do_place_flag(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    if seat != s0.flag_turn:
        fail("not_your_turn", "It is not your turn to place a flag.")
    colour_name = a["colour"]
    if not isinstance(colour_name, str) or colour_name not in COLOUR_INDEX:
        fail("bad_action", f"The flag colour must be one of {', '.join(COLOURS)}.")
    colour = COLOUR_INDEX[colour_name]
    if not s0.flag_hands[seat][colour]:
        fail("colour_not_held", f"You hold no {colour_name} flag.")
    cell = parse_cell(a["cell"], "cell")
    if not s0.layout.land >> cell & 1:
        fail("cell_under_water", f"{board.CELL_NAMES[cell]} is under a lake.")
    free = rules.free_land(s0)
    if not free >> cell & 1:
        fail("cell_not_free", f"{board.CELL_NAMES[cell]} already holds a marker or a flag.")
    if not rules.flag_cells(s0, free) >> cell & 1:
        fail("flag_adjacent", f"{board.CELL_NAMES[cell]} is next to another flag.")
    s = s0.copy()
    ev: list[Event] = []
    rules.put_flag(s, seat, colour, cell, ev, random=False)
    return s, ev


def do_bid(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    mask = parse_cowboys(a["cowboys"])
    check_held(s0, seat, mask, committed_ok=True)
    s = s0.copy()
    ev: list[Event] = []
    rules.submit_bid(s, seat, mask, ev)
    return s, ev


def do_claim(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    if not s0.claim_order or seat != s0.claim_order[0]:
        fail("not_your_turn", "It is not your turn to take a card.")
    cid = a["card"]
    if not isinstance(cid, str):
        fail("bad_action", "The card must be given by its id.")
    card = CARD_INDEX.get(cid, -1)
    if card not in s0.face_up:
        fail("card_not_face_up", f"The card {cid[:30]!r} is not among the face-up cards.")
    info = CARDS[card]
    if not s0.flags[info.colour_index]:
        fail("no_flag_of_colour", f"There is no {info.colour} flag on the board.")
    flag = parse_cell(a["flag"], "flag")
    if not s0.flags[info.colour_index] >> flag & 1:
        fail("not_a_flag_of_colour", f"{board.CELL_NAMES[flag]} holds no {info.colour} flag.")
    targets = rules.second_targets(card, flag)
    free = rules.free_land(s0) if targets else 0
    raw = a.get("second")
    if raw is None:
        for t in targets:
            if free >> t & 1:
                fail("second_cell_required", "This card needs a second cell: one is free.")
        second = -1
    else:
        second = parse_cell(raw, "second cell")
        if second not in targets:
            name = board.CELL_NAMES[second]
            fail("wrong_offset", f"{name} is not where this card's second star falls.")
        if not s0.layout.land >> second & 1:
            fail("cell_under_water", f"{board.CELL_NAMES[second]} is under a lake.")
        if not free >> second & 1:
            name = board.CELL_NAMES[second]
            fail("second_cell_not_free", f"{name} already holds a marker or a flag.")
    s = s0.copy()
    ev: list[Event] = []
    rules.claim(s, seat, card, flag, second, ev)
    return s, ev


def do_sell(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    if not s0.stack:
        fail("sale_after_stack", "Land can only be sold while the round's stack has cards.")
    if s0.sale_cards[seat] <= 0:
        fail("no_sale_cards", 'You have no "For Sale" cards left.')
    if s0.sales_round[seat] >= DATA.sales_per_round:
        fail("sale_limit_round", "You have already sold two cells this round.")
    cell = parse_cell(a["cell"], "cell")
    name = board.CELL_NAMES[cell]
    if not s0.layout.land >> cell & 1:
        fail("cell_under_water", f"{name} is under a lake.")
    if not s0.markers[seat] >> cell & 1:
        fail("not_your_marker", f"You have no marker on {name}.")
    s = s0.copy()
    ev: list[Event] = []
    sales.open_sale(s, seat, cell, ev)
    return s, ev


def do_sale_interest(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    sale = s0.open_sale()
    if sale.stage != "interest":
        fail("wrong_phase", "Interest in this sale has already been declared.")
    if seat not in sale.asked:
        fail("not_in_sale", "You are not asked about this sale.")
    value = a["interested"]
    if not isinstance(value, bool):
        fail("bad_action", '"interested" must be true or false.')
    s = s0.copy()
    ev: list[Event] = []
    sales.sale_interest(s, seat, value, ev)
    return s, ev


def do_sale_bid(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    sale = s0.open_sale()
    if sale.stage != "bid":
        fail("wrong_phase", "This sale is not at the bidding stage.")
    if seat not in sale.interested():
        fail("not_in_sale", "You are not bidding in this sale.")
    mask = parse_cowboys(a["cowboys"])
    if not mask:
        fail("sale_bid_empty", "A bid for land must have at least one cowboy.")
    check_held(s0, seat, mask, committed_ok=False)
    s = s0.copy()
    ev: list[Event] = []
    sales.sale_bid(s, seat, mask, ev)
    return s, ev


def do_sale_pay(s0: State, seat: int, a: dict[str, Any]) -> tuple[State, list[Event]]:
    sale = s0.open_sale()
    if sale.stage != "pay":
        fail("wrong_phase", "This sale is not waiting for a payment.")
    if seat != sale.buyer:
        fail("not_in_sale", "You are not the buyer in this sale.")
    cowboy = parse_cowboy(a["cowboy"])
    if not 1 <= cowboy <= DATA.cowboys:
        fail("cowboy_not_held", f"There is no cowboy number {cowboy}.")
    check_held(s0, seat, 1 << cowboy, committed_ok=False)
    s = s0.copy()
    ev: list[Event] = []
    sales.sale_pay(s, seat, cowboy, ev)
    return s, ev


Handler = Callable[[State, int, dict[str, Any]], tuple[State, list[Event]]]
HANDLERS: Final[dict[str, Handler]] = {
    "place_flag": do_place_flag,
    "bid": do_bid,
    "claim": do_claim,
    "sell": do_sell,
    "sale_interest": do_sale_interest,
    "sale_bid": do_sale_bid,
    "sale_pay": do_sale_pay,
}
# type -> (its key sets, the longer one first (claims list "second"); the handler; a sale
# type?; base phase)
_SPECS: Final[dict[str, tuple[frozenset[str], frozenset[str], Handler, bool, str | None]]] = {
    kind: (sets[-1], sets[0], HANDLERS[kind], kind in SALE_TYPES, BASE_PHASE.get(kind))
    for kind, sets in KEY_SETS.items()
}
