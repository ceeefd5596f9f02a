"""Legal actions, and ``apply``: parse the action JSON strictly, check it, then carry it
out on a copy of the state."""

from __future__ import annotations

from typing import Any

from games.engine import IllegalAction

from . import rules as R
from . import trades
from .data import CITIES, DATA, ITEMS
from .state import State

Action = dict[str, Any]
POKER_BETS = (100, 250, 500, 1000)
ACTION_KEYS: dict[str, frozenset[str]] = {
    "buy": frozenset({"item"}),
    "sell": frozenset({"item"}),
    "work": frozenset(),
    "poker": frozenset({"bet"}),
    "rob": frozenset(),
    "rail": frozenset(),
    "surrender": frozenset(),
    "duel": frozenset({"kind", "target", "item"}),
    "play": frozenset({"card"}),
    "roll": frozenset(),
    "move": frozenset({"to"}),
    "end_turn": frozenset(),
    "discard": frozenset({"card"}),
    "poker_answer": frozenset({"join"}),
    "offer": frozenset({"to", "give", "take"}),
    "accept": frozenset({"offer"}),
    "refuse": frozenset({"offer"}),
    "withdraw": frozenset({"offer"}),
}
ANSWERS = frozenset({"accept", "refuse", "withdraw"})


def to_act(s: State) -> frozenset[int]:
    if s.phase == "over":
        return frozenset()
    if s.poker_wait:  # LC-23: the table waits only for the invited seats
        return frozenset(s.poker_wait)
    return frozenset({s.seat})


def _playable(s: State, card: str) -> bool:
    """LC-18: a card is played during its holder's own turn, when its effect applies."""
    p = s.players[s.seat]
    eff = DATA.opportunity[card].effect
    kind = eff["kind"]
    if s.forced or s.phase not in ("town", "move", "after"):
        return False
    if kind == "leave_prison":
        return s.phase == "town" and bool(p.jail)
    if p.jail:
        return False
    if kind in ("money", "free_item"):
        return True
    if kind == "pardon":
        return p.reward > 0
    if kind == "free_rail":
        return s.phase in ("town", "after") and _rail_ok(s, fare=0)
    if kind == "extra_steps":
        return s.phase == "move"
    return False  # lily_langtry is never played: it is shown (LC-15)


def _rail_ok(s: State, fare: int) -> bool:
    p = s.players[s.seat]
    return p.pos in DATA.rail_cities and "rail" not in s.did and p.money >= fare


def _duel_targets(s: State) -> list[Action]:
    p = s.players[s.seat]
    if p.jail or "duel" in s.did or p.outfit["revolver"] == 0 or s.forced:
        return []
    out: list[Action] = []
    for t, q in enumerate(s.players):
        if t == s.seat or q.pos != p.pos or q.jail:
            continue
        if q.reward > 0 and p.reward == 0:
            out.append({"type": "duel", "kind": "capture", "target": t})
        for item in ITEMS:
            if item != "revolver" and q.outfit[item] > 0:
                out.append({"type": "duel", "kind": "steal", "target": t, "item": item})
    return out


def legal_actions(s: State, seat: int, offers: bool = True) -> list[Action]:
    """Every action ``seat`` may take; ``offers=False`` leaves out the suggested offers
    (the bots make none, and ``apply`` checks an offer on its own)."""
    if s.phase == "over":
        return []
    if s.poker_wait:
        if seat not in s.poker_wait:
            return []
        return [{"type": "poker_answer", "join": True}, {"type": "poker_answer", "join": False}]
    answers = trades.answers(s, seat)
    if seat != s.seat:
        return answers
    if s.phase == "discard":
        return [{"type": "discard", "card": c} for c in s.players[seat].hand]
    suggested = trades.suggested_offers(s, seat) if offers else []
    return _turn_actions(s, seat) + suggested + answers


