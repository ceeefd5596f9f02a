"""The embedded mode as the README's first command runs it: ``manage.py serve`` on SQLite, its
scheduler and worker in threads, sweeping every second here.

A real process with its own data folder (the pytest database is not involved): a player with
a deadline five hours away and a twelve-hour reminder gets the reminder mail from the sweep,
and no sweep logs an error. The sweep once failed every minute on SQLite, logged only by the
worker, while the site itself answered normally.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import urllib.request
from datetime import UTC, datetime, timedelta
from email import message_from_string
from email.policy import default
from pathlib import Path

from tests.servers import free_port
from tests.waiting import WaitTimeout, wait_until

ROOT = Path(__file__).resolve().parents[2]

SEED = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games.tables import lifecycle
from games.models import Seat

people = [
    User.objects.create_user(
        username=name, email=f"{name}@example.org", password="a-long-password-42",
        reminder_hours=12,
    )
    for name in ("alice", "bob")
]
game = lifecycle.game_create(creator=people[0], players=2, options={"flags": "random"})
lifecycle.game_join(game_id=game.pk, user=people[1])
Seat.objects.filter(game=game).update(deadline=timezone.now() + timedelta(hours=5))
"""


def healthz(port: int) -> dict[str, object] | None:
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        with urllib.request.urlopen(url, timeout=2) as response:
            return json.loads(response.read())
    except OSError:
        return None


def mails(folder: Path) -> str:
    return "".join(p.read_text() for p in sorted(folder.glob("*"))) if folder.exists() else ""


#: What the file mail backend writes between two messages.
MAIL_SEPARATOR = "\n" + "-" * 79 + "\n"


def subjects(folder: Path) -> list[str]:
    """The subject of every mail in the file backend's ``folder``, unfolded."""
    parts = [part for part in mails(folder).split(MAIL_SEPARATOR) if part.strip()]
    return [str(message_from_string(part, policy=default)["Subject"]) for part in parts]


def reminders(folder: Path) -> list[str]:
    return [s for s in subjects(folder) if "Reminder: " in s]


def beat_time(health: dict[str, object] | None) -> datetime:
    """The time of the scheduler's last heartbeat /healthz reports."""
    stamp = (health or {}).get("scheduler_heartbeat")
    return datetime.fromisoformat(str(stamp)) if stamp else datetime.min.replace(tzinfo=UTC)


def test_serve_on_sqlite_sweeps_sends_the_reminder_and_logs_no_error(tmp_path: Path) -> None:
    port = free_port()
    outbox = tmp_path / "mail"
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "REQUIRE_SERVICES"}
    }
    environ.update(
        {
            "DATA_DIR": str(tmp_path),
            "EMAIL_URL": f"file://{outbox}",
            "SWEEP_SECONDS": "1",
            "HEARTBEAT_SECONDS": "1",
            "PYTHONUNBUFFERED": "1",
        }
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=environ, cwd=ROOT, check=True)
    subprocess.run([*manage, "shell", "-c", SEED], env=environ, cwd=ROOT, check=True)
    assert (tmp_path / "colorado.sqlite3").exists()  # SQLite in the data folder

    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [*manage, "serve", "--port", str(port)],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:

            def reminded_twice() -> dict[str, object] | None:
                output = log_path.read_text()
                assert proc.poll() is None, output[-3000:]
                assert " ERROR " not in output, output[-3000:]  # fail at the first error
                health = healthz(port)
                if health and health.get("scheduler_heartbeat") and len(reminders(outbox)) >= 2:
                    return health
                return None

            with contextlib.suppress(WaitTimeout):  # the asserts below say what is missing
                wait_until(reminded_twice, timeout=90, interval=0.5)
            sent = reminders(outbox)
            # Every mail carries the site's name first (MAIL_SUBJECT_PREFIX).
            assert "[Colorado County online] Reminder: your move in Colorado County, table 1" in (
                sent
            ), log_path.read_text()[-3000:]
            assert len(sent) == 2, sent  # alice and bob, once each
            # A few more sweeps (every second, like the heartbeat), each with nothing left
            # to remind: the scheduler's heartbeat three seconds on, still two mails.
            first = beat_time(healthz(port))
            wait_until(lambda: beat_time(healthz(port)) >= first + timedelta(seconds=3))
            assert len(reminders(outbox)) == 2
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                raise
    output = log_path.read_text()
    assert " ERROR " not in output, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert "Stopped the web server, the task worker and the scheduler." in output
