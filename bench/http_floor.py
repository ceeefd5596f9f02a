#!/usr/bin/env python3
"""The floor under every API figure: how many plain requests per second the server answers.

Starts the same server as ``bench/api_load.py`` (``uvicorn colorado.asgi:application`` with
``--workers``) and has ``--clients`` keep-alive connections GET ``--path`` (default
``/healthz``: one ``SELECT 1`` and one cache read, through the whole middleware stack) as
fast as they can for ``--duration`` seconds. Prints requests per second and latency
p50/p99. A move costs at least this much, plus its own work and its socket frames.
``--app bench.floor_apps:bare`` (no framework) or ``bench.floor_apps:django`` (Django with
no middleware and no database) measure the floor under the site itself.

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/http_floor.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import sys
import time

from api_load import Http, pct, start_server, stop_server


async def hammer(base: str, path: str, clients: int, duration: float) -> list[float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + duration

    async def client() -> None:
        http = Http(base, token="")
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            status, _body = await http.request("GET", path)
            if status != 200:
                raise RuntimeError(f"{path} answered {status}")
            latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(client() for _ in range(clients)))
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--app",
        default="colorado.asgi:application",
        help="the ASGI app to serve; bench.floor_apps:bare or bench.floor_apps:django for "
        "the floor without the site",
    )
    args = parser.parse_args()
    site = args.app == "colorado.asgi:application"
    if site and (not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL")):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = start_server(port, args.workers, app=args.app, probe=args.path)
    try:
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        latencies = asyncio.run(
            hammer(f"http://127.0.0.1:{port}", args.path, args.clients, args.duration)
        )
    finally:
        stop_server(proc)
    result = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "app": args.app,
        "path": args.path,
        "clients": args.clients,
        "server_workers": args.workers,
        "requests_per_second": round(len(latencies) / args.duration, 1),
        "p50_ms": round(pct(latencies, 0.50), 1),
        "p99_ms": round(pct(latencies, 0.99), 1),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
