"""Forms of the pages: a new table, a chat line, a replace vote.

A form only checks shape (types, ranges, known names). The new-table form is the same for
every title: its players range, options and bot kinds come from the title's rules and its
web side (``games.titles``). A move posted from a page is read by the title's web side
(``WebTitle.action_from_post``); whether it is legal is the engine's business.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.bots.players import bot_levels
from games.titles import default_title, web_title

#: Short enough to show whole in the lobby's narrow form (issue 15); the clock's terms in
#: full are on each table (``games/templatetags/lobby_tags.clock_words``).
CLOCK_PRESETS = (
    ("fast", _("Fast: 1 day, +4 h a move")),
    ("normal", _("Normal: 3 days, +1 day a move")),
    ("slow", _("Slow: 7 days, +3 days a move")),
    ("custom", _("Custom hours")),
)


class NewTableForm(forms.Form):
    title = forms.CharField(widget=forms.HiddenInput, required=False)
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    clock = forms.ChoiceField(label=_("Clock"), choices=CLOCK_PRESETS, initial="normal")
    initial_hours = forms.FloatField(
        label=_("Starting time (hours)"),
        required=False,
        min_value=1 / 60,
        max_value=24 * 60,
        error_messages={"min_value": _("Give at least one minute (0.02 hours).")},
    )
    increment_hours = forms.FloatField(
        label=_("Added per move (hours)"), required=False, min_value=0, max_value=24 * 30
    )
    max_hours = forms.FloatField(
        label=_("Most time banked (hours)"),
        required=False,
        min_value=1 / 60,
        max_value=24 * 60,
        error_messages={"min_value": _("Give at least one minute (0.02 hours).")},
    )
    on_timeout = forms.ChoiceField(
        label=_("When a deadline passes"),
        choices=(("bot", _("a bot moves for the late player")), ("wait", _("the table waits"))),
        initial="bot",
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    open_seats = forms.BooleanField(
        label=_("Public table: anyone may take a free seat or watch"),
        help_text=_(
            "Unticked, the table is private: only its players and the people you invite "
            "can see it, watch it or sit at it."
        ),
        required=False,
        initial=True,
    )
    invite = forms.CharField(
        label=_("Invite players (usernames, separated by commas)"), required=False, max_length=200
    )
    bots = forms.IntegerField(label=_("Bot seats"), min_value=0, initial=1)
    # The level: it plays the bot seats and stands in for late players (the form's note).
    bot_kind = forms.ChoiceField(label=_("Bot level"))

    def __init__(self, data: Any = None, *, title: str | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        slug = title or (data.get("title") if data is not None else None) or default_title()
        try:
            self.web = web_title(str(slug))
        except KeyError:
            self.web = web_title(default_title())
        rules = self.web.rules
        fields: dict[str, Any] = self.fields
        fields["title"].initial = self.web.slug
        fields["players"].choices = [
            (n, str(n)) for n in range(rules.min_players, rules.max_players + 1)
        ]
        fields["players"].initial = rules.min_players
        # The title's options come right after the players, in the order it gives them.
        items = list(fields.items())
        options = list(self.web.option_fields().items())
        fields = dict(items[:2] + options + items[2:])
        self.fields = fields
        self.option_names = [name for name, _field in options]
        fields["bots"].max_value = rules.max_players - 1
        fields["bots"].validators.append(MaxValueValidator(rules.max_players - 1))
        fields["bots"].widget.attrs["max"] = rules.max_players - 1
        # One choice per level the title offers (games.bots.players.bot_levels); the value is the
        # level's bot kind, so a form posted with a kind (older pages, scripts) still works.
        levels = bot_levels(self.web.slug)
        fields["bot_kind"].choices = [
            (
                lv.kind,
                _("%(level)s: %(bot)s") % {"level": lv.label, "bot": self.web.bot_label(lv.kind)},
            )
            for lv in levels
        ]
        kinds = [lv.kind for lv in levels]
        medium = next((lv.kind for lv in levels if lv.level == "medium"), None)
        self.fields["bot_kind"].initial = medium or (
            rules.stand_in_bot if rules.stand_in_bot in kinds else kinds[0]
        )

    def clean_title(self) -> str:
        return self.web.slug

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
        if any(n not in found for n in names):
            # Not the names typed: errors never repeat what was sent.
            raise forms.ValidationError(
                _("One of the people invited is not a player of this site.")
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
            bot_words = ngettext("%(n)d bot", "%(n)d bots", bots) % {"n": bots}
            invite_words = ngettext(
                "%(n)d invited player", "%(n)d invited players", len(invite)
            ) % {"n": len(invite)}
            raise forms.ValidationError(
                ngettext(
                    "You, %(bots)s and %(invited)s do not fit at %(n)d seat.",
                    "You, %(bots)s and %(invited)s do not fit at %(n)d seats.",
                    players,
                )
                % {"bots": bot_words, "invited": invite_words, "n": players}
            )
        if data.get("clock") == "custom":
            for field in ("initial_hours", "increment_hours", "max_hours"):
                if data.get(field) is None:
                    self.add_error(field, _("Give the hours for a custom clock."))
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``games.tables.lifecycle.game_create`` (creator excluded)."""
        d = self.cleaned_data
        clock: str | dict[str, float] = d["clock"]
        if clock == "custom":
            clock = {
                "initial_hours": d["initial_hours"],
                "increment_hours": d["increment_hours"],
                "max_hours": max(d["max_hours"], d["initial_hours"]),
            }
        return {
            "title": self.web.slug,
            "players": d["players"],
            "options": self.web.options_from_form({n: d.get(n) for n in self.option_names}),
            "clock": clock,
            "on_timeout": d["on_timeout"],
            "rated": d["rated"],
            "invite": tuple(d["invite"]),
            "bots": [d["bot_kind"]] * (d["bots"] or 0),
            "bot_level": d["bot_kind"],
            "open_seats": d["open_seats"],
        }


class ChatForm(forms.Form):
    text = forms.CharField(label=_("Message"), max_length=500, strip=True)


class ReplaceVoteForm(forms.Form):
    """A vote to replace the player of ``seat`` by the bot (rules: games.clocks.seats)."""

    seat = forms.IntegerField(min_value=0, max_value=99)


class MoveForm(forms.Form):
    """The generic fields of a move posted from a page; the move itself is read by the
    title's web side (``WebTitle.action_from_post``)."""

    version = forms.IntegerField(required=False, min_value=0)
    client_id = forms.CharField(required=False, max_length=64)
