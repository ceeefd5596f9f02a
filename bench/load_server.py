"""The server processes of the benches, from outside: the database's ``vacuum`` before
a load, ``start_server``/``stop_server`` (a process group each), and the group's CPU,
memory and sockets per worker from ``/proc``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def vacuum() -> str:
    """``VACUUM (ANALYZE)`` the bench's database before the load, as autovacuum keeps a
    site's database (every move leaves dead rows of its game and seats; without statistics
    the planner joined a game's seats' users by reading every user, docs/operations.md).
    This machine's PostgreSQL runs with autovacuum off. Returns its setting."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('autovacuum')")
        (setting,) = cursor.fetchone()
        cursor.execute("VACUUM (ANALYZE)")
    return str(setting)


#: A database whose moves table holds fewer rows than this is young (``young_database``).
YOUNG_MOVES = 2_000


def young_database() -> bool:
    """Whether the bench's database has made fewer than ``YOUNG_MOVES`` moves: freshly
    migrated, say. Its statistics then say the moves table is (nearly) empty, and the plans
    PostgreSQL caches for the move path's prepared statements read the whole table for a
    client id, a table that grows by thousands of rows during the load; autovacuum would
    analyze it again as it grows on a site, but this machine's PostgreSQL runs with
    autovacuum off, so the plans stay for the whole run (docs/benchmarks/history.md, "Sixteenth
    pass": first runs on fresh databases made 337-376 moves/s, with PostgreSQL at 2.4-2.7 ms of
    CPU a move; after the warm-up 411-472 moves/s)."""
    from games.models import Move

    return Move.objects.values("pk")[:YOUNG_MOVES].count() < YOUNG_MOVES


#: The site's per-account caps (issue 41), raised in the servers the benches start: the
#: bench's few accounts open hundreds of tables and hold hundreds of sockets each (the idle
#: sockets: 2,000 sockets of four accounts, one process), which the site refuses of one
#: person. With the defaults the idle side's tables were refused (429
#: ``too_many_invitations`` after 10, ``too_many_tables`` after 20), its sockets past the
#: 20th of each account closed (4429), and a database reused for a second run refused the
#: busy tables' invitations too (5 a day to one person). The checks still run, as on a
#: site; only their bounds are out of the load's way (the bench measures the moves and the
#: sockets, not the refusals).
BENCH_CAPS = {
    "SOCKETS_PER_ACCOUNT": "100000",
    "SOCKETS_PER_ADDRESS": "100000",
    "TABLES_PER_HOUR": "100000",
    "INVITATIONS_PER_HOUR": "100000",
    "INVITATIONS_PER_INVITEE": "100000",
}


def server_env() -> dict[str, str]:
    """The environment of a server the benches start: this one's (the database, Redis, the
    engine), quiet logs, no debug, and ``BENCH_CAPS``."""
    return {**os.environ, "LOG_LEVEL": "WARNING", "DJANGO_ENV": "test", "DEBUG": "0", **BENCH_CAPS}


#: The run command's uvicorn options (dev.py run, README): no per-message deflate, whose
#: zlib work per frame and socket cost more of the server's CPU than anything else on the
#: socket side (docs/benchmarks/history.md).
SERVER_OPTIONS = ["--ws-per-message-deflate", "false"]


def start_server(
    port: int,
    workers: int,
    app: str = "colorado.asgi:application",
    probe: str = "/healthz",
    options: list[str] | None = None,
    launcher: str = "reuseport",
) -> subprocess.Popen[bytes]:
    """``launcher``: ``reuseport`` (``colorado.web_workers``: a socket per worker, the
    kernel spreads connections evenly) or ``uvicorn`` (``uvicorn --workers``: one shared
    socket, a burst of connections lands mostly on one worker)."""
    env = server_env()
    module = "colorado.web_workers" if launcher == "reuseport" else "uvicorn"
    cmd = [
        sys.executable, "-m", module, app,
        "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--log-level", "warning", "--no-access-log",
        *(SERVER_OPTIONS if options is None else options),
    ]  # fmt: skip
    # Its own process group: stopping it stops uvicorn's worker processes too.
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)  # noqa: S603
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{probe}", timeout=2):
                return proc
        except OSError:
            time.sleep(0.3)
    stop_server(proc)
    raise RuntimeError("the server did not start")


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the processes of process group ``pgid``
    (the server and its workers), from ``/proc``; 0 where there is no ``/proc``."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: the process group
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def sockets_per_worker(pgid: int, port: int) -> list[int]:
    """How many established connections to ``port`` each process of group ``pgid``
    holds (most first; processes with none left out), from ``/proc``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "01":  # ESTABLISHED
                inodes.add(f[9])
    counts = []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(entry.read_text().rsplit(")", 1)[1].split()[2]) != pgid:
                continue
            links = [os.readlink(fd) for fd in (entry.parent / "fd").iterdir()]
        except OSError:
            continue
        held = sum(1 for link in links if link[8:-1] in inodes and link.startswith("socket:["))
        if held:
            counts.append(held)
    return sorted(counts, reverse=True)


def group_rss_bytes(pgid: int) -> int:
    """Resident memory of the processes of process group ``pgid``, from ``/proc``."""
    total = 0
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            status = (entry.parent / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def run_within(cmd: list[str], seconds: float, capture: bool = False) -> str:
    """Run ``cmd`` (a bench of its own: it stops its servers on SIGTERM) in ``ROOT`` to its
    end, for at most ``seconds``: past them it is asked to stop, then killed, and
    ``subprocess.TimeoutExpired`` raised; a failure raises ``CalledProcessError``. Its
    standard output is returned (``capture``) or dropped; its errors go to ours."""
    out = subprocess.PIPE if capture else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, text=True)  # noqa: S603
    try:
        stdout, _ = proc.communicate(timeout=seconds)
    except BaseException:  # past the deadline, or this process was asked to stop
        proc.terminate()
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        raise
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, cmd, stdout)
    return stdout or ""


def stop_server(proc: subprocess.Popen[Any]) -> None:
    """Stop a server started in a session of its own, its whole process group: asked
    first, killed after 20 s."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass
