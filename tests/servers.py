"""Shared helpers of the tests that start servers of their own (a live site, a private
Redis or PostgreSQL, an SMTP server): a free port each.

A port handed out here is never handed out again in the same test run, by any test worker,
and it lies below the system's ephemeral range, so neither a server that binds port 0 nor
an outgoing connection's local end ever takes it. Both matter to the drills that stop a
server and start it again on the same port: while it is down the port is free, and a port
picked by the system for another test (or a client's connection) could be that one. A
private Redis started again there would fail to bind and exit, the drill's ping would
reach the other test's Redis, and the worker under test would live on that server.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import tempfile
import time
from pathlib import Path

#: The ports handed out: from here to just below the ephemeral range.
LOWEST = 20000
#: Claim folders of earlier runs older than this are removed.
STALE_SECONDS = 24 * 3600
_PICKS = random.SystemRandom()  # not the tests' seeded generator: workers must differ


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, claimed for this test run."""
    highest = _ephemeral_start() - 1
    if highest - LOWEST < 1000:  # a system whose ephemeral range starts low: its pick
        return _system_pick()
    claims = _claims_folder()
    for _ in range(200):
        port = _PICKS.randint(LOWEST, highest)
        try:
            os.close(os.open(claims / str(port), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue  # another test of this run has it
        if _bindable(port):
            return port
    raise RuntimeError(f"no free port between {LOWEST} and {highest} after 200 tries")


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _system_pick() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _claims_folder() -> Path:
    """The folder of this run's claimed ports, shared by its xdist workers (one run id)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    base = Path(tempfile.gettempdir())
    folder = base / f"colorado-test-ports-{run}"
    if not folder.is_dir():
        for old in base.glob("colorado-test-ports-*"):
            with contextlib.suppress(OSError):
                if time.time() - old.stat().st_mtime > STALE_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
        folder.mkdir(exist_ok=True)
    return folder
