"""Time limits for slow HTTP clients (issue 41, item 9).

uvicorn closes an idle keep-alive connection after a few seconds, but it has no limit on a
request that arrives slowly: a client that sends its headers a byte at a time (or its body
a byte at a time after a ``Content-Length``) holds a connection and its buffers for as long
as it likes, and a few thousand of them hold the server's sockets.

``GuardedHttpToolsProtocol`` is uvicorn's httptools protocol with two timers: a request's
headers must be complete within ``HEADER_SECONDS`` of its first byte (or of the connection,
for the first request), and its body within ``BODY_SECONDS`` of the headers; otherwise the
connection is closed. A socket handshake (an upgrade) is handed to the WebSocket protocol
as soon as its headers are in, whose pings (every 20 s, 20 s to answer) close a socket
that stopped reading. The server runs with it through ``--http`` (``colorado.server_options``).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds for a request's headers to arrive, from its first byte (or the connection's);
#: ``HTTP_HEADER_SECONDS`` in the environment to change it.
HEADER_SECONDS = float(os.environ.get("HTTP_HEADER_SECONDS") or 10.0)
#: Seconds for a request's body to arrive once its headers have (``HTTP_BODY_SECONDS``).
BODY_SECONDS = float(os.environ.get("HTTP_BODY_SECONDS") or 30.0)


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose request arrives too slowly."""

    _guard: asyncio.TimerHandle | None = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._guard = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None

    def _too_slow(self) -> None:
        self._guard = None
        transport = getattr(self, "transport", None)
        if transport is not None and not transport.is_closing():
            self.logger.info("Closed a connection whose request arrived too slowly.")
            transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm(HEADER_SECONDS)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(HEADER_SECONDS)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        if self.parser.should_upgrade():
            self._disarm()  # a socket: its own protocol takes over
        else:
            self._arm(BODY_SECONDS)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
