"""The web server's options, in one place for every way the site is served: ``dev.py run``
(which loads this file by path: it is standard library only), ``manage.py serve``,
``colorado.web_workers`` and the README's deployment command (a test checks they agree).

* ``proxy_headers`` off: uvicorn would otherwise rewrite the client's address from
  ``X-Forwarded-For`` for any connection from 127.0.0.1 (its default trust) before Django
  sees it, and a client could pick its own address for every per-address limit. The real
  client address is taken once, by ``colorado.client_address`` (``TRUSTED_PROXY_COUNT``).
* no per-message deflate: zlib per frame and socket was the sockets' largest CPU cost
  (docs/benchmarks.md).
* ``ws_max_size``: a socket frame larger than this is refused by the server before it is
  read whole (the consumer's own limit is 4,096 characters: 16 KiB holds any of them).
* ``http``: uvicorn's httptools protocol with time limits for slow clients
  (``colorado.slow_clients``): the request's headers within ``HEADER_SECONDS``, its body
  within ``BODY_SECONDS``.
"""

from __future__ import annotations

from typing import Any

#: The largest socket frame the server reads (bytes).
WS_MAX_SIZE = 16 * 1024
#: Seconds a connection may keep an idle keep-alive open between requests (uvicorn's own).
KEEP_ALIVE_SECONDS = 5
#: The HTTP protocol class with the slow-client time limits.
HTTP_PROTOCOL = "colorado.slow_clients:GuardedHttpToolsProtocol"

#: ``uvicorn.Config`` keyword arguments.
UVICORN_CONFIG: dict[str, Any] = {
    "proxy_headers": False,
    "ws_per_message_deflate": False,
    "ws_max_size": WS_MAX_SIZE,
    "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    "http": HTTP_PROTOCOL,
}


def uvicorn_arguments() -> list[str]:
    """The same options on uvicorn's command line (and ``colorado.web_workers``')."""
    return [
        "--no-proxy-headers",
        "--ws-per-message-deflate",
        "false",
        "--ws-max-size",
        str(WS_MAX_SIZE),
        "--timeout-keep-alive",
        str(KEEP_ALIVE_SECONDS),
        "--http",
        HTTP_PROTOCOL,
    ]
