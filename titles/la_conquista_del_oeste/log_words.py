"""La Conquista del Oeste's log in words: one line per engine event (``describe``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .card_words import CARD_WORDS
from .engine.data import DATA

Event = Mapping[str, Any]


def item_words(item: str) -> str:
    return {
        "oxen": _("oxen"),
        "revolver": _("revolver"),
        "provisions": _("provisions"),
        "wagon": _("wagon"),
    }.get(item, item)


def city_name(city: Any) -> str:
    found = DATA.cities.get(str(city))
    if found and found.camp:  # LC-31: camps have no names of their own
        a, b = (DATA.cities[t].name for t in found.trail)
        return _("a camp between %(a)s and %(b)s") % {"a": a, "b": b}
    return found.name if found else str(city)


def card_title(card: Any) -> str:
    """A card's title in the reader's language (``card_words``)."""
    words = CARD_WORDS.get(str(card))
    return _(words[0]) if words else str(card)


def card_text(card: Any) -> str:
    words = CARD_WORDS.get(str(card))
    return _(words[1]) if words else ""


def seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    if isinstance(seat, int):
        return _("Player %(n)s") % {"n": seat + 1}
    return _("the bank")


def dice_words(dice: Any) -> str:
    return " + ".join(str(d) for d in dice or ())


def bundle_words(bundle: Mapping[str, Any]) -> str:
    """Money, outfit cards and Opportunity cards (a count, or the ids for their owners)."""
    parts: list[str] = []
    if bundle.get("money"):
        parts.append(_("%(n)s $") % {"n": bundle["money"]})
    for item, n in (bundle.get("items") or {}).items():
        parts.append(_("%(n)s %(item)s") % {"n": n, "item": item_words(item)})
    cards = bundle.get("cards")
    if isinstance(cards, int) and cards:
        parts.append(
            ngettext("%(n)s Opportunity card", "%(n)s Opportunity cards", cards) % {"n": cards}
        )
    elif isinstance(cards, list):
        parts.extend(f"«{card_title(c)}»" for c in cards)
    return ", ".join(parts) or _("nothing")


def prison_words(kind: Any) -> str:
    return {
        "prison": _("prison"),
        "indian": _("the Indian camp"),
        "roy_bean": _("Judge Roy Bean's jail"),
    }.get(str(kind), str(kind))


def _poker(e: Event, who: Callable[[Any], str]) -> str:
    winner = e.get("winner")
    if isinstance(winner, int) and winner >= 0:
        return _("Poker (bet %(bet)s $, pot %(pot)s $): %(who)s wins.") % {
            "bet": e.get("bet"),
            "pot": e.get("pot"),
            "who": who(winner),
        }
    return _("Poker (bet %(bet)s $, pot %(pot)s $): the bank wins.") % {
        "bet": e.get("bet"),
        "pot": e.get("pot"),
    }


def _duel(e: Event, who: Callable[[Any], str]) -> str:
    args = {"who": who(e.get("seat")), "target": who(e.get("target"))}
    if e.get("kind") == "capture":
        if e.get("won"):
            return _("%(who)s captures %(target)s for the reward.") % args
        return _("%(who)s fails to capture %(target)s and must miss three turns.") % args
    args["item"] = item_words(str(e.get("item", "")))
    if e.get("won"):
        return _("%(who)s robs %(target)s of a %(item)s card in a duel.") % args
    return (
        _("%(who)s tries to rob %(target)s of a %(item)s card, loses the duel and is jailed.")
        % args
    )


def _game_over(e: Event, who: Callable[[Any], str]) -> str:
    if e.get("reason") == "arrival":
        return _("%(who)s reaches an arrival point fully equipped and wins!") % {
            "who": who(e.get("winner"))
        }
    return _("The round limit is reached: the game ends, closest to the West first.")


def _cardsharp(e: Event, who: Callable[[Any], str]) -> str:
    args = {"who": who(e.get("seat")), "dice": dice_words(e.get("dice"))}
    if "won" in e:
        return _("%(who)s beats the cardsharp (%(dice)s) and wins %(n)s $.") % {
            **args,
            "n": e["won"],
        }
    return _("The cardsharp takes %(n)s $ from %(who)s (%(dice)s).") % {**args, "n": e.get("lost")}


def _private(e: Event, me: int | None, mine: str, other: str) -> str:
    return mine if me is not None and me == e.get("seat") else other


def _my_card(e: Event, me: int | None) -> str:
    card = e.get("card")
    return _private(
        e,
        me,
        _("You drew «%(title)s»: %(text)s") % {"title": card_title(card), "text": card_text(card)},
        _("An Opportunity card was drawn."),
    )


def _offer_detail(e: Event, me: int | None, who: Callable[[Any], str]) -> str:
    args = {
        "frm": who(e.get("from")),
        "to": who(e.get("to")),
        "give": bundle_words(e.get("give") or {}),
        "take": bundle_words(e.get("take") or {}),
    }
    if me is not None and me in (e.get("from"), e.get("to")):
        return _("Offer in full: %(frm)s gives %(give)s to %(to)s for %(take)s.") % args
    return _("An offer was made.")


def _cards_received(e: Event, me: int | None) -> str:
    titles = ", ".join(f"«{card_title(c)}»" for c in e.get("cards") or ())
    return _private(
        e,
        me,
        _("You received %(cards)s.") % {"cards": titles},
        _("Opportunity cards changed hands."),
    )


LINES: dict[str, Callable[[Event, Callable[[Any], str]], str]] = {
    "game_started": lambda e, w: (
        _("The game starts with %(n)s players; %(who)s opens.")
        % {"n": e.get("players"), "who": w(e.get("first"))}
    ),
    "placed": lambda e, w: (
        _("%(who)s rolls %(total)s and starts in %(city)s.")
        % {"who": w(e.get("seat")), "total": e.get("total"), "city": city_name(e.get("city"))}
    ),
    "opening_roll": lambda e, w: (
        _("Roll for the first turn: %(rolls)s.")
        % {"rolls": ", ".join(f"{w(int(k))} {v}" for k, v in (e.get("totals") or {}).items())}
    ),
    "turn_missed": lambda e, w: (
        _("%(who)s misses a turn (%(left)s more to miss).")
        % {"who": w(e.get("seat")), "left": e.get("left")}
    ),
    "turn_started": lambda e, w: (
        _("Round %(round)s: %(who)s's turn.") % {"round": e.get("round"), "who": w(e.get("seat"))}
    ),
    "turn_ended": lambda e, w: _("%(who)s ends the turn.") % {"who": w(e.get("seat"))},
    "game_over": _game_over,
    "offer_lapsed": lambda e, w: (
        _("%(who)s's offer no. %(id)s lapses.") % {"who": w(e.get("seat")), "id": e.get("offer")}
    ),
    "sheriff_paid": lambda e, w: (
        _("%(who)s pays the sheriff %(n)s $.") % {"who": w(e.get("seat")), "n": e.get("amount")}
    ),
    "cardsharp": _cardsharp,
    "family_rejoined": lambda e, w: (
        _("%(who)s's family joins the wagon again in %(city)s.")
        % {"who": w(e.get("seat")), "city": city_name(e.get("city"))}
    ),
    "family_left": lambda e, w: (
        _("%(who)s's family stays behind in %(city)s.")
        % {"who": w(e.get("seat")), "city": city_name(e.get("city"))}
    ),
    "jailed": lambda e, w: (
        _("%(who)s is locked up in %(where)s at %(city)s%(lost)s.")
        % {
            "who": w(e.get("seat")),
            "where": prison_words(e.get("prison")),
            "city": city_name(e.get("city")),
            "lost": (
                ngettext(
                    " and loses %(n)s revolver card",
                    " and loses %(n)s revolver cards",
                    e["revolvers_lost"],
                )
                % {"n": e["revolvers_lost"]}
                if e.get("revolvers_lost")
                else ""
            ),
        }
    ),
    "released": lambda e, w: (
        _("%(who)s is free again (%(city)s).")
        % {"who": w(e.get("seat")), "city": city_name(e.get("city"))}
    ),
    "opportunity_deck_empty": lambda e, w: (
        _("The Opportunity deck is empty: %(who)s draws nothing.") % {"who": w(e.get("seat"))}
    ),
    "opportunity_drawn": lambda e, w: (
        _("%(who)s draws an Opportunity card (%(n)s in hand).")
        % {"who": w(e.get("seat")), "n": e.get("count")}
    ),
    "opportunity_returned": lambda e, w: (
        _("%(who)s puts an Opportunity card at the bottom of the deck (%(n)s in hand).")
        % {"who": w(e.get("seat")), "n": e.get("count")}
    ),
    "opportunity_played": lambda e, w: (
        _("%(who)s plays «%(title)s».")
        % {"who": w(e.get("seat")), "title": card_title(e.get("card"))}
    ),
    "incident": lambda e, w: (
        _("Incident for %(who)s: «%(title)s». %(text)s")
        % {
            "who": w(e.get("seat")),
            "title": card_title(e.get("card")),
            "text": card_text(e.get("card")),
        }
    ),
    "paid": lambda e, w: (
        _("%(who)s pays %(n)s $ to the bank.") % {"who": w(e.get("seat")), "n": e.get("amount")}
    ),
    "item_lost": lambda e, w: (
        _("%(who)s loses a %(item)s card.")
        % {"who": w(e.get("seat")), "item": item_words(str(e.get("item")))}
    ),
    "no_move": lambda e, w: _("%(who)s cannot move anywhere.") % {"who": w(e.get("seat"))},
    "moved": lambda e, w: (
        _("%(who)s travels from %(frm)s to %(to)s.")
        % {"who": w(e.get("seat")), "frm": city_name(e.get("frm")), "to": city_name(e.get("to"))}
    ),
    "rolled": lambda e, w: (
        _("%(who)s rolls %(dice)s: up to %(steps)s spaces.")
        % {"who": w(e.get("seat")), "dice": dice_words(e.get("dice")), "steps": e.get("steps")}
    ),
    "prison_roll": lambda e, w: (
        _("%(who)s rolls %(dice)s in prison.")
        % {"who": w(e.get("seat")), "dice": dice_words(e.get("dice"))}
    ),
    "escape_failed": lambda e, w: (
        _("%(who)s rolls %(dice)s and fails to escape.")
        % {"who": w(e.get("seat")), "dice": dice_words(e.get("dice"))}
    ),
    "bought": lambda e, w: (
        _("%(who)s buys one %(item)s card for %(n)s $.")
        % {"who": w(e.get("seat")), "item": item_words(str(e.get("item"))), "n": e.get("price")}
    ),
    "sold": lambda e, w: (
        _("%(who)s sells one %(item)s card for %(n)s $.")
        % {"who": w(e.get("seat")), "item": item_words(str(e.get("item"))), "n": e.get("price")}
    ),
    "worked": lambda e, w: (
        _("%(who)s works in %(city)s and earns %(n)s $.")
        % {"who": w(e.get("seat")), "city": city_name(e.get("city")), "n": e.get("pay")}
    ),
    "poker_announced": lambda e, w: (
        _("%(who)s calls a poker game at %(bet)s $; invited: %(inv)s.")
        % {
            "who": w(e.get("seat")),
            "bet": e.get("bet"),
            "inv": ", ".join(w(t) for t in e.get("invited") or ()) or _("nobody"),
        }
    ),
    "poker_answered": lambda e, w: (
        (
            _("%(who)s joins the poker game.")
            if e.get("join")
            else _("%(who)s stays out of the poker game.")
        )
        % {"who": w(e.get("seat"))}
    ),
    "poker": _poker,
    "robbery": lambda e, w: (
        (
            _("%(who)s robs the bank of %(city)s (%(dice)s) and takes %(n)s $!")
            if e.get("ok")
            else _("%(who)s tries to rob the bank of %(city)s (%(dice)s) and gets nothing.")
        )
        % {
            "who": w(e.get("seat")),
            "city": city_name(e.get("city")),
            "dice": dice_words(e.get("dice")),
            "n": e.get("vault"),
        }
    ),
    "surrendered": lambda e, w: (
        _("%(who)s gives up to the sheriff in %(city)s.")
        % {"who": w(e.get("seat")), "city": city_name(e.get("city"))}
    ),
    "railway": lambda e, w: (
        _("%(who)s takes the railway from %(frm)s to %(to)s (%(n)s $).")
        % {
            "who": w(e.get("seat")),
            "frm": city_name(e.get("frm")),
            "to": city_name(e.get("to")),
            "n": e.get("fare"),
        }
    ),
    "duel": _duel,
    "offer_made": lambda e, w: (
        _("%(frm)s offers %(to)s %(give)s for %(take)s (offer no. %(id)s).")
        % {
            "frm": w(e.get("from")),
            "to": w(e.get("to")),
            "give": bundle_words(e.get("give") or {}),
            "take": bundle_words(e.get("take") or {}),
            "id": e.get("offer"),
        }
    ),
    "offer_accepted": lambda e, w: (
        _("%(who)s accepts offer no. %(id)s.") % {"who": w(e.get("seat")), "id": e.get("offer")}
    ),
    "offer_refused": lambda e, w: (
        _("%(who)s refuses offer no. %(id)s.") % {"who": w(e.get("seat")), "id": e.get("offer")}
    ),
    "offer_withdrawn": lambda e, w: (
        _("%(who)s withdraws offer no. %(id)s.") % {"who": w(e.get("seat")), "id": e.get("offer")}
    ),
    "offer_void": lambda e, w: (
        _("Offer no. %(id)s of %(who)s is void: the card is gone.")
        % {"who": w(e.get("seat")), "id": e.get("offer")}
    ),
}

#: The event types with their own line (the tests check a playout produces no other).
KNOWN = frozenset(LINES) | {"my_opportunity", "offer_detail", "cards_received"}


def describe(event: Event, names: Sequence[str], me: int | None) -> str | None:
    """One log line for one event; private events are worded for their owner."""
    kind = str(event.get("type", ""))

    def who(seat: Any) -> str:
        return seat_name(seat, names)

    if kind == "my_opportunity":
        return _my_card(event, me)
    if kind == "offer_detail":
        return _offer_detail(event, me, who)
    if kind == "cards_received":
        return _cards_received(event, me)
    line = LINES.get(kind)
    if line is None:
        return kind.replace("_", " ").capitalize() + "." if kind else None
    return line(event, who)
