"""The tests' ports (``tests.servers.free_port``): a drill stops a server and starts it
again on the same port, so no other test may be handed that port meanwhile."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import uuid

import pytest

from tests.servers import LOWEST, _claims_folder, _ephemeral_start, free_port


def test_a_port_is_never_handed_out_again_once_its_server_stopped() -> None:
    """A server listens on a port and stops, as a drill's Redis does before it starts again:
    the next ports handed out are never that one, nor any other already handed out (the
    system's own pick reuses a freed port)."""
    first = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", first))
        server.listen()
    later = [free_port() for _ in range(300)]
    assert first not in later
    assert len(set(later)) == len(later)


def test_no_system_pick_lands_on_a_handed_out_port() -> None:
    """The ports lie below the ephemeral range, where neither a bind to port 0 nor a
    client's outgoing connection takes one."""
    ports = [free_port() for _ in range(50)]
    assert all(LOWEST <= p < _ephemeral_start() for p in ports), ports


def test_another_test_worker_is_never_handed_the_same_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes of one run (two xdist workers, one run id) share the claims."""
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", f"ports-{uuid.uuid4().hex}")
    code = "from tests.servers import free_port\nprint(*[free_port() for _ in range(200)])"
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    ).stdout.split()
    mine = [free_port() for _ in range(200)]
    shutil.rmtree(_claims_folder())
    assert not set(mine) & {int(p) for p in other}
