"""The footer's language switcher: a visitor's choice goes into the language cookie; a
signed-in player's is also stored on the account, so pages and every e-mail follow it."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts import services


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    language = request.POST.get("language", "")
    if language in dict(settings.LANGUAGES) and request.user.is_authenticated:
        services.user_settings_update(
            user=request.user,
            changes={"language": language},
        )
    # Django's own view checks the language and the ``next`` address, and sets the cookie.
    return set_language(request)


def visitor_time_zone(request: HttpRequest) -> zoneinfo.ZoneInfo | None:
    """The time zone a visitor's browser reported (the ``tz`` cookie set by site.js)."""
    name = request.COOKIES.get("tz", "")
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None
