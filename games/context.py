"""Template context every page gets: the site's names and the titles it hosts."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games.titles import web_titles


def site(request: HttpRequest) -> dict[str, Any]:
    return {
        "site_name": settings.SITE_NAME,
        "site_short_name": settings.SITE_SHORT_NAME,
        "site_titles": web_titles(),
    }
