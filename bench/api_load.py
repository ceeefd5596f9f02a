#!/usr/bin/env python3
"""Load benchmark of the game server through its public interface (not a timed test).

Starts ``colorado.asgi:application`` in ``--workers`` uvicorn processes (unless ``--url`` is
given; ``--launcher``: a socket per process, ``colorado.web_workers``, or ``uvicorn
--workers``' shared one) against
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``, creates bench users with API tokens, then
runs ``--clients`` concurrent players in tables of ``--players``. Each player holds a
WebSocket on its table and a keep-alive HTTP connection; when a frame (or its own move's
answer) says it is to act, it sends a random legal action: over its socket (``--via
socket``, the default, as the page does) or as a POST (``--via http``). New tables are
opened as games end, until ``--duration`` seconds have passed. Prints accepted actions per
second, the mover's latency p50/p99 (action sent → its answer; the keys keep their names
``post_p50_ms``/``post_p99_ms``), and the latency from an action being sent to the
resulting frame reaching the OTHER players' sockets (an upper bound of commit-to-socket),
and the server's and the client's CPU per accepted move. Before the load it runs ``VACUUM
(ANALYZE)`` on the database, as autovacuum would have on a site's (``--no-vacuum`` skips it).

``--idle-sockets N`` adds a third server process (``--workers 1``, its own port) holding N
idle sockets: every seat of N/4 quiet four-seat tables (four quiet players with a tab open
on each), on which ``--idle-moves`` moves a second are made while the load runs: over the
mover's own idle socket, as the page makes them (``--idle-moves-via socket``, the default:
the idle process makes the move), or POSTed through the busy server (``http``). Either way
the frames reach the idle sockets through Redis. The client side of the idle sockets runs in
a process of its own, so the load's players do not delay the frames it times. It prints
those frames' latency from the move's own timestamp (taken in its transaction just before
the write and the commit: commit-to-frame plus the write) and from its send (an upper
bound), and the idle process's memory growth per socket while the load ran (a warm-up
table's sockets are opened and closed first, so what a process loads once is not counted
per socket).

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/api_load.py \
        --clients 50 --players 2 --duration 30 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import h11
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]


# --- a small keep-alive HTTP/1.1 client (h11 comes with uvicorn) --------------------------


class Http:
    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.conn = h11.Connection(h11.CLIENT)

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.conn = h11.Connection(h11.CLIENT)

    def close(self) -> None:
        """Close the keep-alive connection (the next request opens another)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        for attempt in range(2):
            try:
                return await self._request(method, path, body)
            except (ConnectionError, h11.RemoteProtocolError, asyncio.IncompleteReadError):
                self.writer = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _request(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if self.writer is None or self.conn.our_state is not h11.IDLE:
            await self._connect()
        assert self.reader is not None
        assert self.writer is not None
        data = orjson.dumps(body) if body is not None else b""
        headers = [
            ("Host", f"{self.host}:{self.port}"),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(data))),
        ]
        if self.token:
            headers.append(("Authorization", f"Bearer {self.token}"))
        out = self.conn.send(h11.Request(method=method, target=path, headers=headers))
        out += self.conn.send(h11.Data(data=data)) if data else b""
        out += self.conn.send(h11.EndOfMessage())
        self.writer.write(out)
        status, chunks = 0, []
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                raw = await self.reader.read(65536)
                self.conn.receive_data(raw)
                if not raw:
                    raise ConnectionError("server closed the connection")
                continue
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
        else:
            self.writer.close()
            self.writer = None
        raw_body = b"".join(chunks)
        try:
            return status, orjson.loads(raw_body) if raw_body else None
        except ValueError:
            return status, {"code": f"non_json_{status}", "body": raw_body[:200].decode()}


# --- statistics ---------------------------------------------------------------------------


