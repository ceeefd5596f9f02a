"""Colorado's rules as pure functions over ``State`` (rulings CO-… in ``docs/rules.md``):
set-up, the start flags, the call and its answer, and the dispatch of every move."""

from __future__ import annotations

from typing import Any

from games.engine import IllegalAction, _rng

from . import actionstep, endstep
from .cards import card_order, draw, is_card, matching, without
from .data import ACTION_OF, CARDS, HAND_SIZES, START_NUGGETS, TOWNS, colour_of, full_deck
from .state import STANDING, Player, State

Event = dict[str, Any]
Action = dict[str, Any]


def setup(players: int, seed: int | str, round_limit: int) -> tuple[State, list[Event]]:
    """CO-8: a shuffled deck; hands of 4, 5, 6, 7 cards from the first caller (seat 0,
    CO-9) on; one card into each play area; three nuggets each."""
    rng = _rng.seed_to_state(seed)
    deck = full_deck()
    rng = _rng.shuffle(rng, deck)
    seats = []
    for q in range(players):
        hand = sorted((deck.pop() for _ in range(HAND_SIZES[q])), key=card_order)
        seats.append(Player(hand=tuple(hand), area=(deck.pop(),), nuggets=START_NUGGETS))
    s = State(n=players, rng=rng, players=tuple(seats), deck=tuple(deck), round_limit=round_limit)
    events: list[Event] = [
        {
            "type": "game_started",
            "visible_to": "all",
            "areas": [list(p.area) for p in s.players],
            "hands": [len(p.hand) for p in s.players],
        }
    ]
    events += [
        {"type": "my_hand", "visible_to": [q], "seat": q, "cards": list(p.hand)}
        for q, p in enumerate(s.players)
    ]
    return s, events


def to_act(s: State) -> frozenset[int]:
    if s.phase == "start":
        return frozenset(q for q, p in enumerate(s.players) if not p.flags)
    if s.phase == "call":
        return frozenset({s.caller})
    if s.phase == "answer":
        return frozenset({s.target})
    if s.phase == "action":
        return frozenset(q for q, p in enumerate(s.players) if not p.done)
    if s.phase == "flags":
        return frozenset(q for q, p in enumerate(s.players) if p.sets > 0)
    return frozenset()


def _standing(p: Player) -> list[Action]:
    return [{"type": "standing", "answer": a} for a in STANDING if a != p.standing]


def legal_actions(s: State, seat: int) -> list[Action]:
    if seat not in to_act(s):
        return []
    p = s.players[seat]
    if s.phase == "start":
        return [{"type": "start", "town": t} for t in TOWNS]
    if s.phase == "call":
        return [
            {"type": "call", "seat": q, "card": c} for q in range(s.n) if q != seat for c in CARDS
        ]
    if s.phase == "answer":
        return [{"type": "give", "card": c} for c in matching(p.hand, s.named)] + _standing(p)
    if s.phase == "action":
        return actionstep.legal(p) + _standing(p)
    return [{"type": "flag", "region": r} for r in endstep.flag_choices(p)]


