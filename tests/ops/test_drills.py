"""Fault drills: bots keep playing through a killed worker, a Redis restart and a PostgreSQL
restart.

Everything runs as in production, each drill on servers of its own so nothing shared is
ever restarted: a private PostgreSQL cluster (``initdb`` in a temporary folder, one for the
module), a private ``redis-server`` on a free port (one per drill), and ``celery -A colorado
worker`` and ``celery -A colorado beat`` subprocesses pointed at them. The "web" part is
``games.tables.lifecycle.game_create`` run in a subprocess against the same database: all-bot
tables, which only the worker moves. The sweep runs every ``SWEEP_SECONDS=2`` and a bot is
stalled after ``BOT_STALL_SECONDS=3``.

What is checked is what a player would see: after the fault, every table moves again within
the grace period and a sweep (plus the time to reconnect), and the worker is still running.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.fixtures import _missing
from tests.games.live import ROOT
from tests.games.outage import PrivateRedis, private_redis
from tests.servers import free_port
from tests.waiting import wait_until

# One worker runs the drills one after another: they share the module's PostgreSQL cluster,
# and each keeps both processors busy (a worker, beat, the servers).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.xdist_group("fault-drills")]

PG_BIN = Path("/usr/lib/postgresql/15/bin")
CELERY = Path(sys.executable).with_name("celery")
SWEEP_SECONDS = 2
BOT_STALL_SECONDS = 3
TABLES = 4
#: A worker that starts (about 5 s on a busy machine), the grace period, a sweep, and room
#: for a loaded machine: every table must have moved again within this after the fault.
RECOVERY_SECONDS = 45


def _need(path: Path) -> None:
    if not path.exists():
        _missing(f"the fault drills need {path}")


# --- private servers ----------------------------------------------------------------------


@dataclass
class Postgres:
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/drill"

    def ctl(self, *args: str) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-l",
                str(self.folder / "server.log"),
                *args,
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=60"
        )
        self.ctl("-w", "-o", options, "start")

    def query(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        import psycopg

        with psycopg.connect(
            self.url.replace("postgres://", "postgresql://"), autocommit=True
        ) as c:
            return c.execute(sql, params).fetchall()


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of our own, migrated, stopped and removed at the end."""
    _need(PG_BIN / "initdb")
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        _missing("the PostgreSQL drill runs initdb as user postgres: it needs root and runuser")
    folder = Path(tempfile.mkdtemp(prefix="heal-drill-pg-"))
    owner = pwd.getpwnam("postgres")
    os.chown(folder, owner.pw_uid, owner.pw_gid)
    pg = Postgres(folder, free_port())
    try:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(PG_BIN / "initdb"), "-D", str(folder / "data"),
             "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        pg.start()
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(PG_BIN / "createdb"), "-h", "127.0.0.1",
             "-p", str(pg.port), "drill"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=ROOT,
            env=_env(pg.url, "redis://127.0.0.1:1/0", folder),
            check=True,
            timeout=180,
        )
        yield pg
    finally:
        with contextlib.suppress(Exception):
            pg.ctl("-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def redis_server() -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        _missing("the fault drills need redis-server")
    with private_redis() as server:
        yield server


# --- the site's processes -----------------------------------------------------------------


def _env(database_url: str, redis_url: str, data_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_", "REDIS_", "CELERY_", "PYTEST_"))
    }
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DATA_DIR=str(data_dir),
        DJANGO_ENV="test",
        DJANGO_SETTINGS_MODULE="colorado.settings",
        SWEEP_SECONDS=str(SWEEP_SECONDS),
        BOT_STALL_SECONDS=str(BOT_STALL_SECONDS),
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    return env


@dataclass
class Site:
    """The worker and beat of one drill, with their logs."""

    pg: Postgres
    redis: PrivateRedis
    folder: Path
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    started: int = 0

    @property
    def env(self) -> dict[str, str]:
        return _env(self.pg.url, self.redis.url, self.folder)

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{name}.log").open("ab")
        proc = subprocess.Popen(
            [str(CELERY), "-A", "colorado", *args],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill -9 takes its children too
        )
        self.procs[name] = proc
        return proc

    def worker(self) -> subprocess.Popen[bytes]:
        """``celery worker`` as the site runs it (dev.py: prefork, two processes)."""
        self.started += 1
        return self._spawn(
            "worker",
            ["worker", "--loglevel", "INFO", "--concurrency", "2",
             "-n", f"drill{self.started}@%h"],
        )  # fmt: skip

    def beat(self) -> subprocess.Popen[bytes]:
        return self._spawn(
            "beat", ["beat", "--loglevel", "INFO", "--schedule", str(self.folder / "beat")]
        )

    def kill(self, name: str) -> None:
        """``kill -9`` of the process and its children: no warm shutdown, nothing acked."""
        proc = self.procs.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)

    def stop(self) -> None:
        for name in list(self.procs):
            proc = self.procs[name]
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            del self.procs[name]

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def tables(self, count: int = TABLES) -> list[int]:
        """All-bot tables, made by the site's own service in a process of its own."""
        code = (
            "import django, json; django.setup()\n"
            "from games.bots import players\n"
            "from games.tables import lifecycle\n"
            f"ids = [lifecycle.game_create(creator=players.bot_account(kind='random'), players=2,"
            f" bots=['greedy']).pk for _ in range({count})]\n"
            "print(json.dumps(ids))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        ids: list[int] = json.loads(out.stdout.decode().strip().splitlines()[-1])
        return ids

    def versions(self, ids: list[int]) -> dict[int, tuple[int, str]]:
        rows = self.pg.query(
            "SELECT id, version, status FROM games_game WHERE id = ANY(%s)", list(ids)
        )
        return {int(i): (int(v), str(s)) for i, v, s in rows}  # type: ignore[call-overload]

    def wait_moving(self, ids: list[int], *, moves: int, timeout: float) -> dict[int, int]:
        """Wait until every table has had ``moves`` bot moves; returns their versions."""
        now: dict[int, tuple[int, str]] = {}

        def moved() -> bool:
            nonlocal now
            now = self.versions(ids)
            return all(v >= 1 + moves or s != "running" for v, s in now.values())

        wait_until(
            moved,
            timeout=timeout,
            interval=0.2,
            message=lambda: f"the bots did not start playing: {now}\n{self.log('worker')}",
        )
        return {i: v for i, (v, _s) in now.items()}

    def wait_stalled(self, ids: list[int], *, timeout: float = 60) -> None:
        """Wait until every running table of ``ids`` counts as stalled by the site's rule
        (no move for ``BOT_STALL_SECONDS``, in the database's clock)."""
        wait_until(
            lambda: (
                not self.pg.query(
                    "SELECT id FROM games_game WHERE id = ANY(%s) AND status = 'running' "
                    "AND updated_at > now() - make_interval(secs => %s)",
                    list(ids),
                    BOT_STALL_SECONDS,
                )
            ),
            timeout=timeout,
            interval=0.2,
            message="the tables did not stall",
        )

    def wait_all_move_on(self, before: dict[int, int], *, timeout: float) -> dict[int, float]:
        """Seconds until each table moved past the version it had in ``before`` (or
        finished). Fails naming the tables that sat still."""
        start = time.monotonic()
        moved: dict[int, float] = {}

        def all_moved() -> bool:
            for game_id, (version, status) in self.versions(list(before)).items():
                if game_id not in moved and (version > before[game_id] or status != "running"):
                    moved[game_id] = time.monotonic() - start
            return len(moved) == len(before)

        def sat_still() -> str:
            still = sorted(set(before) - set(moved))
            return (
                f"tables {still} sat still after the fault ({len(still)} of {len(before)})"
                "\n--- worker log (tail) ---\n" + self.log("worker")[-4000:]
            )

        wait_until(all_moved, timeout=timeout, interval=0.2, message=sat_still)
        return moved

    def retire(self, ids: list[int]) -> None:
        """Take a drill's tables out of play, so the next drill's worker has only its own."""
        self.pg.query(
            "UPDATE games_game SET status = 'aborted' WHERE id = ANY(%s) RETURNING id", list(ids)
        )


@pytest.fixture
def site(postgres: Postgres, redis_server: PrivateRedis, tmp_path: Path) -> Iterator[Site]:
    s = Site(postgres, redis_server, tmp_path)
    try:
        yield s
    finally:
        s.stop()


def _report(name: str, figures: dict[int, float]) -> None:
    worst = max(figures.values())
    print(f"\n[drill] {name}: every table moved again; slowest after {worst:.1f} s")


# --- the drills ---------------------------------------------------------------------------


def test_kill_9_of_the_worker_mid_game(site: Site) -> None:
    """A worker killed while holding tasks: its messages stay unacknowledged until the
    visibility timeout, but the sweep queues those bots again once a worker runs."""
    site.beat()
    site.worker()
    ids = site.tables()
    site.wait_moving(ids, moves=3, timeout=90)
    site.kill("worker")
    before = {i: v for i, (v, _s) in site.versions(ids).items()}
    site.wait_stalled(ids)  # the worker stays down until the tables count as stalled
    site.worker()
    figures = site.wait_all_move_on(before, timeout=RECOVERY_SECONDS)
    _report("kill -9 of the worker (seconds after the new worker started)", figures)
    site.retire(ids)


def test_redis_restart_loses_the_queue_and_the_worker_lives_on(site: Site) -> None:
    """Redis stopped and started again on the same port, its data gone, three times (the
    worker used to exit on about one restart in three, when a restart found it busy). The
    worker and beat reconnect and stay up; the sweep queues the lost bot moves again."""
    site.beat()
    worker = site.worker()
    ids = site.tables()
    site.wait_moving(ids, moves=3, timeout=90)
    for restart in (1, 2, 3):
        lost = site.log("worker").count("Connection to broker lost")
        site.redis.stop()
        stopped = time.monotonic()
        # Redis stays down until the worker has noticed (it says so in its log).
        wait_until(
            lambda lost=lost: site.log("worker").count("Connection to broker lost") > lost,
            timeout=30,
            message=lambda: (
                "the worker did not notice Redis going away; its log ends:\n"
                + site.log("worker")[-6000:]
            ),
        )
        print(f"\n[drill] Redis stop {restart}: the worker noticed after "
              f"{time.monotonic() - stopped:.1f} s")  # fmt: skip
        site.redis.start()
        before = {i: v for i, (v, _s) in site.versions(ids).items() if _s == "running"}
        if not before:
            break
        figures = site.wait_all_move_on(before, timeout=RECOVERY_SECONDS)
        _report(f"Redis restart {restart} (seconds after Redis was back)", figures)
        assert worker.poll() is None, f"the worker exited:\n{site.log('worker')[-4000:]}"
        assert site.procs["beat"].poll() is None, f"beat exited:\n{site.log('beat')[-4000:]}"
    # The consumer restarted cleanly: no step failed on the dead connection (Gossip used
    # to, every time; closing the lost connection sometimes took the whole worker down).
    log = site.log("worker")
    assert "Connection to broker lost" in log
    assert "Unrecoverable error" not in log, log[-4000:]
    assert "Error on restarting" not in log, log[-4000:]
    site.retire(ids)


def test_postgres_restart(site: Site) -> None:
    """PostgreSQL restarted under the worker: the tasks that lose their connection retry
    with backoff, the sweep queues the rest again, and every table moves on."""
    site.beat()
    worker = site.worker()
    ids = site.tables()
    site.wait_moving(ids, moves=3, timeout=90)
    site.pg.ctl("-m", "fast", "-w", "restart")
    before = {i: v for i, (v, s) in site.versions(ids).items() if s == "running"}
    figures = site.wait_all_move_on(before, timeout=RECOVERY_SECONDS)
    _report("PostgreSQL restart (seconds after it was back)", figures)
    assert worker.poll() is None, f"the worker exited:\n{site.log('worker')[-4000:]}"
    site.retire(ids)
