"""Setup, turns, movement, towns, prisons and cards (rulings LC-1..LC-32 in
``titles/la_conquista_del_oeste/docs/rules.md``). Every function here mutates the state it is
given (``actions`` hands it a private copy) and appends events."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engine import _rng

from .data import ARRIVALS, CITIES, DATA, NB, PRISON_CITIES, distances
from .state import Player, State

Event = dict[str, Any]
ORDER = {c: i for i, c in enumerate(DATA.city_order)}
SCORE_TOP = 100
LAPSE_AFTER = 2  # LC-24: an offer lives through the end of the offerer's next turn


def ev(type_: str, **data: Any) -> Event:
    return {"type": type_, "visible_to": "all", **data}


def dice(s: State) -> tuple[int, int]:
    s.rng, a = _rng.below(s.rng, 6)
    s.rng, b = _rng.below(s.rng, 6)
    return a + 1, b + 1


def duel_rolls(s: State) -> tuple[int, list[list[int]]]:
    """Both roll until the totals differ (LC-16): 0 if the first wins, 1 otherwise."""
    rolls: list[list[int]] = []
    while True:
        a, b = sum(dice(s)), sum(dice(s))
        rolls.append([a, b])
        if a != b:
            return (0 if a > b else 1), rolls


def has_lily(p: Player) -> bool:
    return any(DATA.opportunity[c].effect["kind"] == "lily_langtry" for c in p.hand)


def zone(city: str) -> str:
    return "west" if CITIES[city].west else "east"


def price(item: str, city: str) -> tuple[int, int]:
    return DATA.prices[item][zone(city)]


def pay(p: Player, amount: int) -> int:
    """Pay the bank ``amount`` or all the money held (LC-9); return what was paid."""
    paid = min(p.money, amount)
    p.money -= paid
    return paid


# --- setup --------------------------------------------------------------------------------


def setup(n: int, seed: int | str, round_limit: int) -> tuple[State, list[Event]]:
    rng = _rng.seed_to_state(seed)
    opp = list(DATA.opportunity)
    inc = list(DATA.incident)
    rng = _rng.shuffle(rng, opp)
    rng = _rng.shuffle(rng, inc)
    s = State(n=n, rng=rng, players=[], seat=0, first=0, round=1, round_limit=round_limit)
    s.opp_deck, s.inc_deck = opp, inc
    events: list[Event] = []
    for seat in range(n):
        total = sum(dice(s))
        city = next(c for lo, hi, c in DATA.starting_cities if lo <= total <= hi)
        s.players.append(Player(pos=city, money=DATA.start_money))
        events.append(ev("placed", seat=seat, total=total, city=city))
    tied = list(range(n))
    while len(tied) > 1:  # LC-3: the highest roll opens; ties roll again
        totals = {seat: sum(dice(s)) for seat in tied}
        events.append(ev("opening_roll", totals={str(k): v for k, v in totals.items()}))
        top = max(totals.values())
        tied = [seat for seat in tied if totals[seat] == top]
    s.seat = s.first = tied[0]
    events.insert(0, ev("game_started", players=n, first=s.first))
    begin_turn(s, events)
    return s, events


# --- turns --------------------------------------------------------------------------------


def begin_turn(s: State, events: list[Event]) -> None:
    """Start the turn of ``s.seat``: skip seats that must miss turns (LC-17), then the
    compulsory drawings of the city the pawn remains in (LC-10, LC-11)."""
    while s.players[s.seat].skip > 0:
        p = s.players[s.seat]
        p.skip -= 1
        events.append(ev("turn_missed", seat=s.seat, left=p.skip))
        lapse(s, s.seat, events)
        if not _next_seat(s, events):
            return
    s.phase, s.did, s.forced, s.steps, s.resume = "town", (), "", 0, ""
    events.append(ev("turn_started", seat=s.seat, round=s.round))
    p = s.players[s.seat]
    if not p.jail:
        compulsory(s, s.seat, events)


def _next_seat(s: State, events: list[Event]) -> bool:
    s.seat = (s.seat + 1) % s.n
    if s.seat == s.first:
        s.round += 1
        if s.round > s.round_limit:  # LC-27
            s.phase = "over"
            events.append(ev("game_over", reason="round_limit", scores=scores(s)))
            return False
    return True


def end_turn(s: State, events: list[Event]) -> None:
    if s.phase == "over":
        return
    events.append(ev("turn_ended", seat=s.seat))
    lapse(s, s.seat, events)
    if _next_seat(s, events):
        begin_turn(s, events)


def lapse(s: State, seat: int, events: list[Event]) -> None:
    """LC-24: at the end of each turn of ``seat`` (played or missed) its offers age; an
    offer lapses at the end of the offerer's turn after the one it was made in."""
    kept = []
    for o in s.offers:
        if o["from"] == seat:
            o = {**o, "lapse": o["lapse"] - 1}
            if o["lapse"] <= 0:
                events.append(ev("offer_lapsed", seat=seat, offer=o["id"]))
                continue
        kept.append(o)
    s.offers = kept


