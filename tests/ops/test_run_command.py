"""The README's run command really serves the site with a worker and a scheduler.

Each test starts ``python3 dev.py run`` (the first Quick-start line) on a free port with its own
data folder, waits for /healthz, waits for the scheduler's heartbeat to have gone through the
broker and a worker (proving all three run), then presses Ctrl-C and checks everything stops.
With PostgreSQL and Redis, a worker killed with ``kill -9`` comes back while the site stays
up, and SIGTERM stops every part. Those runs migrate a scratch database of their own, never
the pytest database.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from colorado.web_workers import worker_cpus
from tests.servers import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def get_json(url: str) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (localhost only)
            return json.loads(response.read())
    except OSError:
        return None


def environment(tmp_path: Path, extra_env: dict[str, str], drop: set[str]) -> dict[str, str]:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in drop | {"DJANGO_ENV"}}
    environ.update(
        {"PORT": str(port), "DATA_DIR": str(tmp_path), "HEARTBEAT_SECONDS": "1", **extra_env}
    )
    return environ


def start(tmp_path: Path, environ: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    """``python3 dev.py run`` in a session of its own, its output in run.log."""
    log_path = tmp_path / "run.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "dev.py"), "run"],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return proc, log_path


def wait_for_heartbeat(
    proc: subprocess.Popen[bytes], log_path: Path, port: str, *, after: datetime | None = None
) -> dict[str, object]:
    """/healthz once the scheduler's heartbeat went through the broker and a worker (later
    than ``after``, an ISO time, when given)."""
    health = None

    def beating() -> dict[str, object] | None:
        nonlocal health
        health = get_json(f"http://127.0.0.1:{port}/healthz")
        stamp = (health or {}).get("scheduler_heartbeat")
        if stamp and (after is None or datetime.fromisoformat(str(stamp)) > after):
            return health
        assert proc.poll() is None, log_path.read_text()[-3000:]
        return None

    return wait_until(
        beating,
        timeout=120,
        interval=0.5,
        message=lambda: f"no heartbeat after {after}: {health}\n{log_path.read_text()[-3000:]}",
    )


def session_processes(proc: subprocess.Popen[bytes]) -> list[str]:
    """The pids still running in the session ``dev.py run`` was started in (it and its
    parts). A zombie is not counted: it has exited, and waits only for PID 1 to reap it (a
    part's child killed after its parent had gone is reparented to PID 1, which in some
    containers reaps late: CI once saw such a zombie a second after the stop)."""
    pids = subprocess.run(
        ["pgrep", "-s", str(proc.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    if not pids:
        return []
    states = subprocess.run(
        ["ps", "-o", "pid=,stat=", "-p", ",".join(pids)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split("\n")
    return [
        pid for pid, stat in (line.split() for line in states if line.strip()) if "Z" not in stat
    ]


def stop(proc: subprocess.Popen[bytes], signum: int) -> None:
    proc.send_signal(signum)
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise


def run_site(
    tmp_path: Path,
    extra_env: dict[str, str],
    drop: set[str],
    signum: int = signal.SIGINT,
    while_up: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> None:
    environ = environment(tmp_path, extra_env, drop)
    proc, log_path = start(tmp_path, environ)
    try:
        health = wait_for_heartbeat(proc, log_path, environ["PORT"])
        assert health["ok"] is True
        if while_up is not None:
            while_up(proc)
        home = urllib.request.urlopen(f"http://127.0.0.1:{environ['PORT']}/", timeout=5)
        assert "Colorado County" in home.read().decode()
        assert "Demo account: username 'demo'" in log_path.read_text()
    finally:
        stop(proc, signum)
    # Ctrl-C (or SIGTERM) stopped every process of the session (web, worker, scheduler).
    all_gone(proc)


def all_gone(proc: subprocess.Popen[bytes]) -> None:
    """Wait until no process of ``dev.py run``'s session is left (one that has exited may
    take a moment to be reaped)."""
    wait_until(
        lambda: session_processes(proc) == [],
        timeout=10,
        message=lambda: f"processes left in the session: {session_processes(proc)}",
    )


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_run_command_embedded_mode(tmp_path: Path, signum: int) -> None:
    run_site(tmp_path, {}, drop={"DATABASE_URL", "REDIS_URL"}, signum=signum)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize("web_workers", ["1", "2"])
def test_run_command_with_postgres_and_redis(
    tmp_path: Path, services_env, web_workers: str
) -> None:
    """With ``WEB_WORKERS=2`` the site is served by two processes (colorado.web_workers),
    which stop with the rest; on a two-processor machine each keeps to a processor of its
    own (``WEB_CPU_AFFINITY`` unset: ``auto``)."""

    def web_processes(proc: subprocess.Popen[bytes]) -> None:
        found = subprocess.run(
            ["pgrep", "-s", str(proc.pid), "-f", "colorado.web_workers"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        if web_workers == "1":
            assert found == []
            return
        (supervisor,) = found
        workers = subprocess.run(  # its spawned children, not multiprocessing's resource tracker
            ["pgrep", "-P", supervisor, "-f", "spawn_main"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        assert len(workers) == 2
        kept = sorted(tuple(sorted(os.sched_getaffinity(int(pid)))) for pid in workers)
        expected = worker_cpus(2)
        if expected == [None, None]:  # not a two-processor machine: left to the scheduler
            assert kept == [tuple(sorted(os.sched_getaffinity(0)))] * 2
        else:
            assert kept == [(cpu,) for cpu in expected], kept

    run_site(
        tmp_path,
        {**services_env, "WEB_WORKERS": web_workers},
        drop=set(),
        while_up=web_processes,
    )


def worker_pids(proc: subprocess.Popen[bytes]) -> list[str]:
    """The celery worker processes ``dev.py run`` started (its children, not their pool)."""
    found = subprocess.run(
        ["pgrep", "-P", str(proc.pid), "-f", "celery -A colorado worker"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.split()


def kill_and_wait_for_a_new_worker(
    proc: subprocess.Popen[bytes], log_path: Path, port: str
) -> tuple[str, float]:
    """``kill -9`` the worker; the new worker's pid and how long it took to appear, the site
    answering all along."""
    (worker,) = worker_pids(proc)
    killed_at = time.monotonic()
    os.kill(int(worker), signal.SIGKILL)

    def new_worker() -> list[str]:
        health = get_json(f"http://127.0.0.1:{port}/healthz")
        assert health is not None, "the site went down with the worker"
        assert health["ok"] is True
        return [pid for pid in worker_pids(proc) if pid != worker]

    (pid,) = wait_until(
        new_worker, interval=0.2, message=lambda: f"no new worker\n{log_path.read_text()[-3000:]}"
    )
    return pid, time.monotonic() - killed_at


@pytest.mark.postgres
@pytest.mark.redis
def test_a_killed_worker_is_restarted_while_the_site_stays_up(tmp_path: Path, services_env):
    environ = environment(tmp_path, services_env, drop=set())
    port = environ["PORT"]
    proc, log_path = start(tmp_path, environ)
    try:
        wait_for_heartbeat(proc, log_path, port)
        first, took = kill_and_wait_for_a_new_worker(proc, log_path, port)
        print(f"a new worker after {took:.1f} s")
        log = log_path.read_text()
        assert "[dev] celery worker exited with code -9; restarting it in 1 s" in log
        assert f"[dev] celery worker started again (pid {first})" in log
        # Dying again at once doubles the wait, so a part that cannot start does not spin.
        second, took = kill_and_wait_for_a_new_worker(proc, log_path, port)
        print(f"a new worker after {took:.1f} s")
        assert took >= 2
        log = log_path.read_text()
        assert "[dev] celery worker exited with code -9; restarting it in 2 s" in log
        assert f"[dev] celery worker started again (pid {second})" in log
        # The new worker does the work: a heartbeat later than the restart reaches the site.
        restarted = datetime.now(UTC)
        wait_for_heartbeat(proc, log_path, port, after=restarted)
        assert worker_pids(proc) == [second]
    finally:
        stop(proc, signal.SIGTERM)
    assert proc.returncode == 0
    assert "[dev] stopping" in log_path.read_text()
    all_gone(proc)  # web, worker, beat and the worker's pool


def _dev_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_web_cpu_affinity_reaches_the_workers_supervisor_and_a_wrong_value_stops_the_run() -> None:
    dev = _dev_module()
    assert dev.web_server({"WEB_WORKERS": "1", "WEB_CPU_AFFINITY": "none"})[-1].endswith("uvicorn")
    default = dev.web_server({"WEB_WORKERS": "2"})
    assert default[-2:] == ["--cpu-affinity", "auto"]
    assert dev.web_server({"WEB_WORKERS": "2", "WEB_CPU_AFFINITY": "None "})[-1] == "none"
    with pytest.raises(SystemExit, match="WEB_CPU_AFFINITY must be auto or none"):
        dev.web_server({"WEB_WORKERS": "2", "WEB_CPU_AFFINITY": "0-1"})


def test_the_test_command_spreads_the_suite_over_two_workers_a_processor() -> None:
    """``dev.py test`` starts two xdist workers per processor unless told otherwise; a
    number, ``0`` or the caller's own ``-n`` or ``-p no:xdist`` wins."""
    dev = _dev_module()
    cores = os.cpu_count() or 1
    assert dev.parallel_args([], {}) == ["-n", str(2 * cores), "--dist", "loadgroup"]
    assert dev.parallel_args([], {"TEST_WORKERS": "3"})[:2] == ["-n", "3"]
    assert dev.parallel_args([], {"TEST_WORKERS": "0"}) == []
    assert dev.parallel_args(["-n", "1"], {}) == []
    assert dev.parallel_args(["-p", "no:xdist"], {}) == []
    with pytest.raises(SystemExit, match="TEST_WORKERS must be"):
        dev.parallel_args([], {"TEST_WORKERS": "many"})
