"""Colorado County on the pages: what ``games.titles.WebTitle`` asks of a title."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.titles import WebTitle

from . import board_svg, log_words
from .forms import ActionForm

#: The name the site gives this title's greedy bot's account, marked for the catalogues
#: (pages show it in the reader's language: ``User.shown_name``).
BOT_ACCOUNT_NAMES = (gettext_noop("Greedy bot"),)

SLUG = "colorado-county"
ROUNDS = 4

#: What a "your turn" mail asks for, by the public phase (``sale_<stage>`` during a sale).
NEEDED = {
    "flags": lambda: _("place a flag"),
    "bid": lambda: _("make your sealed bid of cowboys"),
    "claim": lambda: _("claim a card and stake your fields"),
    "sale_interest": lambda: _("say whether you are interested in the land for sale"),
    "sale_bid": lambda: _("make your sealed bid for the land for sale"),
    "sale_pay": lambda: _("pay for the land you bought"),
}


def _cell_order(cell: str) -> tuple[int, str]:
    return (int(cell[1:]), cell[0])


class ColoradoCountyWeb(WebTitle):
    board_template = "colorado_county/_board.html"
    legend_template = "colorado_county/_legend.html"
    board_swaps = False  # play.js redraws it from the socket's view (board.js)
    board_zoom = "[data-cell]"  # fitted to a phone's width, zoomed to tap a cell
    act_template = "colorado_county/_act.html"
    side_template = "colorado_county/_side.html"
    home_template = "colorado_county/_home.html"
    artwork = "colorado_county/artwork.svg"  # our own drawing, the home page's card
    how_to_play_template = "colorado_county/how_to_play.html"
    scripts = ("colorado_county/board.js", "colorado_county/play.js")
    styles = ("colorado_county/board.css",)

    def pitch(self) -> str:
        return _("Sealed bids for land in a valley of lakes, scored four times as values shift.")

    def bot_label(self, kind: str) -> str:
        if kind == "greedy":
            return _("greedy (plays for points)")
        return super().bot_label(kind)

    def action_from_post(self, data: Any) -> dict[str, Any]:
        form = ActionForm(data)
        if not form.is_valid():
            raise forms.ValidationError(_("That move was not understood."))
        return form.action()

    def token(self, seat: int, size: int = 18) -> SafeString:
        return board_svg.token_svg(seat, size)

    def describe(
        self, event: Mapping[str, Any], names: Sequence[str], me: int | None
    ) -> str | None:
        return log_words.describe(event, names, me)

    def needed_words(self, public_view: Mapping[str, Any]) -> str | None:
        phase = public_view.get("phase")
        sale = public_view.get("sale") or {}
        if phase == "sale" and isinstance(sale, dict):
            phase = f"sale_{sale.get('stage', '')}"
        maker = NEEDED.get(str(phase or ""))
        return maker() if maker else None

    def replay_facts(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A replay step's public facts: the round, the face-up cards, the bids the last
        reveal showed (public from that reveal on), the scores."""
        facts = [_("Round %(r)s of %(n)s") % {"r": view.get("round"), "n": ROUNDS}]
        cards = [c for c in view.get("face_up") or () if c]
        if cards:
            facts.append(
                _("Face-up cards: %(cards)s")
                % {"cards": "; ".join(log_words.card_words(c) for c in cards)}
            )
        bids = view.get("last_bids") or {}
        if isinstance(bids, dict) and bids:
            shown = []
            for seat, cowboys in sorted(bids.items(), key=lambda kv: int(kv[0])):
                who = names[int(seat)] if int(seat) < len(names) else str(int(seat) + 1)
                shown.append(
                    _("%(who)s %(cowboys)s")
                    % {
                        "who": who,
                        "cowboys": log_words.numbers(cowboys) if cowboys else _("nothing"),
                    }
                )
            facts.append(_("Bids revealed: %(bids)s") % {"bids": "; ".join(shown)})
        facts.extend(super().replay_facts(view, names))
        return facts

    def status_line(self, view: Mapping[str, Any] | None) -> str:
        if not view:
            return super().status_line(view)
        return _("Round %(r)s of %(n)s") % {"r": view.get("round"), "n": ROUNDS}

    def client_strings(self) -> dict[str, Any]:
        return {
            "strings": {
                "confirm_sell": _("Sell your land on %(cell)s?"),
                "confirm_flag": _("Place your flag on %(cell)s? It cannot be moved afterwards."),
                "choose_flag": _("Choose one of the lit flags for this card."),
                "choose_second": _("Now choose where the second star goes (lit cells)."),
                "confirm_claim": _("Claim it"),
                "bid_kept": _(
                    "Your bid (%(cowboys)s) is kept: it will be sent when the sale is settled."
                ),
                "bid_kept_none": _(
                    "Your bid of nothing is kept: it will be sent when the sale is settled."
                ),
            },
            "board_strings": board_svg.board_strings(),
            "preview_strings": {
                "now": _("this round now"),
                "after": _("after this claim"),
                "explain": _("Points each player would score if the round were valued now."),
            },
            "bid_strings": {
                "one": _("Bid 1 cowboy"),
                "some": _("Bid %(n)s cowboys"),
                "none": _("Bid nothing"),
            },
        }

    def page_context(
        self,
        *,
        doc: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        names: Sequence[str],
        me: int | None,
    ) -> dict[str, Any]:
        view = doc.get("view") or {}
        claims = [a for a in legal if a["type"] == "claim"]
        flag_choices = [a for a in legal if a["type"] == "place_flag"]
        ctx: dict[str, Any] = {
            "claims": [
                {
                    **a,
                    "label": _("%(card)s: flag %(flag)s%(second)s")
                    % {
                        "card": log_words.card_words(a["card"]),
                        "flag": a["flag"],
                        "second": (" + " + a["second"]) if a["second"] else "",
                    },
                }
                for a in claims
            ],
            "flag_choices": flag_choices,
            "sell_cells": [a["cell"] for a in legal if a["type"] == "sell"],
            "pay_cowboys": [a["cowboy"] for a in legal if a["type"] == "sale_pay"],
            "sale_bid_cowboys": [a["cowboys"][0] for a in legal if a["type"] == "sale_bid"],
            "flag_colours": sorted({a["colour"] for a in flag_choices}),
            "flag_cells": sorted({a["cell"] for a in flag_choices}, key=_cell_order),
        }
        ctx.update(sale_context(view.get("sale"), names))
        players = view.get("players") or []
        vals = view.get("valuations", [])
        ctx["valuation_matrix"] = [
            {
                "seat": p["seat"],
                "name": names[p["seat"]] if p["seat"] < len(names) else "",
                "score": p["score"],
                "rounds": [
                    vals[r]["seats"][p["seat"]] if r < len(vals) else None for r in range(ROUNDS)
                ],
            }
            for p in players
        ]
        ctx["track_max"] = max([p["score"] for p in players] + [1])
        return ctx


def sale_context(sale: Any, names: Sequence[str]) -> dict[str, Any]:
    """Who a land sale still waits for, from the public part of the sale's view: the seats
    still to answer, the bidders still to bid (never what anyone answered or bid before the
    reveal), or the only buyer, who pays."""
    if not isinstance(sale, Mapping):
        return {}

    def named(seats: Any) -> list[str]:
        return [names[s] if 0 <= s < len(names) else "?" for s in seats or []]

    stage = sale.get("stage")
    if stage == "interest":
        answered = set(sale.get("answered") or [])
        waiting = [s for s in sale.get("asked") or [] if s not in answered]
    elif stage == "bid":
        bid_in = set(sale.get("bid_in") or [])
        waiting = [s for s in sale.get("interested") or [] if s not in bid_in]
    else:
        waiting = [sale["buyer"]] if sale.get("buyer") is not None else []
    return {
        "sale_waiting": named(waiting),
        "sale_bidders": named(sale.get("interested") if stage == "bid" else []),
    }


TITLE = ColoradoCountyWeb(SLUG)
