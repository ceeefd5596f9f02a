"""Several uvicorn server processes on one port, each with a listening socket of its own
(``SO_REUSEPORT``), so the kernel spreads new connections evenly over them.

``uvicorn --workers N`` binds one socket in its supervisor and lets every worker accept
from it. An event loop that wakes up accepts every connection waiting (libuv and asyncio
both accept until the queue is empty), so a burst of connections — every player's socket
reconnecting after a restart, or a benchmark starting — lands mostly on whichever worker
woke first, and a WebSocket stays where it landed for hours. Measured on a 2-core machine:
200 sockets opened at once split 123 / 77 between two workers (docs/benchmarks/history.md). With a
socket per worker and ``SO_REUSEPORT``, Linux picks the worker by a hash of the connection's
addresses, so the split is even whatever the timing.

With as many workers as processors it may use, the supervisor keeps each worker on a
processor of its own (``--cpu-affinity auto``, the default; ``none`` leaves them to the
scheduler): ``worker_cpus``.

Usage (the options are uvicorn's, of those the project uses, and ``--cpu-affinity``)::

    python -m colorado.web_workers colorado.asgi:application --host 127.0.0.1 --port 8000 \\
        --workers 2 --lifespan off --log-level warning --no-access-log \\
        --no-proxy-headers --ws-per-message-deflate false --ws-max-size 16384 \\
        --timeout-keep-alive 5 --http colorado.slow_clients:GuardedHttpToolsProtocol

The supervisor binds the sockets and keeps them, so connections that arrive while a worker
starts wait for it; a worker that dies is started again on the same socket (later each time
it dies again soon after starting); SIGINT or SIGTERM stops them all. Where the platform
has no ``SO_REUSEPORT`` (or does not balance with it), the workers share one socket, as with
``uvicorn --workers``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Collection
from typing import Any

BALANCES = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
RESTART_PAUSE = 1.0
"""Seconds before a dead worker starts again; doubled (up to ``MAX_PAUSE``) while it keeps
dying within ``STEADY`` seconds of its start."""
MAX_PAUSE = 30.0
STEADY = 10.0


def listening_socket(host: str, port: int, *, reuse_port: bool) -> socket.socket:
    """A bound, listening TCP socket (``reuse_port``: one of several on the same port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m colorado.web_workers")
    parser.add_argument("app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ws-per-message-deflate", choices=["true", "false"], default="true")
    parser.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="uvicorn's: rewrite the client address from X-Forwarded-For (the site says no)",
    )
    parser.add_argument("--ws-max-size", type=int, default=16 * 1024 * 1024)
    parser.add_argument("--timeout-keep-alive", type=int, default=5)
    parser.add_argument("--http", default="auto")
    parser.add_argument("--lifespan", choices=["auto", "on", "off"], default="auto")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", action="store_true")
    parser.add_argument(
        "--cpu-affinity",
        choices=["auto", "none"],
        default="auto",
        help="auto: with one worker per processor, keep each worker on its own (worker_cpus)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    return args


def uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "app": args.app,
        "host": args.host,
        "port": args.port,
        "ws_per_message_deflate": args.ws_per_message_deflate == "true",
        "proxy_headers": args.proxy_headers,
        "ws_max_size": args.ws_max_size,
        "timeout_keep_alive": args.timeout_keep_alive,
        "http": args.http,
        "lifespan": args.lifespan,
        "log_level": args.log_level,
        "access_log": not args.no_access_log,
    }


def worker_cpus(workers: int, allowed: Collection[int] | None = None) -> list[int | None]:
    """The processor each worker is kept on (``--cpu-affinity auto``): with one worker per
    processor this process may use (``allowed``, default its own affinity), worker n on the
    n-th; otherwise anywhere (``None`` each).

    Each worker runs its Python on one core at a time (the interpreter lock). Left to the
    scheduler, two workers at times shared one core of the two while the other ran
    PostgreSQL and the bench client: on the two-core bench machine, a worker per core moved
    more with a lower p99, over the socket and over HTTP (docs/benchmarks/history.md, "Tenth
    pass")."""
    if allowed is None:
        allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ()
    cpus = sorted(allowed)
    if workers < 2 or len(cpus) != workers:
        return [None] * workers
    return list(cpus)


def serve(options: dict[str, Any], sock: socket.socket, cpu: int | None = None) -> None:
    """One worker: a uvicorn server accepting from ``sock`` (on the processor ``cpu`` only,
    when given: ``worker_cpus``)."""
    import uvicorn

    if cpu is not None:
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError as exc:  # the processor was taken away meanwhile (a cpuset changed)
            print(f"web worker not kept on processor {cpu}: {exc}", file=sys.stderr, flush=True)

    uvicorn.Server(uvicorn.Config(**options)).run(sockets=[sock])


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    options = uvicorn_options(args)
    # The supervisor binds every worker's socket and keeps it: a taken port fails at once,
    # connections that arrive while a worker starts (or starts again) wait in its socket's
    # queue instead of being refused, and a worker started again takes the same socket.
    if BALANCES:
        sockets = [
            listening_socket(args.host, args.port, reuse_port=True) for _ in range(args.workers)
        ]
    else:
        sockets = [listening_socket(args.host, args.port, reuse_port=False)] * args.workers
    context = multiprocessing.get_context("spawn")
    stopping = False

    cpus = worker_cpus(args.workers) if args.cpu_affinity == "auto" else [None] * args.workers

    def start(n: int) -> Any:
        proc = context.Process(
            target=serve, args=(options, sockets[n], cpus[n]), name=f"web-worker-{n}"
        )
        proc.start()
        return proc

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    workers = [start(n) for n in range(args.workers)]
    started = [time.monotonic()] * args.workers
    pauses = [RESTART_PAUSE / 2] * args.workers
    due: list[float | None] = [None] * args.workers  # when a dead worker starts again
    while not stopping:
        time.sleep(0.2)
        if stopping:  # the signal may have reached the workers too: they did not crash
            break
        now = time.monotonic()
        for n, proc in enumerate(workers):
            when = due[n]
            if when is None and not proc.is_alive():
                # A worker that dies soon after starting waits twice as long each time, so
                # one that cannot start does not spin; one that ran a while comes back at once.
                lived = now - started[n]
                pauses[n] = RESTART_PAUSE if lived > STEADY else min(pauses[n] * 2, MAX_PAUSE)
                due[n] = now + pauses[n]
                print(
                    f"web worker {n} (pid {proc.pid}) exited; starting it again in {pauses[n]:g} s",
                    file=sys.stderr,
                    flush=True,
                )
            elif when is not None and now >= when:
                workers[n], started[n], due[n] = start(n), now, None
    for proc in workers:
        if proc.is_alive() and proc.pid is not None:
            os.kill(proc.pid, signal.SIGTERM)
    for proc in workers:
        proc.join(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
