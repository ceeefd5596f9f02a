"""The web server's own limits (issue 41, item 9), with the options every run command uses
(``colorado.server_options``): a request whose headers or body arrive too slowly is cut
off, and a socket frame over the size limit is refused before it is read."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from colorado import server_options
from tests.servers import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "HTTP_HEADER_SECONDS": "1", "HTTP_BODY_SECONDS": "2"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "tests.ops.echo_app:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            *server_options.uvicorn_arguments(),
        ],
        cwd=ROOT,
        env=env,
    )

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    wait_until(listening, timeout=20, message="the server did not listen")
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``sock`` (read until EOF), failing past ``seconds``
    (well above the server's limits here, 1 and 2 s)."""
    started = time.monotonic()
    sock.settimeout(0.2)

    def closed() -> bool:
        try:
            return sock.recv(4096) == b""
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True

    wait_until(closed, timeout=seconds, interval=0, message="the server kept the connection open")
    return time.monotonic() - started


def test_a_request_whose_headers_never_end_is_cut_off(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        assert _closed_within(sock, 8) >= 0.5


def test_a_connection_that_sends_nothing_is_cut_off(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        _closed_within(sock, 8)


def test_a_request_whose_body_never_ends_is_cut_off(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n0123456789")
        _closed_within(sock, 10)


def test_a_prompt_request_is_answered(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        sock.settimeout(5)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200")
    assert answer.endswith(b"ok")


def test_a_socket_frame_over_the_limit_is_refused(server: int) -> None:
    with connect(f"ws://127.0.0.1:{server}/", max_size=None) as ws:
        ws.send("x" * 1000)
        assert ws.recv(timeout=5) == "x" * 1000
        ws.send("y" * (server_options.WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big
