"""Shared helpers of the tests that start servers of their own (a live site, a private
Redis or PostgreSQL, an SMTP server): a free port each. Each test worker picks its own, so
tests running side by side never take one another's ports."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the system's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
