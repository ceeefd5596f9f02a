"""What one account (or, signed out, one address) may hold of a server's sockets, and how
often a socket may ask for a whole document (issue 41, item 9): one account opened 2,000
sockets (the process grew from 131 to 196 MB and kept it), and 2,000 ``hello`` messages in
15 s had 130 MB of documents read and sent.

* ``SOCKETS_PER_ACCOUNT`` (default 20) sockets per signed-in account and
  ``SOCKETS_PER_ADDRESS`` (default 50) per address for signed-out visitors, game and live
  sockets together, counted per server process (a page holds two: its table's and the live
  one). One more is refused with close code 4429.
* ``hello`` (the game socket's "send me the table") and any message to the live socket
  (its "count again") are allowed in bursts of ``HELLO_BURST`` (5), then one every
  ``1 / HELLO_PER_SECOND`` seconds (2 s) per socket; past that the socket answers
  ``{"type": "error", "code": "throttled"}`` and reads nothing. The page says hello when
  it (re)connects and every 10 s while it waits.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings

CLOSE_TOO_MANY = 4429
HELLO_BURST = 5.0
HELLO_PER_SECOND = 0.5


class SocketCounts:
    """Open sockets per key in this process (``key_of``)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def take(self, key: str) -> bool:
        """Count one more socket for ``key``, unless it already holds its share."""
        most = (
            settings.SOCKETS_PER_ACCOUNT
            if key.startswith("user:")
            else settings.SOCKETS_PER_ADDRESS
        )
        with self.lock:
            held = self.counts.get(key, 0)
            if held >= int(most):
                return False
            self.counts[key] = held + 1
            return True

    def give_back(self, key: str) -> None:
        with self.lock:
            held = self.counts.get(key, 0) - 1
            if held > 0:
                self.counts[key] = held
            else:
                self.counts.pop(key, None)


socket_counts = SocketCounts()


def key_of(user: Any, scope: dict[str, Any]) -> str:
    """Whose share a socket counts in: the signed-in account's, else the address's (the real
    client's: ``colorado.client_address``)."""
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    client = scope.get("client") or ("?", 0)
    return f"address:{client[0]}"


class Bucket:
    """A token bucket: ``burst`` at once, then ``per_second``."""

    def __init__(self, burst: float = HELLO_BURST, per_second: float = HELLO_PER_SECOND) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = burst
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