def _turn_actions(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    hand: list[Action] = [{"type": "play", "card": c} for c in p.hand if _playable(s, c)]
    if s.phase == "move":
        return [{"type": "move", "to": c} for c in R.destinations(p, s.steps)] + hand
    if s.phase == "after":
        out: list[Action] = []
        if _rail_ok(s, DATA.rail_fare):
            out.append({"type": "rail"})
        return out + _duel_targets(s) + hand + [{"type": "end_turn"}]
    # town phase
    if s.forced:
        return [{"type": "roll"}]
    if p.jail:
        out = [{"type": "roll"}, *hand]
        if p.jail == "roy_bean" and "poker" not in s.did:  # LC-23
            out += [{"type": "poker", "bet": b} for b in POKER_BETS if b <= p.money]
        return out
    city = CITIES[p.pos]
    out = []
    for item in city.shops:
        buy, _ = R.price(item, p.pos)
        if p.money >= buy:
            out.append({"type": "buy", "item": item})
        if p.outfit[item] > 0:
            out.append({"type": "sell", "item": item})
    if city.work and p.worked_at != p.pos and "work" not in s.did:
        out.append({"type": "work"})
    if city.poker and "poker" not in s.did:
        out += [{"type": "poker", "bet": b} for b in POKER_BETS if b <= p.money]
    if city.bank and p.outfit["revolver"] > 0 and "rob" not in s.did:
        out.append({"type": "rob"})
    if _rail_ok(s, DATA.rail_fare):
        out.append({"type": "rail"})
    if p.reward > 0 and city.prison:
        out.append({"type": "surrender"})
    out += _duel_targets(s)
    out += hand
    out.append({"type": "roll"})
    if "rail" in s.did:
        out.append({"type": "end_turn"})  # LC-7: the railway may be the turn's movement
    return out


def _parse(action: Any) -> Action:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", "An action is an object with a type.")
    kind = action["type"]
    if kind not in ACTION_KEYS:
        raise IllegalAction("unknown_action", f"Unknown action {kind!r}.")
    extra = set(action) - {"type"} - ACTION_KEYS[kind]
    if extra:
        raise IllegalAction("bad_action", f"Unknown keys: {', '.join(sorted(map(str, extra)))}.")
    for key in ("item", "card", "kind") + (() if kind == "offer" else ("to",)):
        if key in action and not isinstance(action[key], str):
            raise IllegalAction("bad_action", f"{key} must be a string.")
    if "join" in action and not isinstance(action["join"], bool):
        raise IllegalAction("bad_action", "join must be true or false.")
    for key in ("bet", "target"):
        if key in action and (isinstance(action[key], bool) or not isinstance(action[key], int)):
            raise IllegalAction("bad_action", f"{key} must be an integer.")
    return action


def apply_action(state: State, seat: Any, action: Any) -> tuple[State, list[R.Event]]:
    a = _parse(action)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise IllegalAction("not_a_player", "That seat does not play in this game.")
    if state.phase == "over":
        raise IllegalAction("game_over", "The game is over.")
    if state.poker_wait:
        if seat not in state.poker_wait:
            raise IllegalAction("waiting_for_poker", "The table waits for the poker answers.")
        if a["type"] != "poker_answer" or set(a) != {"type", "join"}:
            raise IllegalAction("poker_answer_due", "Answer the poker invitation first.")
        answered = state.copy()
        out: list[R.Event] = []
        _answer(answered, seat, a["join"], out)
        return answered, out
    if a["type"] == "poker_answer":
        raise IllegalAction("not_invited", "There is no poker invitation to answer.")
    if a["type"] in ANSWERS:  # LC-24: answered on the player's own time
        if state.phase == "discard" and seat == state.seat:
            raise IllegalAction("not_allowed", "Put a card at the bottom of the deck first.")
        answered = state.copy()
        out = []
        trades.answer(answered, seat, a, out)
        trades.prune(answered, out)
        return answered, out
    if seat != state.seat:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    legal = legal_actions(state, seat, offers=False)  # an offer is checked by make_offer
    if a["type"] == "poker":
        p = state.players[seat]
        bet = a.get("bet")
        if not any(x["type"] == "poker" for x in legal):
            raise IllegalAction("not_allowed", "No poker game can be organised now.")
        if not isinstance(bet, int) or bet <= 0 or bet % 50 or bet > DATA.poker_max_bet:
            raise IllegalAction("bad_bet", "The bet is a multiple of 50 $ up to 1,000 $.")
        if bet > p.money:
            raise IllegalAction("bad_bet", "You cannot bet more than you hold.")
    elif a["type"] == "offer":
        pass  # any well-formed offer, checked by trades.make_offer
    elif a not in legal:
        raise IllegalAction("not_allowed", "That action is not allowed now.")
    s = state.copy()
    events: list[R.Event] = []
    _do(s, a, events)
    trades.prune(s, events)
    return s, events


def _do(s: State, a: Action, events: list[R.Event]) -> None:
    seat = s.seat
    p = s.players[seat]
    kind = a["type"]
    if kind == "buy":
        cost = R.price(a["item"], p.pos)[0]
        p.money -= cost
        p.outfit[a["item"]] += 1
        events.append(R.ev("bought", seat=seat, item=a["item"], price=cost))
        R.settle(s, seat, events)
    elif kind == "sell":
        gain = R.price(a["item"], p.pos)[1]
        p.money += gain
        p.outfit[a["item"]] -= 1
        events.append(R.ev("sold", seat=seat, item=a["item"], price=gain))
        R.settle(s, seat, events)
    elif kind == "work":  # LC-10
        p.money += DATA.work_pay
        p.worked_at = p.pos
        events.append(R.ev("worked", seat=seat, city=p.pos, pay=DATA.work_pay))
        R.end_turn(s, events)
    elif kind == "poker":  # LC-23
        s.did += ("poker",)
        s.poker_host, s.poker_bet = seat, a["bet"]
        s.poker_wait = tuple(
            t
            for t, q in enumerate(s.players)
            if t != seat and q.money >= a["bet"] and q.jail in ("", "roy_bean")
        )
        s.poker_in = ()
        events.append(R.ev("poker_announced", seat=seat, bet=a["bet"], invited=list(s.poker_wait)))
        if not s.poker_wait:
            _poker(s, events)
    elif kind == "rob":  # LC-8
        s.did += ("rob",)
        s.forced = "rob"
        p.reward += DATA.poster_value
        d = R.dice(s)
        s.roll = d
        vault = CITIES[p.pos].bank
        ok = sum(d) <= DATA.rob_success_max
        if ok:
            p.money += vault
        events.append(R.ev("robbery", seat=seat, city=p.pos, dice=list(d), ok=ok, vault=vault))
    elif kind == "rail":  # LC-7
        _ride(s, DATA.rail_fare, events)
    elif kind == "surrender":  # LC-14
        events.append(R.ev("surrendered", seat=seat, city=p.pos))
        R.jail(s, seat, "prison", p.pos, events)
        R.end_turn(s, events)
    elif kind == "duel":
        _duel(s, a, events)
    elif kind == "play":
        _play(s, a["card"], events)
    elif kind == "roll":
        if s.forced:
            R.escape_roll(s, events)
        elif p.jail:
            R.prison_roll(s, events)
        else:
            R.roll_for_move(s, events)
    elif kind == "move":
        R.arrive(s, a["to"], events)
    elif kind == "offer":
        trades.make_offer(s, seat, a, events)
    elif kind == "end_turn":
        R.end_turn(s, events)
    elif kind == "discard":
        p.hand.remove(a["card"])
        s.opp_deck.append(a["card"])
        events.append(R.ev("opportunity_returned", seat=seat, count=len(p.hand)))
        resume, s.resume = s.resume, ""
        s.phase = "town"
        if resume == "move":
            s.phase = "move"
            R.start_move(s, events)
        elif resume == "roll":
            R.roll_for_move(s, events)
        elif resume == "after":
            s.phase = "after"
        else:
            R.end_turn(s, events)


def _answer(s: State, seat: int, join: bool, events: list[R.Event]) -> None:
    s.poker_wait = tuple(t for t in s.poker_wait if t != seat)
    if join:
        s.poker_in += (seat,)
    events.append(R.ev("poker_answered", seat=seat, join=join))
    if not s.poker_wait:
        _poker(s, events)


def _poker(s: State, events: list[R.Event]) -> None:
    """LC-23: every player in (and the bank) stakes the bet; all roll two dice, the
    highest total takes the pot, ties at the top roll again among the tied."""
    bet = s.poker_bet
    seats = sorted((s.poker_host, *s.poker_in))
    for t in seats:
        s.players[t].money -= bet
    pot = bet * (len(seats) + 1)
    tied = [*seats, -1]  # -1: the bank
    rolls: list[dict[str, int]] = []
    while len(tied) > 1:
        totals = {t: sum(R.dice(s)) for t in tied}
        rolls.append({str(t): v for t, v in totals.items()})
        top = max(totals.values())
        tied = [t for t in tied if totals[t] == top]
    winner = tied[0]
    if winner >= 0:
        s.players[winner].money += pot
    events.append(R.ev("poker", seats=seats, bet=bet, pot=pot, rolls=rolls, winner=winner))
    s.poker_host, s.poker_bet, s.poker_wait, s.poker_in = -1, 0, (), ()


def _ride(s: State, fare: int, events: list[R.Event]) -> None:
    p = s.players[s.seat]
    a, b = DATA.rail_cities
    to = b if p.pos == a else a
    p.money -= fare
    s.did += ("rail",)
    frm, p.pos, p.worked_at = p.pos, to, ""
    events.append(R.ev("railway", seat=s.seat, frm=frm, to=to, fare=fare))


def _play(s: State, card: str, events: list[R.Event]) -> None:
    seat = s.seat
    p = s.players[seat]
    eff = DATA.opportunity[card].effect
    p.hand.remove(card)
    s.opp_deck.append(card)
    events.append(R.ev("opportunity_played", seat=seat, card=card))
    kind = eff["kind"]
    if kind == "money":
        p.money += eff["amount"]
    elif kind == "free_item":
        p.outfit[eff["item"]] += 1
        R.settle(s, seat, events)
    elif kind == "pardon":
        p.reward = 0
    elif kind == "free_rail":
        _ride(s, 0, events)
    elif kind == "extra_steps":
        s.steps += eff["steps"]
    elif kind == "leave_prison":
        R.release(s, seat, events)
        R.roll_for_move(s, events)


def _duel(s: State, a: Action, events: list[R.Event]) -> None:
    """LC-16: both roll, the higher total wins, ties roll again; the attacked player has
    no choice to make, so the duel is resolved at once."""
    seat, t = s.seat, a["target"]
    p, q = s.players[seat], s.players[t]
    s.did += ("duel",)
    if a["kind"] == "capture":
        rolls: list[list[int]] = []
        won = 0
        if q.outfit["revolver"] > 0:
            won, rolls = R.duel_rolls(s)
        events.append(R.ev("duel", kind="capture", seat=seat, target=t, rolls=rolls, won=won == 0))
        if won == 0:
            p.money += q.reward
            R.jail(s, t, "prison", R.nearest_prison(q.pos), events)
        else:
            p.skip += 3
            R.end_turn(s, events)
        return
    item = a["item"]
    p.reward += DATA.poster_value
    rolls = []
    won = 0
    if q.outfit["revolver"] > 0:
        won, rolls = R.duel_rolls(s)
    events.append(
        R.ev("duel", kind="steal", seat=seat, target=t, item=item, rolls=rolls, won=won == 0)
    )
    if won == 0:
        q.outfit[item] -= 1
        p.outfit[item] += 1
        q.skip += 3
        R.settle(s, t, events)
        R.settle(s, seat, events)
    else:
        q.money += p.reward
        R.jail(s, seat, "prison", R.nearest_prison(p.pos), events)
        R.end_turn(s, events)