def apply(s: State, seat: int, action: Any) -> tuple[State, list[Event]]:
    if s.phase == "over":
        raise IllegalAction("game_over", "The game is over.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalAction("not_a_player", "There is no such seat at this table.")
    if seat not in to_act(s):
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", "An action is an object with a type.")
    kind = action["type"]
    p = s.players[seat]
    if kind == "standing" and s.phase in ("answer", "action"):
        return _set_standing(s, seat, action)
    if s.phase == "start" and kind == "start":
        return _start(s, seat, action)
    if s.phase == "call" and kind == "call":
        return _call(s, seat, action)
    if s.phase == "answer" and kind == "give":
        card = action.get("card")
        if card not in matching(p.hand, s.named):
            raise IllegalAction("bad_card", "Give a card of the named colour or value.")
        card = str(card)
        return _receive(s, card, "choice", [])
    if s.phase == "action" and kind == "done":
        s = s.put(seat, p.with_(done=True, pending=()))
        events: list[Event] = [{"type": "finished", "visible_to": "all", "seat": seat}]
        if all(q.done for q in s.players):
            s, more = endstep.reveal(s)
            events += more
        return s, events
    if s.phase == "action" and kind in actionstep.STEP_TYPES:
        after = actionstep.apply(p, action)
        return s.put(seat, after), [
            {"type": "my_move", "visible_to": [seat], "seat": seat, "move": after.log[-1]}
        ]
    if s.phase == "flags" and kind == "flag":
        region = action.get("region")
        if region not in endstep.flag_choices(p):
            raise IllegalAction(
                "bad_region", "That flag cannot be ticked: choose one next to yours."
            )
        region = str(region)
        events = []
        s = endstep.tick_flag(s, seat, region, events)
        return endstep.settle_flags(s, events)
    raise IllegalAction("bad_action", "That is not one of your choices now.")


def _set_standing(s: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """CO-11: a standing answer (``low``/``high``: give the lowest/highest matching card
    without being asked; ``ask``: be asked). Private to the seat."""
    answer = action.get("answer")
    if answer not in STANDING:
        raise IllegalAction("bad_answer", "A standing answer is ask, low or high.")
    answer = str(answer)
    s = s.put(seat, s.players[seat].with_(standing=answer))
    events: list[Event] = [{"type": "my_standing", "visible_to": [seat], "answer": answer}]
    if s.phase == "answer" and answer != "ask":
        cards = matching(s.players[seat].hand, s.named)
        return _receive(s, cards[0] if answer == "low" else cards[-1], "standing", events)
    return s, events


def _start(s: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    town = action.get("town")
    if town not in TOWNS:
        raise IllegalAction("bad_town", "Start in one of the two towns.")
    town = str(town)
    s = s.put(seat, s.players[seat].with_(flags=(town,)))
    events: list[Event] = [{"type": "started", "visible_to": "all", "seat": seat, "town": town}]
    if all(p.flags for p in s.players):
        s = s.with_(phase="call")
        events.append({"type": "round_started", "visible_to": "all", "round": 1, "caller": 0})
    return s, events


def _call(s: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """The help page's call: the exact card if held; else one of that colour or value,
    the called seat's choice (CO-10, CO-11); else a random card of its hand; an empty
    hand gives the deck's top card (CO-10)."""
    target, named = action.get("seat"), action.get("card")
    if isinstance(target, bool) or not isinstance(target, int) or target == seat:
        raise IllegalAction("bad_seat", "Call an opponent.")
    if not 0 <= target < s.n or not is_card(named):
        raise IllegalAction("bad_call", "Name an opponent and a card (colour and value).")
    named = str(named)
    s = s.with_(target=target, named=named)
    events: list[Event] = [
        {"type": "called", "visible_to": "all", "seat": seat, "target": target, "card": named}
    ]
    hand = s.players[target].hand
    if named in hand:
        return _receive(s, named, "exact", events)
    cards = matching(hand, named)
    if len(cards) == 1:
        return _receive(s, cards[0], "only", events)
    if cards:
        standing = s.players[target].standing
        if standing == "ask":
            return s.with_(phase="answer"), events
        return _receive(s, cards[0] if standing == "low" else cards[-1], "standing", events)
    if hand:
        rng, i = _rng.below(s.rng, len(hand))
        return _receive(s.with_(rng=rng), hand[i], "random", events)
    s, got = draw(s, 1)
    if got:
        return _receive(s, got[0], "deck", events, from_deck=True)
    return _begin_action(s, "nugget", events)


def _receive(
    s: State, card: str, how: str, events: list[Event], from_deck: bool = False
) -> tuple[State, list[Event]]:
    """The caller gets ``card``: into the play area, or, if the same card is there, onto
    the discard pile for a nugget (the help page). Its colour sets the action."""
    if not from_deck:
        q = s.players[s.target]
        s = s.put(s.target, q.with_(hand=without(q.hand, [card])))
    c = s.players[s.caller]
    duplicate = card in c.area
    if duplicate:
        s = s.put(s.caller, c.with_(nuggets=c.nuggets + 1)).with_(discard=(*s.discard, card))
    else:
        s = s.put(s.caller, c.with_(area=tuple(sorted((*c.area, card), key=card_order))))
    events.append(
        {
            "type": "answered",
            "visible_to": "all",
            "seat": s.target,
            "caller": s.caller,
            "card": card,
            "how": how,
            "duplicate": duplicate,
        }
    )
    return _begin_action(s.with_(received=card), ACTION_OF[colour_of(card)], events)


def _begin_action(s: State, kind: str, events: list[Event]) -> tuple[State, list[Event]]:
    s = s.with_(
        phase="action",
        action=kind,
        players=tuple(p.with_(pending=(kind,), done=False, log=()) for p in s.players),
    )
    events.append({"type": "action_step", "visible_to": "all", "action": kind})
    return s.with_(shown=s.players), events
