"""The installable app (issue 43): the web app manifest and the offline page the service
worker (``static/js/sw.js``) shows when a page cannot be reached. The worker caches the
static shell and this page only, never a table: a game is always read fresh."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME = "#2f6b3a"  # the header's green (static/css/site.css --green)
BACKGROUND = "#faf6ec"  # the page's paper


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": settings.SITE_NAME,
        "short_name": settings.SITE_SHORT_NAME,
        "description": _("Board games played over days: move when you have a minute."),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "offline.html")
