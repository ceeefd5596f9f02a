"""Trades between players (LC-24): an offer of money, outfit cards and Opportunity cards
for money and outfit cards, accepted or refused by the other player on their own time,
lapsing at the end of the offerer's next turn."""

from __future__ import annotations

from typing import Any

from games.engine import IllegalAction

from . import rules as R
from .data import DATA, ITEMS
from .state import State, offer_copy

Action = dict[str, Any]
Offer = dict[str, Any]
ANSWERED = {"accept": "offer_accepted", "refuse": "offer_refused", "withdraw": "offer_withdrawn"}
LAPSE_AFTER = R.LAPSE_AFTER  # ends of the offerer's turns: the one it was made in, and the next


def _bundle(raw: Any, cards_allowed: bool, what: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) - {"money", "items", "cards"}:
        raise IllegalAction("bad_offer", f"{what} holds only money, items and cards.")
    if "cards" in raw and not cards_allowed:
        raise IllegalAction(
            "bad_offer",
            "You can only ask for money and outfit cards (Opportunity cards are secret).",
        )
    money = raw.get("money", 0)
    if isinstance(money, bool) or not isinstance(money, int) or money < 0:
        raise IllegalAction("bad_offer", "Money is a whole number of dollars, 0 or more.")
    items = raw.get("items", {})
    if not isinstance(items, dict) or not all(
        i in ITEMS and not isinstance(n, bool) and isinstance(n, int) and n > 0
        for i, n in items.items()
    ):
        raise IllegalAction("bad_offer", "Items map an outfit item to a count of 1 or more.")
    cards = raw.get("cards", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalAction("bad_offer", "Cards are a list of card ids.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("bad_offer", "A card can be offered once.")
    return {"money": money, "items": dict(sorted(items.items())), "cards": sorted(cards)}


def holds(s: State, seat: int, bundle: dict[str, Any]) -> bool:
    p = s.players[seat]
    return (
        p.money >= bundle["money"]
        and all(p.outfit[i] >= n for i, n in bundle["items"].items())
        and all(c in p.hand for c in bundle["cards"])
    )


def may_offer(s: State, seat: int) -> bool:
    return (
        seat == s.seat
        and s.phase in ("town", "after")
        and not s.forced
        and not s.poker_wait
        and not any(o["from"] == seat for o in s.offers)
    )


def suggested_offers(s: State, seat: int) -> list[Action]:
    """A small list of offers for the legal-action list (``apply`` takes any well-formed
    offer): sell one of your items, or a card, for the bank's price; buy an item."""
    if not may_offer(s, seat):
        return []
    p = s.players[seat]
    out: list[Action] = []
    for t in range(s.n):
        if t == seat:
            continue
        q = s.players[t]
        for item in ITEMS:
            buy, sell = R.price(item, p.pos)
            if p.outfit[item] > 0:
                out.append(_offer(t, {"items": {item: 1}}, {"money": buy}))
            if q.outfit[item] > 0 and p.money >= sell:
                out.append(
                    _offer(t, {"money": buy if p.money >= buy else sell}, {"items": {item: 1}})
                )
        for card in p.hand:
            out.append(_offer(t, {"cards": [card]}, {"money": 200}))
    return out


def _offer(to: int, give: dict[str, Any], take: dict[str, Any]) -> Action:
    return {"type": "offer", "to": to, "give": give, "take": take}


def answers(s: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for o in s.offers:
        if o["to"] == seat:
            if holds(s, o["from"], o["give"]) and holds(s, seat, o["take"]):
                out.append({"type": "accept", "offer": o["id"]})
            out.append({"type": "refuse", "offer": o["id"]})
        if o["from"] == seat:
            out.append({"type": "withdraw", "offer": o["id"]})
    return out


def make_offer(s: State, seat: int, a: Action, events: list[R.Event]) -> None:
    to = a.get("to")
    if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < s.n or to == seat:
        raise IllegalAction("bad_offer", "An offer goes to another player of this game.")
    give = _bundle(a.get("give"), True, "What you give")
    take = _bundle(a.get("take"), False, "What you ask")
    if not (give["money"] or give["items"] or give["cards"] or take["money"] or take["items"]):
        raise IllegalAction("bad_offer", "An offer must exchange something.")
    if not may_offer(s, seat):
        raise IllegalAction("not_allowed", "You cannot make an offer now.")
    if not holds(s, seat, give):
        raise IllegalAction("not_held", "You do not hold what you offer.")
    offer = {"id": s.next_offer, "from": seat, "to": to, "give": give, "take": take}
    offer["lapse"] = LAPSE_AFTER
    s.next_offer += 1
    s.offers = [*s.offers, offer]
    events.append(R.ev("offer_made", **public(offer)))
    events.append(
        {"type": "offer_detail", "visible_to": [seat, to], "seat": seat, **offer_copy(offer)}
    )


def public(o: Offer) -> dict[str, Any]:
    """What every seat sees of an offer: the Opportunity cards given only as a count."""
    o = offer_copy(o)
    give = {**o["give"], "cards": len(o["give"]["cards"])}
    return {"offer": o["id"], "from": o["from"], "to": o["to"], "give": give, "take": o["take"]}


def answer(s: State, seat: int, a: Action, events: list[R.Event]) -> None:
    oid = a.get("offer")
    found = [o for o in s.offers if o["id"] == oid and not isinstance(oid, bool)]
    if not found:
        raise IllegalAction("no_such_offer", "There is no such open offer.")
    o = found[0]
    kind = a["type"]
    if (kind == "withdraw" and o["from"] != seat) or (kind != "withdraw" and o["to"] != seat):
        raise IllegalAction("not_your_offer", "That offer is not yours to answer.")
    if kind == "accept" and not (holds(s, o["from"], o["give"]) and holds(s, seat, o["take"])):
        raise IllegalAction("offer_not_possible", "One of you no longer holds the goods.")
    s.offers = [x for x in s.offers if x["id"] != oid]
    events.append(R.ev(ANSWERED[kind], seat=seat, offer=oid))
    if kind == "accept":
        _move(s, o["from"], seat, o["give"])
        _move(s, seat, o["from"], o["take"])
        for t in (o["from"], seat):
            R.settle(s, t, events)
        if o["give"]["cards"]:
            events.append(
                {
                    "type": "cards_received",
                    "visible_to": [seat],
                    "seat": seat,
                    "cards": list(o["give"]["cards"]),
                }
            )
        _hand_limit(s, seat, events)


def _move(s: State, frm: int, to: int, bundle: dict[str, Any]) -> None:
    a, b = s.players[frm], s.players[to]
    a.money -= bundle["money"]
    b.money += bundle["money"]
    for item, n in bundle["items"].items():
        a.outfit[item] -= n
        b.outfit[item] += n
    for card in bundle["cards"]:
        a.hand.remove(card)
        b.hand.append(card)


def _hand_limit(s: State, seat: int, events: list[R.Event]) -> None:
    """LC-18 applies to traded cards too: the excess goes to the bottom of the deck,
    oldest first (the receiver chose to take them)."""
    p = s.players[seat]
    limit = DATA.hand_limit + (s.phase == "discard" and s.seat == seat)
    while len(p.hand) > limit:
        card = p.hand.pop(0)
        s.opp_deck.append(card)
        events.append(R.ev("opportunity_returned", seat=seat, count=len(p.hand)))


def visible(s: State, seat: int | None) -> list[dict[str, Any]]:
    out = []
    for o in s.offers:
        if seat is not None and seat in (o["from"], o["to"]):
            out.append({**public(o), "give": offer_copy(o)["give"], "lapse": o["lapse"]})
        else:
            out.append({**public(o), "lapse": o["lapse"]})
    return out


def prune(s: State, events: list[R.Event]) -> None:
    """An offer of an Opportunity card its offerer no longer holds (played, put back,
    traded) is void at once, so no view ever names a card that went back to the deck."""
    kept = []
    for o in s.offers:
        if all(c in s.players[o["from"]].hand for c in o["give"]["cards"]):
            kept.append(o)
        else:
            events.append(R.ev("offer_void", seat=o["from"], offer=o["id"]))
    if len(kept) != len(s.offers):
        s.offers = kept
