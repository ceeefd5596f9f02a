"""Colorado on the web: its sheets and reward board (``board_svg``), the action panel
(the call as a two-click choice, each option with what it gives), the log's words
(``log_words``) and its rules page."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.titles import WebTitle

from . import board_svg, log_words, words
from .engine.data import COLOURS, VALUES

#: The name the site gives this title's greedy bot's account, marked for the catalogues.
BOT_ACCOUNT_NAMES = (gettext_noop("Greedy bot"),)

NEEDED = {
    "start": lambda: _("choose your starting town"),
    "call": lambda: _("call a card from an opponent"),
    "answer": lambda: _("give a card to the caller"),
    "action": lambda: _("take your action"),
    "flags": lambda: _("tick a flag"),
}
GROUPS = (
    (("start",), lambda: _("Your starting town")),
    (("give",), lambda: _("Give the caller one of these")),
    (("take", "buy"), lambda: _("Nugget action: take a nugget, or pay a card's value to play it")),
    (
        ("draw", "swap"),
        lambda: _("Card action: draw three cards, or discard two of a colour to play another card"),
    ),
    (("tick", "rail"), lambda: _("Check action: tick a leg (lit on your map)")),
    (("tipi",), lambda: _("Tipi track: one box west or east")),
    (("flag",), lambda: _("Tick a flag next to one of yours (lit on your map)")),
    (("done",), lambda: _("When you have finished")),
    (("standing",), lambda: _("When you are called")),
)


class Colorado2023Web(WebTitle):
    board_template = "colorado_2023/_board.html"
    act_template = "colorado_2023/_act.html"
    how_to_play_template = "colorado_2023/how_to_play.html"
    home_template = "colorado_2023/_home.html"
    artwork = "colorado_2023/artwork.svg"  # our own drawing, the home page's card
    styles = ("colorado_2023/board.css",)

    def pitch(self) -> str:
        return _("Call cards, tick your road map and race for the seventh sheriff badge.")

    def bot_label(self, kind: str) -> str:
        if kind == "greedy":
            return _("greedy (plays for sets and regions)")
        return super().bot_label(kind)

    def form_note(self) -> str:
        return _(
            "Colorado by Joachim Thôme (2023). The road map, the reward board and the deck "
            "are this site's own design after the original."
        )

    def action_label(self, action: Mapping[str, Any]) -> str:
        return words.action_label(action)

    def action_from_post(self, data: Any) -> dict[str, Any]:
        """The call comes as two choices (``call_seat``, ``call_card``); any other move as
        the JSON of a legal action (its button)."""
        if data.get("call_seat") is not None or data.get("call_card") is not None:
            seat, card = data.get("call_seat") or "", data.get("call_card") or ""
            if not seat.isdigit() or not card:
                raise forms.ValidationError(_("Choose an opponent and a card to call."))
            return {"type": "call", "seat": int(seat), "card": card}
        return super().action_from_post(data)

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
        sheets = []
        for p in players:
            seat = int(p.get("seat", 0))
            name = log_words.who(seat, names, None)
            own = seat == me
            sheets.append(
                {
                    "seat": seat,
                    "name": name,
                    "mine": own,
                    "p": p,
                    "area": [{"code": c, "words": words.card(c)} for c in p.get("area") or ()],
                    "svg": board_svg.sheet_svg(
                        p,
                        seat,
                        _("Road map of %(name)s") % {"name": name},
                        legal if own else (),
                        small=not own,
                    ),
                }
            )
        sheets.sort(key=lambda s: not s["mine"])
        groups = []
        for kinds, title in GROUPS:
            acts = [a for a in legal if a.get("type") in kinds]
            if acts:
                groups.append(
                    {
                        "title": title(),
                        "actions": [
                            {
                                "json": json.dumps(dict(a), sort_keys=True),
                                "label": words.action_label(a),
                                "gives": words.gives(a),
                            }
                            for a in acts
                        ],
                    }
                )
        calling = any(a.get("type") == "call" for a in legal)
        winners = set(view.get("winners") or ())
        final: list[dict[str, Any]] = [
            {
                "seat": p.get("seat"),
                "name": log_words.who(p.get("seat"), names, None),
                "score": p.get("score"),
                "badges": len(p.get("badges") or ()),
                "nuggets": p.get("nuggets"),
                "winner": p.get("seat") in winners,
            }
            for p in players
        ]
        final.sort(key=lambda f: (not f["winner"], -int(f["score"] or 0), -int(f["badges"])))
        return {
            "final": final if view.get("phase") == "over" else [],
            "sheets": sheets,
            "rewards": board_svg.reward_svg(view),
            "hand": [{"code": c, "words": words.card(c)} for c in (mine or {}).get("hand") or ()],
            "mine": mine,
            "pending": [words.action_type(k) for k in (mine or {}).get("pending") or ()],
            "moves_so_far": [words.move(str(m)) for m in (mine or {}).get("moves") or ()],
            "groups": groups,
            "calling": calling,
            "opponents": [
                {
                    "seat": p["seat"],
                    "name": log_words.who(p["seat"], names, None),
                    "hand": p["hand_size"],
                }
                for p in players
                if p.get("seat") != me and calling
            ],
            "call_cards": [
                {"code": f"{c}-{v}", "colour": c, "value": v, "words": words.card(f"{c}-{v}")}
                for c in COLOURS
                for v in VALUES
            ]
            if calling
            else [],
            "round_action": words.action_type(view.get("action")) if view.get("action") else "",
            "named": words.card(view.get("named")) if view.get("named") else "",
            "received": words.card(view.get("received")) if view.get("received") else "",
        }

    def status_line(self, view: Mapping[str, Any] | None) -> str:
        if not view:
            return super().status_line(view)
        return _("Round %(r)s") % {"r": view.get("round")}

    def needed_words(self, public_view: Mapping[str, Any]) -> str | None:
        maker = NEEDED.get(str(public_view.get("phase") or ""))
        return maker() if maker else None

    def describe(
        self, event: Mapping[str, Any], names: Sequence[str], me: int | None
    ) -> str | None:
        return log_words.describe(event, names, me)

    def replay_board(self, view: Mapping[str, Any], names: Sequence[str]) -> SafeString | None:
        return board_svg.reward_svg(view)

    def replay_facts(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        facts = [self.status_line(view)]
        for p in view.get("players") or ():
            if isinstance(p, Mapping):
                facts.append(
                    _("%(who)s: %(score)s points, %(badges)s badges, %(nuggets)s nuggets")
                    % {
                        "who": log_words.who(p.get("seat"), names, None),
                        "score": p.get("score"),
                        "badges": len(p.get("badges") or ()),
                        "nuggets": p.get("nuggets"),
                    }
                )
        return facts


TITLE = Colorado2023Web("colorado-2023")
