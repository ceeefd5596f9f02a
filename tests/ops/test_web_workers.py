"""``colorado.web_workers``: several server processes on one port, each accepting from a
socket of its own, so a burst of connections is spread over them (``uvicorn --workers``
hands a burst mostly to one); a worker that dies comes back on the same socket while the
others keep serving, later each time it dies again soon after starting; SIGTERM stops them
all."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from colorado.web_workers import BALANCES, worker_cpus
from tests.servers import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not BALANCES, reason="SO_REUSEPORT balancing is Linux's")


async def burst(port: int, n: int) -> Counter[int]:
    """Open ``n`` connections at once, keep them all open, then ask each for its pid."""

    async def connect() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", port)

    conns = await asyncio.gather(*(connect() for _ in range(n)))
    pids: Counter[int] = Counter()
    for reader, writer in conns:
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        body = (await reader.read()).split(b"\r\n\r\n", 1)[1]
        pids[int(body)] += 1
        writer.close()
    return pids


def pids_answering(port: int) -> Counter[int]:
    return asyncio.run(burst(port, 1))


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    def answering() -> bool:
        assert proc.poll() is None, "the supervisor exited"
        try:
            pids_answering(port)
        except OSError:
            return False
        return True

    wait_until(answering, message="the workers did not answer")


def command(port: int, *extra: str) -> list[str]:
    """The supervisor with two workers of the pid-answering test app on ``port``."""
    return [
        sys.executable, "-m", "colorado.web_workers", "tests.ops.pid_app:app",
        "--port", str(port), "--workers", "2", "--lifespan", "off",
        "--log-level", "warning", "--no-access-log", *extra,
    ]  # fmt: skip


def kill_and_wait_back(port: int, victim: int) -> set[int]:
    """Kill the worker ``victim`` and wait until two workers answer again, it not among
    them; returns their pids."""
    os.kill(victim, signal.SIGKILL)
    seen: set[int] = set()

    def both_back() -> bool:
        nonlocal seen
        try:
            seen = set(asyncio.run(burst(port, 40)))
        except OSError:  # the dead worker's connections waiting at the kill
            return False
        return len(seen) == 2 and victim not in seen

    wait_until(both_back, message=lambda: f"the dead worker was not started again: {seen}")
    return seen


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """The supervisor on a free port, its messages in a file."""
    port = free_port()
    log = tmp_path / "supervisor.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command(port), cwd=ROOT, start_new_session=True, stderr=out)
    try:
        wait_up(port, proc)
        yield port, proc, log
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_burst_of_connections_is_spread_over_the_workers(
    served: tuple[int, subprocess.Popen[bytes], Path],
) -> None:
    port, _, _ = served
    for _ in range(3):  # uvicorn --workers split such bursts 92/108, 44/156 and 78/122
        pids = asyncio.run(burst(port, 200))
        assert len(pids) == 2
        assert min(pids.values()) >= 65, pids  # a fair coin's 200 tosses: 100 +- 5 sigma


def test_a_worker_that_dies_comes_back_and_sigterm_stops_all(
    served: tuple[int, subprocess.Popen[bytes], Path],
) -> None:
    port, proc, log = served
    seen = set(asyncio.run(burst(port, 40)))
    assert len(seen) == 2
    # Killed twice in a row, soon after its start: the second wait is twice the first, so
    # a worker that cannot start does not spin.
    victims = []
    for _ in range(2):
        victim = max(seen)  # the restarted worker has the newer pid
        victims.append(victim)
        seen = kill_and_wait_back(port, victim)
    said = [line for line in log.read_text().splitlines() if "starting it again" in line]
    assert len(said) == 2, said
    assert f"(pid {victims[0]}) exited; starting it again in 1 s" in said[0]
    assert f"(pid {victims[1]}) exited; starting it again in 2 s" in said[1]
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    for pid in seen:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_stopping_the_whole_process_group_starts_no_worker_again() -> None:
    """A terminal's Ctrl-C or a process manager signals the whole group: the workers and the
    supervisor stop together. The supervisor must not take its workers' exit for a crash
    (it said "exited; starting it again" on its way out, on the bench's standard output)."""
    for _ in range(3):
        port = free_port()
        proc = subprocess.Popen(
            command(port),
            cwd=ROOT,
            start_new_session=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            wait_up(port, proc)
            os.killpg(proc.pid, signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        assert proc.returncode == 0
        assert b"starting it again" not in out + err, (out + err).decode()


@pytest.mark.parametrize(
    ("workers", "allowed", "expected"),
    [
        (2, {0, 1}, [0, 1]),
        (2, {7, 4}, [4, 7]),  # the processors a cpuset or taskset leaves, in order
        (4, {0, 1, 2, 3}, [0, 1, 2, 3]),
        (2, {0, 1, 2, 3}, [None, None]),  # fewer workers than processors: the scheduler's
        (3, {0, 1}, [None, None, None]),  # more: two would share one processor for good
        (1, {0}, [None]),
    ],
)
def test_each_worker_keeps_to_a_processor_only_with_one_worker_per_processor(
    workers: int, allowed: set[int], expected: list[int | None]
) -> None:
    assert worker_cpus(workers, allowed) == expected


def two_processors() -> set[int]:
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        pytest.skip("needs two processors")
    return set(allowed[:2])


def processors_of(pids: set[int]) -> dict[int, set[int]]:
    return {pid: os.sched_getaffinity(pid) for pid in pids}


@pytest.mark.parametrize("affinity", ["auto", "none"])
def test_two_workers_on_two_processors_each_keep_to_their_own_even_after_a_restart(
    affinity: str,
) -> None:
    cpus = two_processors()
    port = free_port()
    own = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)  # this thread's, which the supervisor inherits
    try:
        proc = subprocess.Popen(
            command(port, "--cpu-affinity", affinity), cwd=ROOT, start_new_session=True
        )
    finally:
        os.sched_setaffinity(0, own)
    try:
        wait_up(port, proc)
        pids = set(asyncio.run(burst(port, 40)))
        assert len(pids) == 2
        kept = processors_of(pids)
        if affinity == "none":
            assert list(kept.values()) == [cpus, cpus]
            return
        assert sorted(map(sorted, kept.values())) == [[c] for c in sorted(cpus)], kept
        victim = max(pids)
        (newcomer,) = kill_and_wait_back(port, victim) - set(kept)
        assert os.sched_getaffinity(newcomer) == kept[victim]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_worker_whose_processor_is_gone_serves_all_the_same(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A processor number the worker may not use (a cpuset changed between the supervisor's
    choice and the worker's start) is reported, not fatal: the worker starts its server
    anyway (uvicorn's server stood in for: only whether it is started matters)."""
    import uvicorn

    from colorado import web_workers

    missing = max(os.sched_getaffinity(0)) + 4096
    started: list[object] = []

    class Server:
        def __init__(self, config: object) -> None:
            self.config = config

        def run(self, sockets: list[object]) -> None:
            started.append(sockets)

    monkeypatch.setattr(uvicorn, "Server", Server)
    with socket.socket() as sock:
        web_workers.serve({"app": "tests.ops.pid_app:app"}, sock, missing)
        assert started == [[sock]]
    assert f"web worker not kept on processor {missing}" in capfd.readouterr().err
