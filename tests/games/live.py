"""A real second server for the live tests: ``uvicorn colorado.asgi:application`` in a
subprocess on a free port, sharing the test database and the Redis channel layer, and a
WebSocket client (the ``websockets`` package) that collects frames in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import websockets

from tests.servers import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def live_server(
    *,
    database_name: str,
    channel_prefix: str,
    workers: int = 1,
    env: dict[str, str] | None = None,
    access_log: Path | None = None,
) -> Iterator[str]:
    """Run uvicorn against the test database; yields its base URL. ``env`` adds to or
    overrides the server's environment (settings; the outage tests point it at servers of
    their own). With ``access_log``, the server logs at info level, access lines included,
    into that file (what an operator's log would keep)."""
    port = free_port()
    extra = env or {}
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database_name}",
        # Its channel, cache and task queue names are its test worker's: servers started by
        # tests running side by side share nothing on the Redis database.
        "CHANNEL_PREFIX": channel_prefix,
        "CACHE_PREFIX": channel_prefix,
        "CELERY_QUEUE": channel_prefix,
        "DJANGO_ENV": "test",
        "PORT": str(port),
        "LOG_LEVEL": "WARNING",
        **extra,
    }
    log_file = access_log.open("ab") if access_log else None
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "colorado.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "info" if access_log else "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT if log_file else None,
    )
    base = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError("the live server exited")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as r:  # noqa: S310
                return r.status == 200
        except OSError:
            return False

    try:
        wait_until(answers, timeout=60, interval=0.2, message="the live server starting")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log_file:
            log_file.close()


def socket_ticket(base: str, token: str) -> str:
    """A single-use socket ticket (``POST /api/socket-ticket``) for the token's user."""
    request = urllib.request.Request(  # noqa: S310
        f"{base}/api/socket-ticket",
        method="POST",
        headers={"Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as r:  # noqa: S310
        return str(json.loads(r.read())["ticket"])


class Socket:
    """A WebSocket connection run in its own thread; frames are collected in ``frames``."""

    def __init__(
        self,
        url: str,
        *,
        origin: str | None,
        cookie: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.origin = origin
        self.headers = {**({"Cookie": cookie} if cookie else {}), **(headers or {})}
        self.frames: list[dict[str, Any]] = []
        self.closed_code: int | None = None
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._ws: Any = None
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._opened.wait(20):
            raise TimeoutError(f"could not connect to {url}")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())

    async def _main(self) -> None:
        try:
            async with websockets.connect(
                self.url,
                origin=self.origin,
                additional_headers=self.headers or None,
                max_size=2**24,
            ) as ws:
                self._ws = ws
                self._opened.set()
                async for message in ws:
                    with self._cond:
                        self.frames.append(json.loads(message))
                        self._cond.notify_all()
        except websockets.ConnectionClosed as exc:
            self.closed_code = exc.rcvd.code if exc.rcvd else None
        except websockets.InvalidStatus as exc:
            self.closed_code = exc.response.status_code
        finally:
            if self._ws is not None and self._ws.close_code is not None:
                self.closed_code = self._ws.close_code
            self._opened.set()
            with self._cond:
                self._cond.notify_all()

    def send(self, payload: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(self._ws.send(json.dumps(payload)), self._loop).result(5)

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        with self._cond:
            while True:
                for frame in self.frames[seen:]:
                    if predicate(frame):
                        return frame
                seen = len(self.frames)
                left = deadline - time.monotonic()
                if left <= 0 or (not self._thread.is_alive()):
                    raise TimeoutError(f"no matching frame; got {len(self.frames)} frames")
                self._cond.wait(left)

    def close(self) -> None:
        if self._ws is not None and self._thread.is_alive():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(self._ws.close(), self._loop).result(5)
        self._thread.join(timeout=10)
