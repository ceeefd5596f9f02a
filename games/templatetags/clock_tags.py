"""Deadlines for templates, in each viewer's own time zone.

    {% load clock_tags %}
    {% deadline seat.deadline user %}  → <time datetime="…Z">Tue 1 Dec, 14:00 (Europe/Paris)</time>
    {% deadline seat.deadline user as when %}       (the same, into ``when``)
    {{ seat.deadline|deadline_text:user }}          → "Tue 1 Dec, 14:00 (Europe/Paris)"
    {% load tz %}{% timezone request.user|zone_of %}{{ seat.deadline|date:"H:i" }}{% endtimezone %}
    {{ seat.deadline|time_left }}                   → "2 d 3 h left"

Pages show a deadline with ``{% deadline %}``: an absolute time in the viewer's zone, named
in full (an abbreviation such as "IST" or "+03" can be read several ways), which stays true
on a page left open for hours, unlike "in 2 days". Signed-out viewers (and unknown zones)
see UTC. The ``datetime`` attribute is always ISO-8601
UTC, like ``seats[].clock_deadline`` in the API, so a script on the page can count down.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

from django import template
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.clocks.arithmetic import zone
from games.clocks.time_left import time_left_text

register = template.Library()


def viewer_zone(viewer: Any) -> tzinfo:
    """The time zone of ``viewer`` (a user, a zone name, or None for UTC)."""
    if isinstance(viewer, str):
        return zone(viewer)
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return UTC
    return zone(getattr(viewer, "time_zone", ""))


def iso_utc(value: datetime | None) -> str:
    """ISO-8601 in UTC with a ``Z``, or "" (the API's ``clock_deadline`` format)."""
    if value is None:
        return ""
    return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@register.filter
def zone_of(viewer: Any) -> str:
    """The viewer's time zone name, for Django's ``{% timezone %}`` block."""
    return str(getattr(viewer_zone(viewer), "key", "UTC"))


@register.filter
def deadline_text(value: datetime | None, viewer: Any = None) -> str:
    """``value`` in the viewer's zone with the zone's name, e.g. "Tue 1 Dec, 18:00
    (Europe/Paris)" ("" for None). Day and month names follow the active language."""
    if value is None:
        return ""
    tz = viewer_zone(viewer)
    local = value.astimezone(tz)
    return _("%(when)s (%(zone)s)") % {
        # Translators: a deadline's date and time, in Django's date format letters
        # (https://docs.djangoproject.com/en/5.2/ref/templates/builtins/#date).
        "when": formats.date_format(local, pgettext("deadline format", "D j M, H:i")),
        "zone": getattr(tz, "key", "UTC"),
    }


@register.filter
def time_left(value: datetime | None, now: datetime | None = None) -> str:
    """Time until ``value`` in words ("2 d 3 h left", "the deadline has passed")."""

    return time_left_text(value, now or timezone.now())


@register.simple_tag
def deadline(value: datetime | None, viewer: Any = None) -> SafeString | str:
    """A ``<time>`` element: the deadline in the viewer's zone, with the zone's name
    (``deadline_text``), and the UTC instant in ``datetime``; "" when there is no
    deadline."""
    if value is None:
        return ""
    return format_html(
        '<time class="deadline" datetime="{}" title="{}">{}</time>',
        iso_utc(value),
        _("deadline"),
        deadline_text(value, viewer),
    )
