"""Forms of the pages: a new table, a move, a chat line.

A form only checks shape (types, ranges, known names); whether a move is legal is the
engine's business, reached through ``games.services.action_submit``.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

CLOCK_PRESETS = (
    ("fast", _("Fast — about a move a day")),
    ("normal", _("Normal — three days to start, a day more per move")),
    ("slow", _("Slow — a week per move")),
    ("custom", _("Custom hours")),
)
BOT_KINDS = (("greedy", _("greedy (plays for points)")), ("random", _("random (a beginner)")))
CELL_RE = re.compile(r"^[A-O](10|[1-9])$")


class NewTableForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=2
    )
    lakes = forms.ChoiceField(
        label=_("Lakes"),
        choices=(("first-game", _("first-game layout")), ("random", _("random layout"))),
        initial="first-game",
    )
    flags = forms.ChoiceField(
        label=_("Flags"),
        choices=(("players", _("players place them")), ("random", _("placed at random"))),
        initial="players",
    )
    clock = forms.ChoiceField(label=_("Clock"), choices=CLOCK_PRESETS, initial="normal")
    initial_hours = forms.FloatField(
        label=_("Starting time (hours)"), required=False, min_value=1 / 60, max_value=24 * 60
    )
    increment_hours = forms.FloatField(
        label=_("Added per move (hours)"), required=False, min_value=0, max_value=24 * 30
    )
    max_hours = forms.FloatField(
        label=_("Most time banked (hours)"), required=False, min_value=1 / 60, max_value=24 * 60
    )
    on_timeout = forms.ChoiceField(
        label=_("When a deadline passes"),
        choices=(("bot", _("a bot moves for the late player")), ("wait", _("the table waits"))),
        initial="bot",
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    open_seats = forms.BooleanField(
        label=_("Anyone may take a free seat"), required=False, initial=True
    )
    invite = forms.CharField(
        label=_("Invite players (usernames, separated by commas)"), required=False, max_length=200
    )
    bots = forms.IntegerField(label=_("Bot seats"), min_value=0, max_value=3, initial=1)
    bot_kind = forms.ChoiceField(label=_("Bot level"), choices=BOT_KINDS, initial="greedy")

    def clean_invite(self) -> list[str]:
        raw = self.cleaned_data.get("invite") or ""
        names = [n.strip() for n in re.split(r"[,\s]+", raw) if n.strip()]
        if not names:
            return []
        found = set(
            get_user_model()
            .objects.filter(username__in=names, is_bot=False)
            .values_list("username", flat=True)
        )
        missing = [n for n in names if n not in found]
        if missing:
            raise forms.ValidationError(
                _("No player is called %(names)s.") % {"names": ", ".join(missing)}
            )
        return list(dict.fromkeys(names))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = data.get("players")
        if players is None:
            return data
        bots = data.get("bots") or 0
        invite = data.get("invite") or []
        if 1 + bots + len(invite) > players:
            raise forms.ValidationError(
                _("You, %(bots)s bots and %(inv)s invited players do not fit at %(n)s seats.")
                % {"bots": bots, "inv": len(invite), "n": players}
            )
        if data.get("clock") == "custom":
            for field in ("initial_hours", "increment_hours", "max_hours"):
                if data.get(field) is None:
                    self.add_error(field, _("Give the hours for a custom clock."))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``games.services.game_create`` (creator excluded)."""
        d = self.cleaned_data
        clock: str | dict[str, float] = d["clock"]
        if clock == "custom":
            clock = {
                "initial_hours": d["initial_hours"],
                "increment_hours": d["increment_hours"],
                "max_hours": max(d["max_hours"], d["initial_hours"]),
            }
        return {
            "title": "colorado-county",
            "players": d["players"],
            "options": {"lakes": d["lakes"], "flags": d["flags"]},
            "clock": clock,
            "on_timeout": d["on_timeout"],
            "rated": d["rated"],
            "invite": tuple(d["invite"]),
            "bots": [d["bot_kind"]] * (d["bots"] or 0),
            "open_seats": d["open_seats"],
        }


def _cowboys(values: list[str]) -> list[int]:
    out: list[int] = []
    for v in values:
        try:
            n = int(v)
        except (TypeError, ValueError):
            raise forms.ValidationError(_("Cowboys are numbers from 1 to 66.")) from None
        if not 1 <= n <= 66:
            raise forms.ValidationError(_("Cowboys are numbers from 1 to 66."))
        out.append(n)
    return sorted(set(out))


def _cell(value: str, label: str) -> str:
    value = (value or "").strip().upper()
    if not CELL_RE.match(value):
        raise forms.ValidationError(_("Choose a cell for %(what)s, like C4.") % {"what": label})
    return value


class ActionForm(forms.Form):
    """A move from the page, posted as plain fields (works without JavaScript).

    ``kind`` picks the action type; ``choice`` may carry a whole claim as
    ``card|flag|second`` (the no-script select), else ``card``/``flag``/``second``.
    """

    KINDS = ("place_flag", "bid", "claim", "sell", "sale_interest", "sale_bid", "sale_pay")
    kind = forms.ChoiceField(choices=[(k, k) for k in KINDS])
    version = forms.IntegerField(required=False, min_value=0)
    client_id = forms.CharField(required=False, max_length=64)

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.raw = data

    def action(self) -> dict[str, Any]:
        """The engine action (JSON form, CC-12); raises ValidationError on a malformed one."""
        kind = self.cleaned_data["kind"]
        get = self.raw.get
        if kind == "place_flag":
            choice = get("choice") or ""
            if "|" in choice:
                colour, cell = choice.split("|", 1)
            else:
                colour, cell = get("colour") or "", get("cell") or ""
            return {"type": kind, "colour": colour.strip(), "cell": _cell(cell, _("the flag"))}
        if kind in ("bid", "sale_bid"):
            return {"type": kind, "cowboys": _cowboys(self.raw.getlist("cowboys"))}
        if kind == "claim":
            choice = get("choice") or ""
            if choice.count("|") == 2:
                card, flag, second = choice.split("|")
            else:
                card, flag, second = get("card") or "", get("flag") or "", get("second") or ""
            if not card:
                raise forms.ValidationError(_("Choose a card to claim."))
            return {
                "type": kind,
                "card": card.strip(),
                "flag": _cell(flag, _("the flag")),
                "second": _cell(second, _("the second star")) if second else None,
            }
        if kind == "sell":
            return {"type": kind, "cell": _cell(get("cell") or "", _("the sale"))}
        if kind == "sale_interest":
            answer = get("interested")
            if answer not in ("yes", "no"):
                raise forms.ValidationError(_("Answer yes or no."))
            return {"type": kind, "interested": answer == "yes"}
        cowboys = _cowboys([get("cowboy") or ""])
        return {"type": "sale_pay", "cowboy": cowboys[0]}


class ChatForm(forms.Form):
    text = forms.CharField(label=_("Message"), max_length=500, strip=True)


class ReplaceVoteForm(forms.Form):
    """A vote to replace the player of ``seat`` by the bot (rules: games.clocks.seats)."""

    seat = forms.IntegerField(min_value=0, max_value=99)
