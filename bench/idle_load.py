"""The idle-sockets half of ``api_load.py --idle-sockets N``: the quiet tables and their
idle sockets (``QuietTable``, ``open_quiet_tables``, ``idle_socket``), the trickle of moves
on them (``trickle``), and the process of their own that they run in (``IdleSide``, started
by ``api_load.main`` with multiprocessing's spawn; in it ``idle_side`` and its loop
``idle_run``).

Every wait has a deadline: the sockets must be open within ``OPEN_SECONDS``, and the load's
process hears from this one within a deadline or fails with what went wrong here (the bench
hung for good when this process died: its first table refused, the load waited on the pipe).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import websockets

# Its siblings by their own names, however it is imported (``idle_load`` or ``bench.idle_load``).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_client import (
    ANSWER_SECONDS,
    Player,
    Stats,
    hold_collector,
    open_table,
    quiet_collector,
    release_collector,
    until,
)
from load_server import group_cpu_seconds, group_rss_bytes

OPENING = asyncio.Semaphore(20)
#: The longest the quiet tables, or their sockets, may take to open (each; 2,000 sockets
#: took about 20 s on the project's machine under load).
OPEN_SECONDS = 300.0


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
    upper bound. Runs until cancelled, or until the server closes it (``idle_closed``)."""
    ws_url = player.ws_base + f"/ws/games/{table.game_id}/"
    auth = {"Authorization": f"Bearer {player.token}"}
    try:
        async with OPENING:  # a few handshakes at a time
            ws = await websockets.connect(
                ws_url, additional_headers=auth, max_size=2**24, open_timeout=ANSWER_SECONDS
            )
    except Exception:
        stats.idle_failed += 1
        return
    async with ws:
        stats.idle_open += 1
        stats.idle_opened += 1
        stats.idle_peak = max(stats.idle_peak, stats.idle_open)
        try:
            async for message in ws:
                wall, now = time.time(), time.perf_counter()
                frame = orjson.loads(message)
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
        except websockets.ConnectionClosed:
            pass
        finally:
            stats.idle_open -= 1
    stats.idle_closed += 1  # not cancelled: the server closed it


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
                task = asyncio.create_task(
                    table.seat_socket[seat].send(orjson.dumps(message).decode())
                )
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


IDLE_FIELDS = (
    "idle_latency", "idle_send_latency", "idle_moves", "idle_peak", "idle_failed",
    "idle_closed", "idle_rss_during", "idle_rss_before", "idle_rss_rest", "idle_cpu_start",
    "idle_cpu_end",
)  # fmt: skip


async def receive(conn: Any, seconds: float, sender: str, process: Any = None) -> Any:
    """The next message on ``conn`` (one end of a pipe), waiting at most ``seconds`` (polled
    every 0.1 s on the loop: no thread blocks on the pipe); the other end's failure
    (``{"failed": traceback}``), its end closed (``process`` ended) or the deadline:
    ``RuntimeError`` naming ``sender``."""
    deadline = time.monotonic() + seconds
    while not conn.poll():
        if process is not None and not process.is_alive() and not conn.poll():
            raise RuntimeError(f"{sender} ended (exit code {process.exitcode}) without a word")
        if time.monotonic() >= deadline:
            raise RuntimeError(f"{sender} said nothing in {seconds:.0f} s")
        await asyncio.sleep(0.1)
    try:
        message = conn.recv()
    except EOFError:
        raise RuntimeError(f"{sender} closed its end of the pipe") from None
    if isinstance(message, dict) and "failed" in message:
        raise RuntimeError(f"{sender} failed:\n{message['failed']}")
    return message


@dataclass(frozen=True)
class IdleTerms:
    """What the idle sockets' process is given: the load's settings (``api_load``'s
    arguments), the quiet tables' players, the load's server, the idle sockets' server and
    that server's process group (its memory and CPU are measured)."""

    settings: dict[str, Any]
    quiet_users: list[tuple[str, str]]
    base: str
    idle_base: str
    idle_pgid: int


