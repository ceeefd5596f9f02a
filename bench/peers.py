#!/usr/bin/env python3
"""This server beside a peer, back to back on the same machine (not a timed test).

Runs the boardgame.io peer of ``../shared/peers/bgio/`` (its server and its load client:
``--tables`` matches of four players, every seat bidding as soon as it may), then
``bench/api_load.py`` with the same shape (``--tables`` x 4 players, ``--via``), and prints
both figures and their ratio as one JSON document. The peer's folder is copied to a scratch
place and ``npm ci`` run there once (``../shared`` is read-only).

With ``--targets`` one run measures every target of docs/benchmarks.md ("Targets") beside
the peer: the peer, then ours over the socket, over HTTP and beside ``--idle-sockets`` idle
sockets in a third server process, then the peer again (the two peer rows bracket the
machine's speed during the run). It prints each run's figures, each
target with its figure and whether it is met, and exits 0 either way. Every step has a
deadline: a run of ours that fails or overruns is printed as its error, its targets not met.

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/peers.py \\
        --tables 50 --duration 20 --workers 2 [--targets]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load_server import run_within, stop_server  # noqa: E402 (bench/ on the path first)

#: The longest the peer's ``npm ci``, or one run of its load client, may take.
PEER_SECONDS = 600
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
        subprocess.run(
            ["npm", "ci", "--silent"],  # noqa: S607
            cwd=scratch,
            check=True,
            timeout=PEER_SECONDS,
        )
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
        while True:
            try:
                socket.create_connection(("127.0.0.1", port + 1), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the peer's server did not listen in 30 s") from None
                time.sleep(0.2)
        out = subprocess.run(  # noqa: S603
            ["node", "load.js", str(port), str(tables)],  # noqa: S607
            cwd=folder,
            check=True,
            capture_output=True,
            text=True,
            timeout=PEER_SECONDS,
        )
        return dict(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        stop_server(server)  # its own session: the whole group stops


def run_ours(args: argparse.Namespace, via: str, idle_sockets: int = 0) -> dict[str, Any]:
    cmd = [
        sys.executable, str(ROOT / "bench" / "api_load.py"),
        "--clients", str(args.tables * 4), "--players", "4",
        "--duration", str(args.duration), "--workers", str(args.workers), "--via", via,
    ]  # fmt: skip
    if idle_sockets:
        cmd += ["--idle-sockets", str(idle_sockets)]
    # The warm-up, the vacuum, the servers' start, the idle side's tables and sockets (each
    # step with its own deadline in api_load.py), the load: well within this.
    return dict(json.loads(run_within(cmd, 1800 + 2 * args.duration, capture=True)))


def run_or_error(args: argparse.Namespace, via: str, idle_sockets: int = 0) -> dict[str, Any]:
    """``run_ours``, or what went wrong (its errors are on the standard error already)."""
    try:
        return run_ours(args, via, idle_sockets)
    except (subprocess.SubprocessError, ValueError) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


# docs/benchmarks.md, "Targets" (issue 17): (name, run, key, bound, below).
TARGETS = [
    ("socket: accepted moves a second", "socket", "actions_per_second", 200.0, False),
    ("socket: the mover's p99 (ms)", "socket", "post_p99_ms", 300.0, True),
    ("http: accepted moves a second", "http", "actions_per_second", 120.0, False),
    ("idle sockets: memory per socket (KB)", "idle", "server_kb_per_idle_socket", 50.0, True),
    ("idle sockets: commit-to-frame p99 (ms)", "idle", "idle_p99_ms", 100.0, True),
    ("goal: socket, accepted moves a second", "socket", "actions_per_second", 300.0, False),
    ("goal: socket, the mover's p99 (ms)", "socket", "post_p99_ms", 150.0, True),
]


def verdicts(runs: dict[str, dict[str, Any]], idle_sockets: int) -> list[dict[str, Any]]:
    """Each target of ``TARGETS`` with its figure from ``runs`` and whether it is met."""
    out = []
    for name, run, key, bound, below in TARGETS:
        value = runs[run].get(key)
        met = isinstance(value, int | float) and (value < bound if below else value >= bound)
        if run == "idle" and runs[run].get("idle_sockets_open_at_once", 0) < idle_sockets:
            met = False  # not every idle socket was held
        out.append({"target": name, "bound": bound, "value": value, "met": met})
    return out


def summary(peer: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    peer_rate = float(peer["moves_per_second"])
    our_rate = ours.get("actions_per_second")
    return {
        "peer_moves_per_second": peer_rate,
        "peer_p99_ms": peer["p99_ms"],
        "our_moves_per_second": our_rate,
        "our_mover_p99_ms": ours.get("post_p99_ms"),
        "ours_over_peer": round(our_rate / peer_rate, 3) if peer_rate and our_rate else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--via", choices=["socket", "http"], default="socket")
    parser.add_argument("--peer", type=Path, default=PEER, help="the peer's folder")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "bgio-peer")
    parser.add_argument(
        "--targets",
        action="store_true",
        help="measure every target in this one run: the peer, ours over the socket, over "
        "HTTP and beside --idle-sockets idle sockets, the peer again; print the verdicts",
    )
    parser.add_argument("--idle-sockets", type=int, default=2000, help="with --targets")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL.")
    folder = prepare(args.peer, args.scratch)
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    peer = run_peer(folder, args.tables)
    if not args.targets:
        ours = run_ours(args, args.via)
        report: dict[str, Any] = {"peer": peer, "ours": ours, "summary": summary(peer, ours)}
    else:
        runs = {
            "socket": run_or_error(args, "socket"),
            "http": run_or_error(args, "http"),
            "idle": run_or_error(args, "socket", idle_sockets=args.idle_sockets),
        }
        peer_after = run_peer(folder, args.tables)
        report = {
            "peer": peer,
            "ours": runs["socket"],
            "ours_http": runs["http"],
            "ours_beside_idle_sockets": runs["idle"],
            "peer_after": peer_after,
            "summary": summary(peer, runs["socket"])
            | {"peer_after_moves_per_second": peer_after["moves_per_second"]},
            "targets": verdicts(runs, args.idle_sockets),
        }
    report = {
        "started": started,
        "machine": machine(),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "tables": args.tables,
        **report,
    }
    print(json.dumps(report, indent=2))


def machine() -> str:
    """The processor's model and count, for the record."""
    model = platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


if __name__ == "__main__":
    main()
