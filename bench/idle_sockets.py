#!/usr/bin/env python3
"""Memory per listening socket of ONE server process, with no load (not a timed test).

Starts ``uvicorn colorado.asgi:application --workers 1`` (``--ws`` picks uvicorn's WebSocket
implementation), opens one four-seat table, then ``--sockets`` sockets on it (20
handshakes at a time, another tab of each player's), and prints the server's resident
memory before and 2 s after the last one opened, and the growth per socket. With the load
running beside them: ``api_load.py --workers 1 --idle-sockets N``.

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/idle_sockets.py \\
        --sockets 2000 --ws websockets
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import api_load as load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument(
        "--ws", default="auto", choices=["auto", "websockets", "websockets-sansio", "wsproto"]
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    users = load.make_users(4)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = load.server_env()  # the site's per-account caps out of the way (load_server.BENCH_CAPS)
    cmd = [
        sys.executable, "-m", "uvicorn", "colorado.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--workers", "1", "--log-level", "warning", "--no-access-log",
        "--ws", args.ws, *load.SERVER_OPTIONS,
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)  # noqa: S603
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):  # noqa: S310
                break
        except OSError:
            if time.monotonic() > deadline:
                os.killpg(proc.pid, signal.SIGTERM)
                sys.exit("the server did not start in 60 s")
            time.sleep(0.3)

    async def run() -> dict[str, object]:
        stats = load.Stats()
        ws_base = base.replace("http", "ws", 1)
        players = [load.Player(i, t, u, base, ws_base, stats) for i, (u, t) in enumerate(users)]
        table = load.QuietTable(await load.open_table(players, 4), players)
        await asyncio.sleep(1)
        before = load.group_rss_bytes(proc.pid)
        tasks = [
            asyncio.create_task(load.idle_socket(players[i % 4], table, stats))
            for i in range(args.sockets)
        ]
        await load.until(
            lambda: stats.idle_opened + stats.idle_failed >= args.sockets,
            load.OPEN_SECONDS,
            "the sockets to open",
        )
        await asyncio.sleep(2)
        after = load.group_rss_bytes(proc.pid)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "ws": args.ws,
            "sockets_open": stats.idle_peak,
            "failed": stats.idle_failed,
            "closed_by_server": stats.idle_closed,
            "server_rss_mb_before": round(before / 2**20, 1),
            "server_rss_mb_after": round(after / 2**20, 1),
            "server_kb_per_socket": round((after - before) / 1024 / max(1, stats.idle_peak), 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }

    try:
        print(json.dumps(asyncio.run(run()), indent=2))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