def compulsory(s: State, seat: int, events: list[Event]) -> None:
    p = s.players[seat]
    city = CITIES[p.pos]
    if city.sheriff:
        events.append(ev("sheriff_paid", seat=seat, amount=pay(p, DATA.sheriff_fee)))
    if city.cardsharp:
        d = dice(s)
        s.roll = d
        if sum(d) <= DATA.cardsharp_win_max:
            p.money += DATA.cardsharp_stake
            events.append(ev("cardsharp", seat=seat, dice=list(d), won=DATA.cardsharp_stake))
        else:
            events.append(
                ev("cardsharp", seat=seat, dice=list(d), lost=pay(p, DATA.cardsharp_stake))
            )


# --- family and prisons -------------------------------------------------------------------


def settle(s: State, seat: int, events: list[Event]) -> None:
    """LC-20: the family piece stays behind when the outfit is incomplete in the West, and
    rejoins when the pawn is back on its city with a complete outfit."""
    p = s.players[seat]
    if p.family and p.family == p.pos and not p.jail and p.complete():
        p.family = ""
        events.append(ev("family_rejoined", seat=seat, city=p.pos))
    elif not p.family and CITIES[p.pos].west and not p.complete():
        p.family = p.pos
        events.append(ev("family_left", seat=seat, city=p.pos))


@cache
def nearest_prison(city: str) -> str:
    """LC-13: fewest edges; ties go to the prison listed first in the data file."""
    dist = distances(NB, [city])
    return min(PRISON_CITIES, key=lambda c: (dist[c], ORDER[c]))


def jail(s: State, seat: int, kind: str, city: str, events: list[Event]) -> None:
    """Send ``seat`` to a prison: all revolvers and posters are lost (LC-14)."""
    p = s.players[seat]
    lost = p.outfit["revolver"]
    p.jail, p.pos, p.worked_at = kind, city, ""
    p.outfit["revolver"] = 0
    p.reward = 0
    events.append(ev("jailed", seat=seat, prison=kind, city=city, revolvers_lost=lost))
    settle(s, seat, events)


def release(s: State, seat: int, events: list[Event]) -> None:
    p = s.players[seat]
    events.append(ev("released", seat=seat, prison=p.jail, city=p.pos))
    p.jail = ""


# --- cards --------------------------------------------------------------------------------


def draw_opportunity(s: State, seat: int, events: list[Event], resume: str) -> None:
    """LC-18: a movement (or prison) roll of 3, 7 or 11 draws one card; a fourth card in
    hand means putting one at the bottom of the deck (a ``discard`` decision)."""
    if not s.opp_deck:
        events.append(ev("opportunity_deck_empty", seat=seat))
        return
    card = s.opp_deck.pop(0)
    p = s.players[seat]
    p.hand.append(card)
    events.append(ev("opportunity_drawn", seat=seat, count=len(p.hand)))
    events.append({"type": "my_opportunity", "visible_to": [seat], "seat": seat, "card": card})
    if len(p.hand) > DATA.hand_limit:
        s.phase, s.resume = "discard", resume


def draw_incident(s: State, seat: int, events: list[Event]) -> None:
    """LC-19: drawn on arriving at an asterisk space; carried out at once, then put at the
    bottom of the deck."""
    card = s.inc_deck.pop(0)
    s.inc_deck.append(card)
    eff = DATA.incident[card].effect
    p = s.players[seat]
    events.append(ev("incident", seat=seat, card=card))
    kind = eff["kind"]
    if kind == "money":
        if eff["amount"] >= 0:
            p.money += eff["amount"]
        else:
            events.append(ev("paid", seat=seat, amount=pay(p, -eff["amount"])))
    elif kind == "lose_item":
        if p.outfit[eff["item"]] > 0:
            p.outfit[eff["item"]] -= 1
            events.append(ev("item_lost", seat=seat, item=eff["item"]))
    elif kind == "free_item":
        p.outfit[eff["item"]] += 1
    elif kind == "skip":
        p.skip += eff["turns"]
    elif kind == "indian_prison":
        jail(s, seat, "indian", DATA.indian_prison_city, events)
    elif kind == "prison_if_wanted" and p.reward > 0:
        jail(s, seat, "prison", nearest_prison(p.pos), events)
    settle(s, seat, events)


# --- movement -----------------------------------------------------------------------------


