"""The README's run command really serves the site with a worker and a scheduler.

Each test starts ``python3 dev.py run`` (the first Quick-start line) on a free port with its own
data folder, waits for /healthz, waits for the scheduler's heartbeat to have gone through the
broker and a worker (proving all three run), then presses Ctrl-C and checks everything stops.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get_json(url: str) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (localhost only)
            return json.loads(response.read())
    except OSError:
        return None


def run_site(tmp_path: Path, extra_env: dict[str, str], drop: set[str]) -> None:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in drop | {"DJANGO_ENV"}}
    environ.update(
        {"PORT": str(port), "DATA_DIR": str(tmp_path), "HEARTBEAT_SECONDS": "1", **extra_env}
    )
    log = (tmp_path / "run.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "dev.py"), "run"],
        cwd=ROOT,
        env=environ,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        health = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            health = get_json(f"http://127.0.0.1:{port}/healthz")
            if health and health.get("scheduler_heartbeat"):
                break
            assert proc.poll() is None, (tmp_path / "run.log").read_text()[-3000:]
            time.sleep(0.5)
        assert health is not None, (tmp_path / "run.log").read_text()[-3000:]
        assert health["ok"] is True
        assert health["scheduler_heartbeat"], "the scheduler's job never reached a worker"
        home = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
        assert "Colorado County" in home
        assert "Demo account: username 'demo'" in (tmp_path / "run.log").read_text()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        log.close()
    # Ctrl-C stopped every process of the session (web, worker, scheduler).
    time.sleep(1)
    leftover = subprocess.run(
        ["pgrep", "-s", str(proc.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    assert leftover == []


def test_run_command_embedded_mode(tmp_path: Path) -> None:
    run_site(tmp_path, {}, drop={"DATABASE_URL", "REDIS_URL"})


@pytest.mark.postgres
@pytest.mark.redis
def test_run_command_with_postgres_and_redis(tmp_path: Path) -> None:
    parts = urlsplit(os.environ["REDIS_URL"])
    redis_url = f"{parts.scheme}://{parts.netloc}/14"
    run_site(
        tmp_path,
        {
            "REDIS_URL": redis_url,
            "CHANNEL_PREFIX": f"runtest{os.getpid()}",
            "CACHE_PREFIX": f"runtest{os.getpid()}",
        },
        drop=set(),
    )
