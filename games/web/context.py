"""Template context every page gets: the site's names and the titles it hosts."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games.selectors.inbox import inbox_count
from games.titles import web_titles


def site(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    # The header's "N games waiting for you" (kept live by static/js/inbox.js).
    inbox = inbox_count(user=user) if user is not None and user.is_authenticated else 0
    return {
        "inbox_count": inbox,
        "site_name": settings.SITE_NAME,
        "site_short_name": settings.SITE_SHORT_NAME,
        "site_titles": web_titles(),
    }