def may_enter(p: Player, city: str) -> bool:
    """LC-6: the West only with a complete outfit, or while the family waits there."""
    return not CITIES[city].west or p.complete() or bool(p.family)


def destinations(p: Player, steps: int) -> list[str]:
    """LC-4, LC-5, LC-31: spaces 1..steps lines away; a move goes on only through camps,
    so it stops at the first town it enters (and so never passes through Judge Roy
    Bean's Langtry, LC-5)."""
    seen = {p.pos: 0}
    frontier = [p.pos]
    for depth in range(1, steps + 1):
        nxt: list[str] = []
        for a in frontier:
            if a != p.pos and not CITIES[a].camp:
                continue
            for b in NB[a]:
                if b not in seen and may_enter(p, b):
                    seen[b] = depth
                    nxt.append(b)
        frontier = nxt
    return sorted((c for c in seen if c != p.pos), key=ORDER.__getitem__)


def start_move(s: State, events: list[Event]) -> None:
    """Enter the move phase (or, if the pawn cannot move, end the turn)."""
    if s.phase == "discard":
        return
    p = s.players[s.seat]
    if destinations(p, s.steps):
        s.phase = "move"
        return
    events.append(ev("no_move", seat=s.seat))
    if CITIES[p.pos].roy_bean and not has_lily(p):  # LC-15
        jail(s, s.seat, "roy_bean", p.pos, events)
    end_turn(s, events)


def arrive(s: State, to: str, events: list[Event]) -> None:
    seat = s.seat
    p = s.players[seat]
    frm = p.pos
    p.pos, p.worked_at = to, ""
    events.append(ev("moved", seat=seat, frm=frm, to=to))
    city = CITIES[to]
    settle(s, seat, events)
    if city.arrival and p.complete() and not p.family:  # LC-21
        s.winner, s.phase = seat, "over"
        events.append(ev("game_over", reason="arrival", winner=seat, scores=scores(s)))
        return
    if city.roy_bean and not has_lily(p):  # LC-15
        jail(s, seat, "roy_bean", to, events)
        end_turn(s, events)
        return
    compulsory(s, seat, events)
    if city.incident:
        draw_incident(s, seat, events)
        if p.jail:
            end_turn(s, events)
            return
    s.phase, s.steps = "after", 0


def roll_for_move(s: State, events: list[Event]) -> None:
    """The movement roll: the first die gives the spaces (LC-4)."""
    d = dice(s)
    s.roll = d
    s.steps = d[0]
    events.append(ev("rolled", seat=s.seat, dice=list(d), steps=s.steps))
    s.phase = "move"
    if sum(d) in DATA.opportunity_totals:
        draw_opportunity(s, s.seat, events, "move")
    start_move(s, events)


def prison_roll(s: State, events: list[Event]) -> None:
    """LC-12: a double frees the pawn, which then rolls again for a normal move."""
    d = dice(s)
    s.roll = d
    events.append(ev("prison_roll", seat=s.seat, dice=list(d)))
    free = d[0] == d[1]
    if sum(d) in DATA.opportunity_totals:
        draw_opportunity(s, s.seat, events, "move" if free else "end")
    if free:
        release(s, s.seat, events)
        if s.phase == "discard":
            s.resume = "roll"
            return
        roll_for_move(s, events)
    elif s.phase != "discard":
        end_turn(s, events)


def escape_roll(s: State, events: list[Event]) -> None:
    """LC-8: after a robbery the robber must flee; a higher die under the escape minimum
    sends the pawn to the nearest prison."""
    d = dice(s)
    s.roll = d
    if max(d) < DATA.escape_min_die:
        events.append(ev("escape_failed", seat=s.seat, dice=list(d)))
        if sum(d) in DATA.opportunity_totals:
            draw_opportunity(s, s.seat, events, "end")
        p = s.players[s.seat]
        jail(s, s.seat, "prison", nearest_prison(p.pos), events)
        if s.phase != "discard":
            end_turn(s, events)
        return
    s.forced = ""
    s.steps = d[0]
    events.append(ev("rolled", seat=s.seat, dice=list(d), steps=s.steps))
    s.phase = "move"
    if sum(d) in DATA.opportunity_totals:
        draw_opportunity(s, s.seat, events, "move")
    start_move(s, events)


# --- scores -------------------------------------------------------------------------------


_TO_ARRIVAL = distances(NB, ARRIVALS)


def scores(s: State) -> list[int]:
    """LC-28: the winner scores 100; every other seat 99 minus its pawn's fewest edges to
    an arrival point (at least 0)."""
    out = []
    for seat, p in enumerate(s.players):
        if seat == s.winner:
            out.append(SCORE_TOP)
        else:
            out.append(max(0, SCORE_TOP - 1 - _TO_ARRIVAL[p.pos]))
    return out