@dataclass
class Stats:
    post_latency: list[float] = field(default_factory=list)
    socket_latency: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, version)
    mover: dict[tuple[int, int], int] = field(default_factory=dict)
    idle_latency: list[float] = field(default_factory=list)
    sockets_per_worker: list[int] = field(default_factory=list)
    idle_send_latency: list[float] = field(default_factory=list)
    idle_moves: int = 0
    idle_open: int = 0
    idle_peak: int = 0
    idle_failed: int = 0
    rss_during: list[int] = field(default_factory=list)
    idle_rss_during: list[int] = field(default_factory=list)
    idle_rss_before: int = 0
    idle_rss_rest: int = 0
    idle_cpu_start: float = 0.0
    idle_cpu_end: float = 0.0
    client_cpu_start: float = 0.0
    client_lag: list[float] = field(default_factory=list)
    client_cpu_end: float = 0.0
    cpu_start: float = 0.0
    cpu_end: float = 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


# --- players ------------------------------------------------------------------------------


class Player:
    def __init__(
        self, index: int, token: str, username: str, base: str, ws_base: str, stats: Stats
    ) -> None:
        self.index = index
        self.token = token
        self.username = username
        self.base = base
        self.ws_base = ws_base
        self.http = Http(base, token)
        self.stats = stats
        self.rng = random.Random(index)
        self.sent = 0

    async def play(self, game_id: int, deadline: float, via: str = "socket") -> None:
        ws_url = self.ws_base + f"/ws/games/{game_id}/"  # the token in a header, not the URL
        auth = {"Authorization": f"Bearer {self.token}"}
        latest: dict[str, Any] = {"version": -1}
        wake = asyncio.Event()
        acted_at = -1
        answers: dict[str, asyncio.Future[tuple[int, Any]]] = {}
        async with websockets.connect(ws_url, additional_headers=auth, max_size=2**24) as ws:

            async def reader() -> None:
                async for message in ws:
                    now = time.perf_counter()
                    frame = orjson.loads(message)
                    if frame.get("type") == "answer":
                        waiting = answers.pop(frame.get("client_id"), None)
                        if waiting is not None and not waiting.done():
                            waiting.set_result((frame["status"], frame["body"]))
                        continue
                    if frame.get("type") != "game":
                        continue
                    key = (game_id, frame["version"])
                    sent = self.stats.sent_at.get(key)
                    if sent is not None and self.stats.mover.get(key) != self.index:
                        self.stats.socket_latency.append(now - sent)
                    if frame["version"] > latest["version"]:
                        latest.clear()
                        latest.update(frame)
                        wake.set()

            task = asyncio.create_task(reader())
            try:
                while time.perf_counter() < deadline:
                    wake.clear()
                    if latest.get("status") not in (None, "running"):
                        break
                    doc = dict(latest)
                    mine = doc.get("my_seat")
                    if (
                        doc.get("version", -1) > acted_at
                        and mine in doc.get("to_act", [])
                        and doc.get("legal_actions")
                    ):
                        action = self.rng.choice(doc["legal_actions"])
                        version = doc["version"]
                        key = (game_id, version + 1)
                        start = time.perf_counter()
                        self.stats.sent_at.setdefault(key, start)
                        self.stats.mover.setdefault(key, self.index)
                        if via == "http":
                            status, body = await self.http.request(
                                "POST",
                                f"/api/games/{game_id}/actions",
                                {"action": action, "version": version},
                            )
                        else:
                            self.sent += 1
                            client_id = f"b{self.index}:{self.sent}"
                            answer = answers[client_id] = asyncio.get_running_loop().create_future()
                            await ws.send(
                                orjson.dumps(
                                    {
                                        "type": "action",
                                        "action": action,
                                        "version": version,
                                        "client_id": client_id,
                                    }
                                ).decode()  # a text frame, as the page sends
                            )
                            status, body = await answer
                        self.stats.post_latency.append(time.perf_counter() - start)
                        acted_at = version
                        if status == 200:
                            self.stats.accepted += 1
                            if body["version"] > latest["version"]:
                                latest.clear()
                                latest.update(body)
                            continue
                        code = (body or {}).get("code", str(status))
                        self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
                        continue
                    try:
                        await asyncio.wait_for(
                            wake.wait(), timeout=max(0.01, deadline - time.perf_counter())
                        )
                    except TimeoutError:
                        break
            finally:
                task.cancel()


