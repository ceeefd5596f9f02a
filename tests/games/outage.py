"""Private Redis and PostgreSQL servers for the outage tests, which stop and start them.

The shared servers are never stopped: other test runs use them at the same time. Each
server here listens on a free port of its own and keeps nothing on disk beyond its temporary
folder, which is removed at the end.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import redis

from tests.servers import free_port
from tests.waiting import wait_until

PG_BIN = Path("/usr/lib/postgresql/15/bin")


class PrivateRedis:
    """``redis-server`` on a free port, without persistence; ``stop`` and ``start`` keep the
    port, so clients that were pointed at it find it again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        #: The same server on a Unix socket (``unix://`` + this path).
        self.socket_path = Path(tempfile.mkdtemp(prefix="colorado-redis-")) / "redis.sock"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--loglevel", "warning",
             "--unixsocket", str(self.socket_path), "--unixsocketperm", "700"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        proc = self.proc

        def answers() -> bool:
            # Our own server, not one another test left on the port: it must still run.
            assert proc.poll() is None, (
                f"redis-server on port {self.port} exited ({proc.returncode})"
            )
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(answers, timeout=20, message="the private redis-server answering")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc = None


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.socket_path.parent, ignore_errors=True)


def _as_postgres(*args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    command = [str(a) for a in args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    return subprocess.run(command, check=check, capture_output=True)


class PrivatePostgres:
    """A throw-away PostgreSQL 15 cluster on a free port (user ``postgres``, trust auth);
    ``stop`` and ``start`` keep its data and port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def init(self) -> None:
        _as_postgres(PG_BIN / "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        _as_postgres(
            PG_BIN / "pg_ctl", "-D", str(self.data), "-o", options, "-w", "-l",
            str(self.folder / "log"), "start",
        )  # fmt: skip

    def stop(self) -> None:
        _as_postgres(PG_BIN / "pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    folder = Path(tempfile.mkdtemp(prefix="colorado-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    server = PrivatePostgres(folder)
    try:
        server.init()
        server.start()
        yield server
    finally:
        _as_postgres(
            PG_BIN / "pg_ctl", "-D", str(server.data), "-m", "immediate", "stop", check=False
        )
        shutil.rmtree(folder, ignore_errors=True)
