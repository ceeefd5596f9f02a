"""Apply a signed-in user's own language and time zone to the request (a visitor gets the
browser's language through ``LocaleMiddleware`` and its time zone from the ``tz`` cookie)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.views_language import visitor_time_zone


class UserPreferencesMiddleware:
    """After ``AuthenticationMiddleware`` and ``LocaleMiddleware``: a user who chose a
    language gets it (over the browser's), and times are shown in their time zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = user.language
            if language and language in dict(settings.LANGUAGES):
                translation.activate(language)
                request.LANGUAGE_CODE = language
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone or "UTC"))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            zone = visitor_time_zone(request)
            if zone is not None:
                timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
