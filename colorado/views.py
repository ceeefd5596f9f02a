"""Site-level pages: home and the health check."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from colorado.tasks import HEARTBEAT_KEY
from games.selectors.inbox import games_to_watch
from games.web.lobby import lobby_context


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The lobby for a signed-in player, the welcome page for everyone else."""
    if request.user.is_authenticated:
        return render(request, "games/lobby.html", lobby_context(request, request.user))

    return render(request, "home.html", {"watch_games": games_to_watch()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 ``{"ok": true}`` when the database answers a query, 503 otherwise."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"ok": False, "database": "unreachable"}, status=503)
    from django.core.cache import cache

    return JsonResponse({"ok": True, "scheduler_heartbeat": cache.get(HEARTBEAT_KEY)})


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers and crawlers ask for whatever the page says: the
    site's mark (the same SVG as ``static/img/favicon.svg``), cached for a day."""
    from django.conf import settings

    body = (settings.BASE_DIR / "static" / "img" / "favicon.svg").read_bytes()
    response = HttpResponse(body, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response
