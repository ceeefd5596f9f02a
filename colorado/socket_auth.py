"""The signed-in user of a socket handshake, from its session cookie (``scope["user"]``).

Channels' ``AuthMiddlewareStack`` does the same in ``database_sync_to_async``: in the one
thread a process keeps for thread-sensitive synchronous code, one handshake after another.
When every page reconnects at once (a server restarted, a network back), each page's two
sockets (its table's and the live one) queued there for the session's and the user's reads.
``SessionUser`` reads them in the process's database threads (``games.store.db_threads``), as
many at once as the connection pool allows, and a handshake without a session cookie (a
script's, with a ticket or a bearer token) costs no database work here at all.

What is checked is Django's own ``django.contrib.auth.get_user``: the session's user, from a
configured backend, whose session hash still matches (a password changed elsewhere signs
the session out, and the session is flushed).
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.http import parse_cookie

from games.store import db_threads


def session_key(scope: dict[str, Any]) -> str | None:
    """The session cookie's value in the handshake's ``Cookie`` header, if any."""
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            key = parse_cookie(value.decode("latin1")).get(settings.SESSION_COOKIE_NAME)
            return key or None
    return None


def session_user(key: str) -> Any:
    """The user signed in with the session ``key`` (``AnonymousUser`` when none); call in
    a database thread."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    # get_user reads only the request's session: a stand-in request with just that.
    return get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]


class SessionUser:
    """ASGI middleware for sockets: ``scope["user"]`` is the session cookie's user, read in
    the database threads."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = session_key(scope)
        user = await db_threads.run(session_user, key) if key else AnonymousUser()
        return await self.inner({**scope, "user": user}, receive, send)
