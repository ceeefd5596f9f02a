"""The client's address, taken once, in one place, for the web server and Django alike.

Every per-address limit (sign-up, sign-in, anonymous API reads, the token endpoint) counts
by it. Before issue 41 two parties decided it: uvicorn's own proxy-header handling (on by
default, trusting 127.0.0.1) rewrote the address from ``X-Forwarded-For`` before Django saw
it, and then Django applied ``TRUSTED_PROXY_COUNT`` again; with the default of 0 anyone
could send a new made-up address with every request and was never throttled.

Now uvicorn leaves the address alone (``--no-proxy-headers``: ``colorado.server_options``)
and ``ClientAddress``, the outermost layer of the ASGI application, decides it once for
every HTTP request and socket handshake:

* ``TRUSTED_PROXY_COUNT`` = 0 (default): the connection's own address; ``X-Forwarded-For``
  is ignored, since anyone can send one;
* N > 0: the Nth address from the right of ``X-Forwarded-For`` (the one the outermost of
  our proxies saw; what stands left of it is the client's to make up). A header shorter
  than the chain did not come through it: the connection's address then.

It writes the answer into the scope's ``client``, so Django's ``REMOTE_ADDR``, the
throttles (``colorado.throttling``), allauth's rate limits (told to trust no proxy) and
uvicorn's own access log all see the same address, and nothing downstream reads
``X-Forwarded-For`` again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def real_address(peer: str | None, forwarded: str | None, count: int) -> str | None:
    """The client's address: ``peer`` (the connection's), or with ``count`` proxies of our
    own in front the ``count``-th address from the right of ``forwarded``."""
    if count <= 0 or not forwarded:
        return peer
    addresses = [part.strip() for part in forwarded.split(",")]
    if len(addresses) < count or not addresses[-count]:
        return peer
    return addresses[-count]


class ClientAddress:
    """ASGI middleware: the scope's ``client`` becomes the real client's address
    (``real_address``), for HTTP and WebSocket scopes, in place."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") in ("http", "websocket"):
            resolve(scope)
        return await self.inner(scope, receive, send)


class ClientAddressWsgi:
    """The same for a WSGI server (``colorado.wsgi``): ``REMOTE_ADDR`` becomes the real
    client's address."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        count = int(settings.TRUSTED_PROXY_COUNT)
        address = real_address(
            environ.get("REMOTE_ADDR"), environ.get("HTTP_X_FORWARDED_FOR"), count
        )
        if address is not None:
            environ["REMOTE_ADDR"] = address
        return self.inner(environ, start_response)


def resolve(scope: dict[str, Any]) -> None:
    """Set ``scope["client"]`` to the real client's address (once per scope)."""
    if scope.get("colorado.client_resolved"):
        return
    scope["colorado.client_resolved"] = True
    count = int(settings.TRUSTED_PROXY_COUNT)
    client = scope.get("client")
    peer, port = (client[0], client[1]) if client else (None, 0)
    if count <= 0:
        return
    forwarded = ", ".join(
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-for"
    )
    address = real_address(peer, forwarded or None, count)
    if address is not None and address != peer:
        scope["client"] = (address, port)