async def open_table(players: list[Player], size: int) -> int:
    host, guests = players[0], players[1:]
    status, doc = await host.http.request(
        "POST",
        "/api/games",
        {
            "players": size,
            "invite": [p.username for p in guests],
            "open_seats": False,
            "clock": "fast",
        },
    )
    if status != 201:
        raise RuntimeError(f"could not open a table: {status} {doc}")
    for guest in guests:
        status, _ = await guest.http.request("POST", f"/api/games/{doc['id']}/join")
        if status != 200:
            raise RuntimeError(f"could not join: {status}")
    return int(doc["id"])


async def table(
    players: list[Player], size: int, deadline: float, stats: Stats, via: str, first: int
) -> None:
    """Play the table's games, the first one already opened, until the deadline."""
    game_id: int | None = first
    while time.perf_counter() < deadline:
        if game_id is None:
            game_id = await open_table(players, size)
        await asyncio.gather(*(p.play(game_id, deadline, via) for p in players))
        game_id = None
        if time.perf_counter() < deadline:
            stats.games_finished += 1


OPENING = asyncio.Semaphore(20)


@dataclass
class QuietTable:
    """A table where little happens: each seat's player has a tab open on it (an idle
    socket), and the trickle moves on it now and then."""

    game_id: int
    players: list[Player]
    latest: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> its last frame
    seat_player: dict[int, Player] = field(default_factory=dict)
    seat_socket: dict[int, Any] = field(default_factory=dict)


async def idle_socket(player: Player, table: QuietTable, stats: Stats) -> None:
    """A socket that only listens, on a quiet table: the time from the move's timestamp
    (taken in its transaction just before the commit, the frame's event ``at``) to the
    frame arriving here is commit-to-frame plus the write; from the move's send it is an
    upper bound. Runs until cancelled."""
    ws_url = player.ws_base + f"/ws/games/{table.game_id}/"
    auth = {"Authorization": f"Bearer {player.token}"}
    try:
        async with OPENING:  # a few handshakes at a time
            ws = await websockets.connect(
                ws_url, additional_headers=auth, max_size=2**24, open_timeout=120
            )
    except Exception:
        stats.idle_failed += 1
        return
    async with ws:
        stats.idle_open += 1
        stats.idle_peak = max(stats.idle_peak, stats.idle_open)
        try:
            async for message in ws:
                wall, now = time.time(), time.perf_counter()
                frame = json.loads(message)
                if frame.get("type") != "game":
                    continue
                seat = frame.get("my_seat")
                if isinstance(seat, int):
                    table.latest[seat] = frame
                    table.seat_player[seat] = player
                    table.seat_socket[seat] = ws
                sent = stats.sent_at.get((table.game_id, frame["version"]))
                if sent is None:
                    continue  # not a trickle move (the socket's first document)
                stats.idle_send_latency.append(now - sent)
                at = next((e.get("at") for e in frame.get("events", []) if e.get("at")), None)
                if at:
                    stats.idle_latency.append(wall - datetime.fromisoformat(at).timestamp())
        finally:
            stats.idle_open -= 1


