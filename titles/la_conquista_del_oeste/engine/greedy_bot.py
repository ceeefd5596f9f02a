"""The ``greedy`` bot: equips cheaply (in the East where it is cheaper), buying only what
it lacks and never selling; travels by expected rolls (``routes``): to a shop on its way
west for a missing item, to work when it cannot pay for one, then to the Pacific (through
its family's city), avoiding Judge Roy Bean without Lily Langtry and weighing sheriffs,
cardsharps and incident spaces; works or plays poker when short of money. It sees only its
own seat's view and the public data."""

from __future__ import annotations

import random
from typing import Any

from . import routes
from .data import CITIES, DATA, ITEMS

Action = dict[str, Any]
RESERVE = 300
TRADE = frozenset({"offer", "accept", "refuse", "withdraw"})


#: A generator for callers that ask the medium bot for a move it makes without drawing
#: (the search's candidate moves).
NO_DRAWS = random.Random(0)  # noqa: S311 - the medium bot draws nothing here


class GreedyBot:
    name = "greedy"
    reads_view = True
    reads_state = False

    def __init__(self, careful: bool = False) -> None:
        #: Weigh Incident spaces as a careful pawn does once equipped (``routes.toll``):
        #: the hard bot's usual moves; the medium bot is not careful.
        self.careful = careful

    def choose(
        self, rules: Any, view: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        me = view["players"][view["seat"]]
        hand = me.get("hand", [])
        lily = any(DATA.opportunity[c].effect["kind"] == "lily_langtry" for c in hand)
        missing = [i for i in ITEMS if me["outfit"][i] == 0]
        by_type: dict[str, list[Action]] = {}
        for a in legal_actions:
            by_type.setdefault(a["type"], []).append(a)
        for a in by_type.get("accept", []):  # buy a missing item for no more than the bank
            o = next(x for x in view["offers"] if x["offer"] == a["offer"])
            got = [i for i in o["give"]["items"] if i in missing]
            fair = bool(got) and o["take"]["money"] <= DATA.prices[got[0]]["west"][0]
            if fair and not o["take"]["items"]:
                return a
        turn = [a for a in legal_actions if a["type"] not in TRADE]
        if not turn:  # only offers to answer: refuse them (or withdraw its own)
            return by_type.get("refuse", legal_actions)[0]
        if len(turn) == 1:
            return turn[0]
        if "discard" in by_type:
            keep = [a for a in by_type["discard"] if not _is_lily(a["card"])]
            return (keep or by_type["discard"])[0]
        if "poker_answer" in by_type:  # join only when short of money, and for a small bet
            short = me["money"] < RESERVE or (missing and me["money"] < 600)
            bet = int(view.get("poker", {}).get("bet", 0))
            return {"type": "poker_answer", "join": bool(short and 2 * bet <= me["money"])}
        for a in by_type.get("play", []):
            eff = DATA.opportunity[a["card"]].effect
            if eff["kind"] in ("money", "leave_prison", "pardon", "extra_steps"):
                return a
            if eff["kind"] == "free_item" and eff["item"] in missing:
                return a
        for a in by_type.get("buy", []):
            if a["item"] in missing:
                return a
        money = me["money"]
        if "work" in by_type and (missing or money < RESERVE) and money < 1200:
            return by_type["work"][0]
        if "poker" in by_type and money < RESERVE and not CITIES[me["city"]].work:
            return min(by_type["poker"], key=lambda a: int(a["bet"]))
        at_norfolk = me["city"] == DATA.rail_cities[0]
        if "rail" in by_type and not missing and at_norfolk and money - DATA.rail_fare >= RESERVE:
            return by_type["rail"][0]
        if "move" in by_type:
            leg = routes.plan(me["city"], me["outfit"], money, me["family"], lily, self.careful)
            best = leg.ranked([str(a["to"]) for a in by_type["move"]])[0]
            return next(a for a in by_type["move"] if a["to"] == best)
        if "roll" in by_type:
            return by_type["roll"][0]
        return by_type.get("end_turn", turn)[0]


def _is_lily(card: str) -> bool:
    return bool(DATA.opportunity[card].effect["kind"] == "lily_langtry")
