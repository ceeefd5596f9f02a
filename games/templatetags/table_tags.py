"""Template tags of the generic game pages: seat names, seat tokens, lookups.

``token`` draws a seat's marker the way the table's title draws it (``WebTitle.token``):
the title comes from the page's ``web_title``, or from ``title=`` (a slug) in lists that
show several games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from accounts.names import name_key
from games.titles import WebTitle, web_title

register = template.Library()


@register.simple_tag(takes_context=True)
def token(context: Any, seat: int, size: int = 18, title: str | None = None) -> SafeString:
    shown: WebTitle | None = None
    if title is not None:
        try:
            shown = web_title(title)
        except KeyError:
            shown = None
    else:
        shown = context.get("web_title")
    if shown is None:
        shown = WebTitle("")
    return shown.token(int(seat), int(size))


@register.filter
def seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    if isinstance(mapping, Mapping):
        return mapping.get(key, mapping.get(str(key)))
    if isinstance(mapping, Sequence) and isinstance(key, int) and 0 <= key < len(mapping):
        return mapping[key]
    return None


@register.filter
def handle(user: Any) -> str:
    """A person's username where their display name reads differently (so pages show who
    is who); empty for bots and for a display name that is the username."""
    if user is None or getattr(user, "is_bot", False):
        return ""
    display = str(getattr(user, "display_name", "") or "")
    username = str(getattr(user, "username", ""))
    return username if display and name_key(display) != name_key(username) else ""