class IdleSide:
    """The idle sockets' process (``idle_side``), from the load's process: started with
    multiprocessing's spawn, a daemon (it ends with the load's process whatever happens),
    and heard from within a deadline (``receive``)."""

    def __init__(self, terms: IdleTerms) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child_end = context.Pipe()
        self.process = context.Process(target=idle_side, args=(child_end, terms), daemon=True)
        self.process.start()
        child_end.close()  # the child holds its own copy: its death closes the pipe

    async def receive(self, seconds: float) -> Any:
        return await receive(self.conn, seconds, "the idle sockets' process", self.process)

    def send(self, message: Any) -> None:
        self.conn.send(message)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=10)


def idle_side(conn: Any, terms: IdleTerms) -> None:
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
    quiet_collector()
    try:
        stats = asyncio.run(idle_run(conn, terms))
    except BaseException:
        conn.send({"failed": traceback.format_exc()})  # the load's process raises it
        raise
    conn.send({name: getattr(stats, name) for name in IDLE_FIELDS})


async def idle_run(conn: Any, terms: IdleTerms) -> Stats:
    args = argparse.Namespace(**terms.settings)
    quiet_users, base, idle_pgid = terms.quiet_users, terms.base, terms.idle_pgid
    stats = Stats()
    idle: list[asyncio.Task[None]] = []
    idle_ws = terms.idle_base.replace("http", "ws", 1)
    quiet = await asyncio.wait_for(
        open_quiet_tables(quiet_users, -(-args.idle_sockets // 4), base, idle_ws, stats),
        OPEN_SECONDS,
    )
    # Warm-up: one table's sockets opened and closed, so what is loaded once per
    # process (the consumer's modules, the Redis subscriber) is not counted per socket.
    warm = [asyncio.create_task(idle_socket(p, quiet[0], stats)) for p in quiet[0].players]
    await until(
        lambda: stats.idle_opened + stats.idle_failed >= len(warm), OPEN_SECONDS, "warm-up sockets"
    )
    await asyncio.sleep(1)
    for task in warm:
        task.cancel()
    await asyncio.gather(*warm, return_exceptions=True)
    stats.idle_peak = stats.idle_opened = stats.idle_failed = stats.idle_closed = 0
    await asyncio.sleep(1)
    stats.idle_rss_before = group_rss_bytes(idle_pgid)
    for n in range(args.idle_sockets):
        table_, seat = quiet[n // 4], n % 4
        idle.append(asyncio.create_task(idle_socket(table_.players[seat], table_, stats)))
    # Each socket opened (even if the server has closed it since) or failed to.
    await until(
        lambda: stats.idle_opened + stats.idle_failed >= len(idle), OPEN_SECONDS, "idle sockets"
    )
    await asyncio.sleep(2)
    stats.idle_rss_rest = group_rss_bytes(idle_pgid)
    conn.send("open")
    duration = await receive(conn, ANSWER_SECONDS, "the load's process")
    hold_collector(args.client_gc)
    deadline = time.perf_counter() + duration
    stats.idle_cpu_start = group_cpu_seconds(idle_pgid)

    async def memory() -> None:  # the idle server's memory while the load runs
        while time.perf_counter() < deadline:
            await asyncio.sleep(1)
            stats.idle_rss_during.append(group_rss_bytes(idle_pgid))

    watcher = asyncio.create_task(memory())
    await trickle(quiet, args.idle_moves, stats, deadline, args.idle_moves_via)
    stats.idle_cpu_end = group_cpu_seconds(idle_pgid)
    release_collector()
    watcher.cancel()
    await asyncio.sleep(0.5)  # the last trickle frames
    for task in idle:
        task.cancel()
    await asyncio.gather(*idle, return_exceptions=True)
    return stats
