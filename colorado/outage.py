"""The database is down: 503 ``unavailable``, not a 500 with a stack trace.

While PostgreSQL does not answer (a restart, a failover, the pool waiting in vain for a
connection) every request that reads it fails. ``DatabaseOutageMiddleware`` turns those
failures into what a visitor can act on: ``/api/`` callers get the API's error shape
``{"code": "unavailable", "message": ...}`` with status 503 and ``Retry-After``, pages get
``templates/503.html`` (the site's look, rendered without the request: its user and
messages are in the database too).

A failed request alone does not say the server is down (a deadlock is an
``OperationalError`` too), so it is followed by one direct connection attempt with a short
timeout. If that fails as well, the process answers 503 at once for ``RETRY_SECONDS``
instead of letting every request wait ``DATABASE_POOL_TIMEOUT`` seconds for the pool; then
one request tries a direct connection again while the others still get the 503, and the
first that succeeds lets the requests through to the pool again. So the site recovers by
itself when the database is back, within about ``RETRY_SECONDS``.

Where the failure happens decides how it is caught. Django turns an exception of a view
into a response through the middleware's ``process_exception``, but one raised inside a
middleware (the signed-in user is read from the session there, by
``UserPreferencesMiddleware``) becomes a 500 response before any outer middleware sees it;
so ``got_request_exception`` marks the request, and the middleware, placed outside every
middleware that reads the database, replaces that 500 with the 503.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30
_MARK = "_database_unavailable"
# While the database is known to be down, requests are answered at once for this long
# before the next direct connection attempt; that attempt waits this long at most.
RETRY_SECONDS = 1
PROBE_TIMEOUT_SECONDS = 2
# Paths that never wait for the breaker: the health check says the truth itself.
_ALWAYS_TRY = ("/healthz", "/static/")


def _unavailable_errors() -> tuple[type[BaseException], ...]:
    errors: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
    try:  # raised as they are when the pool gives up outside Django's error wrapper
        import psycopg
    except ImportError:  # SQLite only
        return errors
    return (*errors, psycopg.OperationalError, psycopg.InterfaceError)


UNAVAILABLE = _unavailable_errors()


def is_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (not a bug in a query)."""
    return isinstance(exc, UNAVAILABLE)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    message = _("The site cannot reach its database just now. Please try again in a minute.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "unavailable", "message": message}, status=503)
    else:
        html = render_to_string(
            "503.html",
            {
                "message": message,
                "site_name": settings.SITE_NAME,
                "site_short_name": settings.SITE_SHORT_NAME,
            },
        )
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _mark(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    exc = sys.exc_info()[1]
    if request is not None and is_unavailable(exc):
        setattr(request, _MARK, True)


got_request_exception.connect(_mark, dispatch_uid="colorado.outage")


def database_answers() -> bool:
    """A fresh connection to the default database, outside the pool (which would wait
    ``DATABASE_POOL_TIMEOUT`` for one), with a short timeout."""
    from django.db import connection

    settings = connection.settings_dict
    if "postgresql" not in settings["ENGINE"]:
        return True  # SQLite: a local file, nothing to be down
    import psycopg

    params = {
        "dbname": settings["NAME"],
        "user": settings.get("USER") or None,
        "password": settings.get("PASSWORD") or None,
        "host": settings.get("HOST") or None,
        "port": settings.get("PORT") or None,
    }
    try:
        kwargs = {k: v for k, v in params.items() if v}
        with psycopg.connect(connect_timeout=PROBE_TIMEOUT_SECONDS, **kwargs) as probe:
            probe.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def _drop_dead_pooled_connections() -> None:
    """The pool's idle connections died with the server: have the pool check them now,
    instead of failing one request for each."""
    from django.db import connection

    pool = getattr(connection, "pool", None) if connection.vendor == "postgresql" else None
    if pool is not None:
        try:
            pool.check()
        except Exception:
            log.exception("could not check the database pool")


class Breaker:
    """This process's view of whether the database is down (see the module's docstring)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0  # monotonic; 0: not down

    def refuse(self) -> bool:
        """Whether to answer 503 without trying the database."""
        if not self.down_until:
            return False
        if time.monotonic() < self.down_until or not self.lock.acquire(blocking=False):
            return True
        try:  # this request tries again; the others keep getting the 503 meanwhile
            if database_answers():
                log.warning("database available again")
                _drop_dead_pooled_connections()
                self.down_until = 0.0
                return False
            self.down_until = time.monotonic() + RETRY_SECONDS
            return True
        finally:
            self.lock.release()

    def failed(self, *, known_down: bool = False) -> None:
        """A request failed on the database: find out whether it is down."""
        if self.down_until or not self.lock.acquire(blocking=False):
            return
        try:
            if known_down or not database_answers():
                log.error("database unavailable: answering 503 until it is back")
                self.down_until = time.monotonic() + RETRY_SECONDS
        finally:
            self.lock.release()


breaker = Breaker()


class DatabaseOutageMiddleware:
    """Outside every middleware that reads the database (sessions, auth): each response of a
    request that failed because the database is unreachable becomes 503 ``unavailable``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(_ALWAYS_TRY) and breaker.refuse():
            return unavailable_response(request)
        response = self.get_response(request)
        if response.status_code != 500:
            return response
        # Marked: the exception passed through Django's handler. Unmarked: it was turned
        # into a 500 elsewhere (django-ninja does so with DEBUG on), so ask the database.
        if getattr(request, _MARK, False):
            breaker.failed()
        elif database_answers():
            return response
        else:
            breaker.failed(known_down=True)
        return unavailable_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not is_unavailable(exc):
            return None
        log.error("database unavailable: %s %s: %s", request.method, request.path, exc)
        breaker.failed()
        return unavailable_response(request)