async def trickle(
    tables: list[QuietTable], rate: float, stats: Stats, deadline: float, via: str = "socket"
) -> None:
    """``rate`` moves a second on random quiet tables, each made by the seat to act: over
    its own idle socket (``via="socket"``, as the page does: the idle process makes the
    move) or POSTed through the busy server (``"http"``, a move made elsewhere). Either way
    the frames reach the idle sockets through Redis."""
    rng = random.Random(0)
    busy: set[Player] = set()
    while time.perf_counter() < deadline:
        await asyncio.sleep(1 / rate)
        rng.shuffle(tables)
        for table in tables:
            choice = [
                (seat, frame)
                for seat, frame in table.latest.items()
                if seat in frame.get("to_act", ())
                and frame.get("legal_actions")
                and frame.get("status") == "running"
            ]
            if not choice:
                continue
            seat, frame = choice[0]
            version, mover = frame["version"], table.seat_player[seat]
            key = (table.game_id, version + 1)
            if key in stats.sent_at or mover in busy:
                continue  # already moved at this version (its frame is on its way)
            stats.sent_at[key] = time.perf_counter()
            busy.add(mover)
            action = rng.choice(frame["legal_actions"])
            if via == "socket":
                message = {
                    "type": "action",
                    "action": action,
                    "version": version,
                    "client_id": f"trickle:{key[0]}:{key[1]}",
                }
                task = asyncio.create_task(table.seat_socket[seat].send(json.dumps(message)))
            else:
                task = asyncio.create_task(
                    mover.http.request(
                        "POST",
                        f"/api/games/{table.game_id}/actions",
                        {"action": action, "version": version},
                    )
                )
            task.add_done_callback(lambda _t, m=mover: busy.discard(m))
            stats.idle_moves += 1
            break


# --- set-up -------------------------------------------------------------------------------


def make_users(count: int, prefix: str = "bench-") -> list[tuple[str, str]]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from accounts.models import User
    from accounts.services import token_create

    out = []
    for i in range(count):
        user, _ = User.objects.get_or_create(username=f"{prefix}{i}")
        out.append((user.username, token_create(user=user, name="bench")))
    return out


def quiet_collector() -> None:
    """The web processes' garbage-collector policy in the bench's own client processes too
    (``colorado.gcpolicy``): a full collection over the client's objects stops its loop,
    and every latency it measures with it."""
    sys.path.insert(0, str(ROOT))
    from colorado import gcpolicy

    gcpolicy.tune()


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


#: The run command's uvicorn options (dev.py run, README): no per-message deflate, whose
#: zlib work per frame and socket cost more of the server's CPU than anything else on the
#: socket side (docs/benchmarks.md).
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
    env = {**os.environ, "LOG_LEVEL": "WARNING", "DJANGO_ENV": "test", "DEBUG": "0"}
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


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


async def open_quiet_tables(
    users: list[tuple[str, str]], count: int, base: str, ws_base: str, stats: Stats
) -> list[QuietTable]:
    """``count`` four-seat tables of the same four quiet players, opened through the busy
    server (20 at a time); each seat's player object is its own (its own HTTP connection)."""
    gate = asyncio.Semaphore(20)

    async def one(n: int) -> QuietTable:
        players = [
            Player(10_000 + 4 * n + i, tok, name, base, ws_base, stats)
            for i, (name, tok) in enumerate(users)
        ]
        async with gate:
            return QuietTable(await open_table(players, 4), players)

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def run(
    args: argparse.Namespace,
    base: str,
    users: list[tuple[str, str]],
    server_pgid: int = 0,
    idle: Any = None,
) -> Stats:
    """The load on the busy tables; ``idle``: the pipe to the idle sockets' process."""
    stats = Stats()
    ws_base = args.ws_url or base.replace("http", "ws", 1)
    players = [Player(i, tok, name, base, ws_base, stats) for i, (name, tok) in enumerate(users)]
    groups = [players[i : i + args.players] for i in range(0, len(players), args.players)]
    full = [g for g in groups if len(g) == args.players]
    firsts = await asyncio.gather(*(open_table(g, args.players) for g in full))
    if args.via == "socket":
        # Over the socket the players' HTTP connections stay idle: close them, as a browser
        # does, so that the server's processes hold the game sockets only (and
        # ``sockets_per_worker`` counts those).
        for p in players:
            p.http.close()
    # Idle sockets: every seat of the quiet tables holds one, in the idle server process;
    # the client side of them runs in a process of its own (``idle_side``).
    if idle is not None:
        await asyncio.get_running_loop().run_in_executor(None, idle.recv)  # sockets open
        idle.send(args.duration)
    start = time.perf_counter()
    deadline = start + args.duration
    stats.cpu_start = group_cpu_seconds(server_pgid) if server_pgid else 0.0
    stats.client_cpu_start = time.process_time()

    async def lag() -> None:  # how late the client's own loop runs (part of every latency)
        while time.perf_counter() < deadline:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stats.client_lag.append(time.perf_counter() - before - 0.01)

    lagger = asyncio.create_task(lag())

    async def memory() -> None:  # the servers' memory while the load runs
        while time.perf_counter() < deadline:
            await asyncio.sleep(1)
            if server_pgid:
                stats.rss_during.append(group_rss_bytes(server_pgid))
                if not stats.sockets_per_worker:  # once, a second into the load
                    stats.sockets_per_worker = sockets_per_worker(server_pgid, args.port)

    watcher = asyncio.create_task(memory())
    await asyncio.gather(
        *(
            table(g, args.players, deadline, stats, args.via, f)
            for g, f in zip(full, firsts, strict=True)
        )
    )
    stats.cpu_end = group_cpu_seconds(server_pgid) if server_pgid else 0.0
    stats.client_cpu_end = time.process_time()
    stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    watcher.cancel()
    lagger.cancel()
    if idle is not None:
        figures = await asyncio.get_running_loop().run_in_executor(None, idle.recv)
        for name, value in figures.items():
            setattr(stats, name, value)
    return stats


