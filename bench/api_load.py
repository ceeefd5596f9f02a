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
(ANALYZE)`` on the database, as autovacuum would have on a site's (``--no-vacuum`` skips it);
on a young database (fewer than ``load_server.YOUNG_MOVES`` moves made, freshly migrated say)
an untimed load of ``WARM_UP_SECONDS`` comes first, so that the statistics the vacuum takes
are those of a site in use, not of empty tables (``load_server.young_database``).

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
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# The modules beside this one by their own names, whether it runs as a script (``bench/`` is
# then on ``sys.path``) or is imported as ``bench.api_load`` (bench/idle_sockets.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from idle_load import OPEN_SECONDS, IdleSide, IdleTerms, QuietTable, idle_socket
from load_client import (
    Http,
    Player,
    Stats,
    hold_collector,
    make_users,
    open_table,
    pct,
    quiet_collector,
    release_collector,
    table,
    until,
)
from load_server import (
    SERVER_OPTIONS,
    free_port,
    group_cpu_seconds,
    group_rss_bytes,
    run_within,
    server_env,
    sockets_per_worker,
    start_server,
    stop_server,
    vacuum,
    young_database,
)

# What the other benches import from here: bench/http_floor.py (``from api_load import
# …``) and bench/idle_sockets.py (``load.<name>``).
__all__ = [
    "OPEN_SECONDS",
    "SERVER_OPTIONS",
    "Http",
    "Player",
    "QuietTable",
    "Stats",
    "group_rss_bytes",
    "idle_socket",
    "main",
    "make_users",
    "open_table",
    "pct",
    "run",
    "server_env",
    "start_server",
    "stop_server",
    "until",
]


async def run(
    args: argparse.Namespace,
    base: str,
    users: list[tuple[str, str]],
    server_pgid: int = 0,
    idle: IdleSide | None = None,
) -> Stats:
    """The load on the busy tables; ``idle``: the idle sockets' process."""
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
    if idle is not None:  # its tables, its warm-up table's sockets, then its sockets
        await idle.receive(3 * OPEN_SECONDS)
        idle.send(args.duration)
    hold_collector(args.client_gc)
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
    release_collector()
    stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    watcher.cancel()
    lagger.cancel()
    if idle is not None:
        figures = await idle.receive(args.duration + OPEN_SECONDS)
        for name, value in figures.items():
            setattr(stats, name, value)
    return stats


def start_tail(stats: Stats, seconds: float = 2.0) -> dict[str, Any]:
    """The mover's tail without the load's first ``seconds``, when every socket connects at
    once: the p99 of the moves sent after them, and how many of the run's moves at or over
    its p99 were sent in them."""
    if not stats.post_latency:
        return {}
    first = min(stats.post_started)
    p99 = pct(stats.post_latency, 0.99) / 1000
    pairs = list(zip(stats.post_started, stats.post_latency, strict=True))
    later = [latency for sent, latency in pairs if sent - first >= seconds]
    return {
        "post_p99_after_start_ms": round(pct(later, 0.99), 1),
        "post_at_or_over_p99": sum(latency >= p99 for _sent, latency in pairs),
        "post_at_or_over_p99_at_start": sum(
            latency >= p99 for sent, latency in pairs if sent - first < seconds
        ),
    }


#: How long the untimed load on a young database lasts (``warm_up``).
WARM_UP_SECONDS = 10


def warm_up(args: argparse.Namespace) -> int:
    """An untimed load of ``WARM_UP_SECONDS`` of the same shape (clients, players, workers
    and the way moves are sent), in a run of this script of its own (its figures are not
    printed), before the timed run's vacuum. Returns its length."""
    cmd = [
        sys.executable, __file__, "--no-vacuum",
        "--clients", str(args.clients), "--players", str(args.players),
        "--workers", str(args.workers), "--via", args.via,
        "--duration", str(WARM_UP_SECONDS),
    ]  # fmt: skip
    run_within(cmd, WARM_UP_SECONDS + 600)
    return WARM_UP_SECONDS


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
    parser.add_argument(
        "--client-gc",
        choices=["hold", "policy"],
        default="hold",
        help="the bench's own client processes during the timed load: the collector held "
        "off (hold: its passes are not the server's latency) or the web processes' policy",
    )
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument(
        "--ws-url", help="with --url: where the sockets are served, if not at the same address"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so the servers are stopped too
    users = make_users(args.clients)
    quiet_users = make_users(4, prefix="bench-quiet-") if args.idle_sockets else []
    warmed_up = warm_up(args) if args.vacuum and not args.url and young_database() else 0
    autovacuum = vacuum() if args.vacuum else None
    quiet_collector()
    args.port = args.port or free_port()
    options = [*SERVER_OPTIONS, *args.server_option]
    proc = (
        None
        if args.url
        else start_server(args.port, args.workers, options=options, launcher=args.launcher)
    )
    base = args.url or f"http://127.0.0.1:{args.port}"
    idle_proc = None
    idle: IdleSide | None = None
    try:
        if args.idle_sockets:
            idle_port = free_port()
            idle_proc = start_server(idle_port, 1, options=options)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        rss_before = group_rss_bytes(proc.pid) if proc is not None else 0
        if idle_proc is not None:
            settings = {
                "idle_sockets": args.idle_sockets,
                "idle_moves": args.idle_moves,
                "idle_moves_via": args.idle_moves_via,
                "client_gc": args.client_gc,
            }
            idle_url = f"http://127.0.0.1:{idle_port}"
            idle = IdleSide(IdleTerms(settings, quiet_users, base, idle_url, idle_proc.pid))
        stats = asyncio.run(run(args, base, users, proc.pid if proc is not None else 0, idle))
        server_cpu = stats.cpu_end - stats.cpu_start
    finally:
        if idle is not None:
            idle.stop()
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
        "warm_up_seconds": warmed_up,  # an untimed load first: the database was young
        "seconds": round(elapsed, 1),
        "accepted_actions": stats.accepted,
        "actions_per_second": round(stats.accepted / elapsed, 1),
        "refused": stats.refused,
        "games_finished": stats.games_finished,
        "post_p50_ms": round(pct(stats.post_latency, 0.50), 1),
        "post_p99_ms": round(pct(stats.post_latency, 0.99), 1),
        **start_tail(stats),
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
            "idle_sockets_closed_by_server": stats.idle_closed,
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
