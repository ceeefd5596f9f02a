#!/usr/bin/env python3
"""This server beside a peer, back to back on the same machine (not a timed test).

Runs the boardgame.io peer of ``../shared/peers/bgio/`` (its server and its load client:
``--tables`` matches of four players, every seat bidding as soon as it may), then
``bench/api_load.py`` with the same shape (``--tables`` x 4 players, ``--via``), and prints
both figures and their ratio as one JSON document. The peer's folder is copied to a scratch
place and ``npm ci`` run there once (``../shared`` is read-only).

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/peers.py \\
        --tables 50 --duration 20 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ``../shared/peers/bgio`` beside the repository (or beside its worktrees' folder).
PEER = (
    next(
        (p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
        ROOT.parent / "shared",
    )
    / "peers"
    / "bgio"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(source: Path, scratch: Path) -> Path:
    """The peer's folder copied to ``scratch`` with its packages installed."""
    if not (scratch / "node_modules").is_dir():
        scratch.mkdir(parents=True, exist_ok=True)
        for item in source.iterdir():
            if item.is_file():
                shutil.copy2(item, scratch / item.name)
        subprocess.run(["npm", "ci", "--silent"], cwd=scratch, check=True)  # noqa: S607
    return scratch


def run_peer(folder: Path, tables: int) -> dict[str, object]:
    port = free_port()
    while True:  # the lobby listens on port + 1
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            break
        except OSError:
            port = free_port()
    server = subprocess.Popen(  # noqa: S603
        ["node", "server.js", str(port)],  # noqa: S607
        cwd=folder,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port + 1), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        out = subprocess.run(  # noqa: S603
            ["node", "load.js", str(port), str(tables)],  # noqa: S607
            cwd=folder,
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
        return dict(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        server.terminate()
        server.wait(timeout=10)


def run_ours(args: argparse.Namespace) -> dict[str, object]:
    cmd = [
        sys.executable, str(ROOT / "bench" / "api_load.py"),
        "--clients", str(args.tables * 4), "--players", "4",
        "--duration", str(args.duration), "--workers", str(args.workers), "--via", args.via,
    ]  # fmt: skip
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)  # noqa: S603
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--via", choices=["socket", "http"], default="socket")
    parser.add_argument("--peer", type=Path, default=PEER, help="the peer's folder")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "bgio-peer")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    folder = prepare(args.peer, args.scratch)
    peer = run_peer(folder, args.tables)
    ours = run_ours(args)
    peer_rate = float(peer["moves_per_second"])  # type: ignore[arg-type]
    our_rate = float(ours["actions_per_second"])  # type: ignore[arg-type]
    print(
        json.dumps(
            {
                "load_average_after": [round(x, 2) for x in os.getloadavg()],
                "tables": args.tables,
                "peer": peer,
                "ours": ours,
                "summary": {
                    "peer_moves_per_second": peer_rate,
                    "peer_p99_ms": peer["p99_ms"],
                    "our_moves_per_second": our_rate,
                    "our_mover_p99_ms": ours["post_p99_ms"],
                    "ours_over_peer": round(our_rate / peer_rate, 3) if peer_rate else None,
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