IDLE_FIELDS = (
    "idle_latency", "idle_send_latency", "idle_moves", "idle_peak", "idle_failed",
    "idle_rss_during", "idle_rss_before", "idle_rss_rest", "idle_cpu_start", "idle_cpu_end",
)  # fmt: skip


def idle_side(
    conn: Any,
    settings: dict[str, Any],
    quiet_users: list[tuple[str, str]],
    base: str,
    idle_base: str,
    idle_pgid: int,
) -> None:
    """The client side of the idle sockets and the trickle, in a process of its own, so
    that the load's players do not delay the frames it times (the load client's loop runs
    tens of milliseconds late at p99, ``client_loop_lag_p99_ms``): opens the quiet tables
    and their sockets, says so on ``conn``, waits for the load's duration, times the
    trickle's frames and the idle server's memory meanwhile, and sends its figures back."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    args = argparse.Namespace(**settings)
    quiet_collector()
    stats = asyncio.run(idle_run(conn, args, quiet_users, base, idle_base, idle_pgid))
    conn.send({name: getattr(stats, name) for name in IDLE_FIELDS})


async def idle_run(
    conn: Any,
    args: argparse.Namespace,
    quiet_users: list[tuple[str, str]],
    base: str,
    idle_base: str,
    idle_pgid: int,
) -> Stats:
    stats = Stats()
    idle: list[asyncio.Task[None]] = []
    idle_ws = idle_base.replace("http", "ws", 1)
    quiet = await open_quiet_tables(quiet_users, -(-args.idle_sockets // 4), base, idle_ws, stats)
    # Warm-up: one table's sockets opened and closed, so what is loaded once per
    # process (the consumer's modules, the Redis subscriber) is not counted per socket.
    warm = [asyncio.create_task(idle_socket(p, quiet[0], stats)) for p in quiet[0].players]
    while stats.idle_open + stats.idle_failed < len(warm):
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)
    for task in warm:
        task.cancel()
    await asyncio.gather(*warm, return_exceptions=True)
    stats.idle_peak = 0
    await asyncio.sleep(1)
    stats.idle_rss_before = group_rss_bytes(idle_pgid)
    for n in range(args.idle_sockets):
        table_, seat = quiet[n // 4], n % 4
        idle.append(asyncio.create_task(idle_socket(table_.players[seat], table_, stats)))
    while stats.idle_open + stats.idle_failed < len(idle):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)
    stats.idle_rss_rest = group_rss_bytes(idle_pgid)
    conn.send("open")
    duration = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    deadline = time.perf_counter() + duration
    stats.idle_cpu_start = group_cpu_seconds(idle_pgid)

    async def memory() -> None:  # the idle server's memory while the load runs
        while time.perf_counter() < deadline:
            await asyncio.sleep(1)
            stats.idle_rss_during.append(group_rss_bytes(idle_pgid))

    watcher = asyncio.create_task(memory())
    await trickle(quiet, args.idle_moves, stats, deadline, args.idle_moves_via)
    stats.idle_cpu_end = group_cpu_seconds(idle_pgid)
    watcher.cancel()
    await asyncio.sleep(0.5)  # the last trickle frames
    for task in idle:
        task.cancel()
    await asyncio.gather(*idle, return_exceptions=True)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument(
        "--idle-sockets",
        type=int,
        default=0,
        help="also hold this many idle sockets in a third server process (--workers 1, its "
        "own port): every seat of N/4 quiet four-seat tables, on which a trickle of moves "
        "(--idle-moves a second) is made through the busy server while the load runs; "
        "reports their frames' latency and the idle process's memory per socket",
    )
    parser.add_argument(
        "--idle-moves", type=float, default=4, help="moves a second on the quiet tables"
    )
    parser.add_argument(
        "--idle-moves-via",
        choices=["socket", "http"],
        default="socket",
        help="the quiet tables' moves: over the mover's own idle socket, as the page makes "
        "them (the idle process makes the move), or POSTed through the busy server",
    )
    parser.add_argument(
        "--server-option",
        action="append",
        default=[],
        help="an extra uvicorn option for the servers started here, e.g. "
        "--server-option=--ws-per-message-deflate=true (the run command's own are in "
        "SERVER_OPTIONS)",
    )
    parser.add_argument(
        "--via",
        choices=["socket", "http"],
        default="socket",
        help="how the players send their moves: over their game socket (as the page "
        "does) or as POST /api/games/<id>/actions",
    )
    parser.add_argument(
        "--launcher",
        choices=["reuseport", "uvicorn"],
        default="reuseport",
        help="how the server's worker processes share the port: a socket each "
        "(colorado.web_workers, the default) or uvicorn --workers' one shared socket",
    )
    parser.add_argument(
        "--no-vacuum",
        dest="vacuum",
        action="store_false",
        help="skip the VACUUM (ANALYZE) of the database before the load",
    )
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument(
        "--ws-url", help="with --url: where the sockets are served, if not at the same address"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    users = make_users(args.clients)
    quiet_users = make_users(4, prefix="bench-quiet-") if args.idle_sockets else []
    autovacuum = vacuum() if args.vacuum else None
    quiet_collector()
    if not args.port:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            args.port = s.getsockname()[1]
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so the server is stopped too
    options = [*SERVER_OPTIONS, *args.server_option]
    proc = (
        None
        if args.url
        else start_server(args.port, args.workers, options=options, launcher=args.launcher)
    )
    base = args.url or f"http://127.0.0.1:{args.port}"
    idle_proc = None
    try:
        if args.idle_sockets:
            import socket

            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                idle_port = s.getsockname()[1]
            idle_proc = start_server(idle_port, 1, options=options)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        rss_before = group_rss_bytes(proc.pid) if proc is not None else 0
        idle = None
        if idle_proc is not None:
            import multiprocessing

            context = multiprocessing.get_context("spawn")
            idle, child_end = context.Pipe()
            settings = {
                "idle_sockets": args.idle_sockets,
                "idle_moves": args.idle_moves,
                "idle_moves_via": args.idle_moves_via,
            }
            idle_url = f"http://127.0.0.1:{idle_port}"
            context.Process(
                target=idle_side,
                args=(child_end, settings, quiet_users, base, idle_url, idle_proc.pid),
            ).start()
        stats = asyncio.run(run(args, base, users, proc.pid if proc is not None else 0, idle))
        server_cpu = stats.cpu_end - stats.cpu_start
    finally:
        if proc is not None:
            stop_server(proc)
        if idle_proc is not None:
            stop_server(idle_proc)
    elapsed = stats.elapsed  # type: ignore[attr-defined]
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    result = {
        "machine": f"{machine}, Python {platform.python_version()}",
        "clients": args.clients,
        "players_per_table": args.players,
        "server_workers": args.workers,
        "launcher": args.launcher,
        "sockets_per_worker": stats.sockets_per_worker,
        "via": args.via,
        "postgres_autovacuum": autovacuum,  # None: not vacuumed before the load (--no-vacuum)
        "seconds": round(elapsed, 1),
        "accepted_actions": stats.accepted,
        "actions_per_second": round(stats.accepted / elapsed, 1),
        "refused": stats.refused,
        "games_finished": stats.games_finished,
        "post_p50_ms": round(pct(stats.post_latency, 0.50), 1),
        "post_p99_ms": round(pct(stats.post_latency, 0.99), 1),
        "socket_p50_ms": round(pct(stats.socket_latency, 0.50), 1),
        "socket_p99_ms": round(pct(stats.socket_latency, 0.99), 1),
        "socket_frames_measured": len(stats.socket_latency),
        # The server's own CPU per accepted action (all its processes, from /proc): less
        # sensitive than the rates to other work on the machine.
        "server_cpu_ms_per_action": round(server_cpu * 1000 / stats.accepted, 2)
        if stats.accepted and server_cpu
        else None,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "server_rss_mb_before": round(rss_before / 2**20, 1) if rss_before else None,
        "server_rss_mb_peak": round(max(stats.rss_during) / 2**20, 1) if stats.rss_during else None,
        "post_mean_ms": round(statistics.fmean(stats.post_latency) * 1000, 1)
        if stats.post_latency
        else None,
        # The bench client's own CPU per accepted action: it shares the cores.
        "client_cpu_ms_per_action": round(
            (stats.client_cpu_end - stats.client_cpu_start) * 1000 / stats.accepted, 2
        )
        if stats.accepted
        else None,
        # How late the client's loop ran (a 10 ms sleep's overshoot): it is in every latency.
        "client_loop_lag_p99_ms": round(pct(stats.client_lag, 0.99), 1),
        "server_options": options,
    }
    if args.idle_sockets:
        grown = max(stats.idle_rss_during, default=0) - stats.idle_rss_before
        rest = stats.idle_rss_rest - stats.idle_rss_before
        result |= {
            "idle_sockets": args.idle_sockets,
            "idle_moves_via": args.idle_moves_via,
            "idle_sockets_open_at_once": stats.idle_peak,
            "idle_sockets_failed": stats.idle_failed,
            "idle_moves": stats.idle_moves,
            "idle_frames_measured": len(stats.idle_latency),
            # From the move's timestamp (taken in its transaction just before the write and
            # the commit) to the frame at an idle socket: commit-to-frame plus the write.
            "idle_p50_ms": round(pct(stats.idle_latency, 0.50), 1),
            "idle_p99_ms": round(pct(stats.idle_latency, 0.99), 1),
            # From the move's POST being sent: an upper bound.
            "idle_from_send_p50_ms": round(pct(stats.idle_send_latency, 0.50), 1),
            "idle_from_send_p99_ms": round(pct(stats.idle_send_latency, 0.99), 1),
            "idle_server_rss_mb_before": round(stats.idle_rss_before / 2**20, 1),
            "idle_server_rss_mb_peak": round(max(stats.idle_rss_during, default=0) / 2**20, 1),
            # The idle process's growth per socket: peak while the load ran (the key), and
            # with the sockets open before the load started.
            "server_kb_per_idle_socket": round(grown / 1024 / args.idle_sockets, 1),
            "server_kb_per_idle_socket_at_rest": round(rest / 1024 / args.idle_sockets, 1),
            "idle_server_cpu_s": round(stats.idle_cpu_end - stats.idle_cpu_start, 2),
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
