"""La Conquista del Oeste on the pages: what ``games.titles.WebTitle`` asks of a title."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.titles import WebTitle

from . import board_svg, log_words
from .engine.data import DATA, ITEMS, distances
from .forms import action_from_fields, bad

#: The name the site gives this title's greedy bot's account, marked for the catalogues
#: (pages show it in the reader's language: ``User.shown_name``).
BOT_ACCOUNT_NAMES = (gettext_noop("Greedy bot"),)

SLUG = "la-conquista-del-oeste"


class LaConquistaWeb(WebTitle):
    board_template = "la_conquista_del_oeste/_board.html"
    act_template = "la_conquista_del_oeste/_act.html"
    side_template = "la_conquista_del_oeste/_side.html"
    home_template = "la_conquista_del_oeste/_home.html"
    artwork = "la_conquista_del_oeste/artwork.svg"  # our own drawing, the home page's card
    how_to_play_template = "la_conquista_del_oeste/how_to_play.html"
    scripts = ("la_conquista_del_oeste/map.js",)
    styles = ("la_conquista_del_oeste/board.css",)

    def pitch(self) -> str:
        return _("Lead your family west by wagon: earn, gamble and duel to arrive first.")

    def form_note(self) -> str:
        return _(
            "The map and the cards of this edition are this site's own, made for play "
            "online; the original game is by NAC (Madrid, 1982)."
        )

    def bot_label(self, kind: str) -> str:
        if kind == "greedy":
            return _("greedy (equips, then heads west)")
        return super().bot_label(kind)

    def action_from_post(self, data: Any) -> dict[str, Any]:
        if data.get("kind"):
            return action_from_fields(data)
        if data.get("action"):
            return super().action_from_post(data)
        raise bad()

    def token(self, seat: int, size: int = 18) -> SafeString:
        return board_svg.token_svg(seat, size)

    def describe(
        self, event: Mapping[str, Any], names: Sequence[str], me: int | None
    ) -> str | None:
        return log_words.describe(event, names, me)

    def needed_words(self, public_view: Mapping[str, Any]) -> str | None:
        if public_view.get("poker"):
            return _("answer the poker invitation")
        phase = public_view.get("phase")
        if phase == "discard":
            return _("put one Opportunity card at the bottom of the deck")
        if phase == "move":
            return _("move your pawn to one of the cities your roll reaches")
        if phase == "after":
            return _("finish your turn in your new city")
        if phase == "town":
            if public_view.get("must_flee"):
                return _("roll to escape after your robbery")
            return _("do your business in town, then roll to travel")
        return None

    def replay_board(self, view: Mapping[str, Any], names: Sequence[str]) -> SafeString | None:
        """The replay draws each step's map on the server (the page has no script for
        it): the pawns and the last roll of the step's public view."""
        return board_svg.render_board(view, names)

    def replay_facts(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A replay step's public facts: the round, and where each player is with their
        money (the public view shows both; hands stay out)."""
        facts = [self.status_line(view)]
        for p in view.get("players") or ():
            if not isinstance(p, Mapping):
                continue
            facts.append(
                _("%(who)s in %(city)s, %(money)s $")
                % {
                    "who": log_words.seat_name(p.get("seat"), names),
                    "city": log_words.city_name(p.get("city")),
                    "money": p.get("money", 0),
                }
            )
        return facts

    def status_line(self, view: Mapping[str, Any] | None) -> str:
        if not view:
            return super().status_line(view)
        return _("Round %(r)s of %(n)s") % {"r": view.get("round"), "n": view.get("round_limit")}

    def page_context(
        self,
        *,
        doc: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        names: Sequence[str],
        me: int | None,
    ) -> dict[str, Any]:
        view = doc.get("view") or {}
        players = [p for p in view.get("players") or () if isinstance(p, Mapping)]
        mine = next((p for p in players if me is not None and p.get("seat") == me), None)
        hand = list(mine.get("hand") or ()) if mine else []

        def card(cid: str) -> dict[str, str]:
            return {"id": cid, "title": log_words.card_title(cid), "text": log_words.card_text(cid)}

        def of(kind: str) -> list[Mapping[str, Any]]:
            return [a for a in legal if a.get("type") == kind]

        offers = []
        for o in view.get("offers") or ():
            answers = [a["type"] for a in legal if a.get("offer") == o.get("offer")]
            offers.append(
                {
                    **o,
                    "from_name": log_words.seat_name(o.get("from"), names),
                    "to_name": log_words.seat_name(o.get("to"), names),
                    "give_words": log_words.bundle_words(o.get("give") or {}),
                    "take_words": log_words.bundle_words(o.get("take") or {}),
                    "answers": answers,
                }
            )
        duels = []
        for a in of("duel"):
            who = log_words.seat_name(a["target"], names)
            if a["kind"] == "capture":
                label = _("Capture %(who)s for the reward") % {"who": who}
            else:
                label = _("Duel %(who)s for a %(item)s card") % {
                    "who": who,
                    "item": log_words.item_words(a["item"]),
                }
            duels.append({**a, "label": label})
        city = DATA.cities.get(str(mine.get("city"))) if mine else None
        here = city.id if city else ""
        return {
            "board_svg": board_svg.render_board(view, names, legal),
            "symbols": board_svg.symbols(),
            "items": [(i, log_words.item_words(i)) for i in ITEMS],
            "my_city": log_words.city_name(city.id) if city else "",
            "my_row": mine or {},
            "my_hand": [card(c) for c in hand],
            "buys": [
                {
                    "item": a["item"],
                    "label": log_words.item_words(a["item"]),
                    "price": _price(here, a["item"], 0),
                }
                for a in of("buy")
            ],
            "sells": [
                {
                    "item": a["item"],
                    "label": log_words.item_words(a["item"]),
                    "price": _price(here, a["item"], 1),
                }
                for a in of("sell")
            ],
            "bets": [a["bet"] for a in of("poker")],
            "moves": sorted(  # the farthest west first
                ({"to": a["to"], "name": log_words.city_name(a["to"])} for a in of("move")),
                key=lambda m: (TO_PACIFIC.get(m["to"], 999), m["name"]),
            ),
            "plays": [card(a["card"]) for a in of("play")],
            "discards": [card(a["card"]) for a in of("discard")],
            "duels": duels,
            "offer_targets": [
                {"seat": p["seat"], "name": log_words.seat_name(p["seat"], names)}
                for p in players
                if p.get("seat") != me
            ],
            "offers": offers,
            "may_offer": any(a.get("type") == "offer" for a in legal),
            "poker_host": log_words.seat_name((view.get("poker") or {}).get("host"), names),
            "seat_rows_lc": [
                {
                    **p,
                    "name": log_words.seat_name(p.get("seat"), names),
                    "city_name": log_words.city_name(p.get("city")),
                    "prison_words": log_words.prison_words(p.get("prison"))
                    if p.get("prison")
                    else "",
                }
                for p in players
            ],
        }


TO_PACIFIC = distances(DATA.neighbours, [c for c in DATA.city_order if DATA.cities[c].arrival])


def _price(city: str, item: str, index: int) -> int:
    """The bank's buying (0) or selling (1) price of ``item`` in ``city``'s zone."""
    zone = "west" if DATA.cities[city].west else "east"
    return DATA.prices[item][zone][index]


TITLE = LaConquistaWeb(SLUG)
