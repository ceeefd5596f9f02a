"""What a table's terms are, in words, for the lobby, the inbox and the table's page:
its clock ("3 days, +1 day a move, at most 7 days"), whether vacation is used when a
deadline passes, and its options as the new-table form names them.

    {% load lobby_tags %}
    {{ game|clock_words }} · {{ game|option_words }}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bots.players import level_of
from games.clocks.arithmetic import auto_vacation_applies
from games.titles import web_title

register = template.Library()


def duration_words(seconds: float) -> str:
    """A clock's length in the largest unit that fits: "3 days", "12 hours", "5 minutes",
    "1 day 12 hours"."""
    total = round(seconds / 60)  # whole minutes
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("%(n)d day", "%(n)d days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes})
    return " ".join(parts) if parts else _("no time")


@register.filter
def clock_words(game: Any) -> str:
    """ "3 days, +1 day a move, at most 7 days"."""
    text = duration_words(game.clock_initial_seconds)
    if game.clock_increment_seconds:
        text = _("%(start)s, +%(more)s a move") % {
            "start": text,
            "more": duration_words(game.clock_increment_seconds),
        }
    if game.clock_max_seconds and game.clock_max_seconds > game.clock_initial_seconds:
        text = _("%(clock)s, at most %(max)s") % {
            "clock": text,
            "max": duration_words(game.clock_max_seconds),
        }
    return text


@register.filter
def vacation_words(game: Any) -> str:
    """Whether a missed deadline spends vacation at this table (``docs/clocks.md``)."""
    if auto_vacation_applies(game.clock_initial_seconds):
        return _("Vacation days are used when a deadline passes")
    return _("No automatic vacation: the clock is too quick")


@register.filter
def timeout_words(game: Any) -> str:
    if game.on_timeout == "wait":
        return _("the table waits for a late player")
    return _("a bot moves for a late player")


@register.filter
def bot_level_words(game: Any) -> str:
    """The table's bot level ("Bot level: Hard"), or nothing for a table without one."""
    level = level_of(game.title, game.bot_kind) if game.bot_kind else None
    if level is None:
        return ""
    return _("Bot level: %(level)s") % {"level": level.label}


@register.filter
def option_words(game: Any) -> str:
    """The table's options as the new-table form labels them ("Name: choice · …")."""
    try:
        fields = web_title(game.title).option_fields()
    except KeyError:
        return ""
    parts = []
    for name, value in (game.options or {}).items():
        field = fields.get(name)
        if field is None:
            continue
        choices = {str(k): str(v) for k, v in getattr(field, "choices", [])}
        parts.append(f"{field.label}: {choices.get(str(value), str(value))}")
    return " · ".join(parts)
