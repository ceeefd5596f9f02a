#!/usr/bin/env python3
"""The fault drill by hand: the whole site under its run command, five faults in turn.

Starts a private Redis, a private PostgreSQL cluster (``initdb`` in a temporary folder, run
as the ``postgres`` user) and an SMTP server of its own, then ``python3 dev.py run`` against
them (uvicorn, a Celery worker and beat, supervised). Bot games (bots only) and human games
(people playing through the JSON API with bearer tokens, against bots) keep running while
it injects, one after another:

1. ``kill -9`` of the Celery worker (all its processes);
2. a Redis restart (data lost: the queue and the channel groups are gone);
3. a PostgreSQL restart;
4. ``kill -9`` of uvicorn;
5. the SMTP server down for a while, with a sign-up and a password reset asked meanwhile.

After each fault it reports how long until every game that was running has moved again
(the bound is 90 s), the 5xx answers seen after the site answered again, and at the end
the mails received (each exactly once) and ``manage.py replay_check``. Exits 1 when a
game stalled, a 5xx came after recovery, a mail was lost or doubled, or a replay differs.

    .venv/bin/python scripts/drill.py            # about ten minutes
    .venv/bin/python scripts/drill.py --bot-games 4 --human-games 2 --settle 15

Needs root (to run PostgreSQL as ``postgres``), ``redis-server`` and PostgreSQL 15's
binaries; touches no shared service (every port is a free one of its own). Notes in
docs/operations.md.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = Path("/usr/lib/postgresql") / (os.listdir("/usr/lib/postgresql")[0]) / "bin"
STALL_BOUND = 90.0
#: The account mails' subjects (allauth's, in English): every mail of the site has the same
#: prefix (the site's name, settings.MAIL_SUBJECT_PREFIX), so the prefix alone no longer
#: tells an account mail from a game mail.
ACCOUNT = re.compile(r"^\[[^]]*\] (Please Confirm Your Email Address|Password Reset Email)$")
PASSWORD = "drill-the-site-42"  # noqa: S105 (throwaway accounts in a throwaway database)


def say(text: str) -> None:
    print(f"[drill {time.strftime('%H:%M:%S')}] {text}", flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kwargs)


# --- the private services --------------------------------------------------------------


class Redis:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            ping = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            )
            if ping.stdout.strip() == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("the private redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Postgres:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.data = folder / "pg"

    def _as_postgres(self, *cmd: str) -> None:
        run(["runuser", "-u", "postgres", "--", *cmd])

    def create(self) -> None:
        self.data.mkdir(parents=True)
        shutil.chown(self.data, "postgres", "postgres")
        self._as_postgres(
            str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"
        )
        self.start()
        psql = ["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        run([*psql, "-qc", "CREATE DATABASE drill"])

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
        self._as_postgres(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.data / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        self._as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/drill"


class Smtp:
    """An SMTP server in this process that keeps every message it accepts."""

    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[tuple[str, str]] = []  # (recipient, subject)
        self.controller: Any = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        outer = self

        class Keep:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                text = envelope.content.decode("utf8", "replace")
                subject = re.search(r"^Subject: (.*)$", text, re.M)
                for rcpt in envelope.rcpt_tos:
                    outer.messages.append((rcpt, subject.group(1) if subject else ""))
                return "250 OK"

        self.controller = Controller(Keep(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


# --- the site ----------------------------------------------------------------------------


class Site:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{env['PORT']}"

    def start(self) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "dev.py"), "run"],
            env=self.env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def children(self, *words: str) -> list[int]:
        """Processes of the run command's session whose command line holds every word."""
        assert self.proc is not None
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if os.getsid(int(entry.name)) != self.proc.pid:
                    continue
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except (OSError, ProcessLookupError):
                continue
            if int(entry.name) != self.proc.pid and all(w in cmdline for w in words):
                found.append(int(entry.name))
        return found

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=5) as r:  # noqa: S310
                return bool(r.status == 200)
        except (urllib.error.URLError, OSError):
            return False

    def wait_healthy(self, limit: float = 120) -> float:
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if self.healthy():
                return time.monotonic() - start
            time.sleep(0.5)
        raise RuntimeError(f"the site did not answer /healthz within {limit:.0f} s")

    def stop(self) -> float:
        """SIGTERM to the run command; returns how long until every part had stopped."""
        assert self.proc is not None
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        return time.monotonic() - start


# --- players ----------------------------------------------------------------------------


@dataclass
class Requests:
    """Every answer the human players got: (monotonic time, status)."""

    seen: list[tuple[float, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int) -> None:
        with self.lock:
            self.seen.append((time.monotonic(), status))

    def server_errors(self, start: float, end: float) -> int:
        return sum(1 for t, s in self.seen if start <= t < end and s >= 500)

    def count(self, start: float, end: float) -> int:
        return sum(1 for t, _s in self.seen if start <= t < end)


def api(base: str, method: str, path: str, token: str, body: Any, log: Requests) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(  # noqa: S310
        base + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            log.add(response.status)
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        log.add(exc.code)
        return None
    except (urllib.error.URLError, OSError):
        log.add(0)  # no answer at all (the server is down): not a 5xx
        return None


def human_player(base: str, token: str, stop: threading.Event, log: Requests) -> None:
    """A person playing one table after another against two bots, a move every second."""
    rng = random.Random(token)  # noqa: S311
    game_id: int | None = None
    while not stop.is_set():
        if game_id is None:
            doc = api(
                base, "POST", "/api/games", token, {"players": 3, "bots": ["greedy"] * 2}, log
            )
            game_id = doc["id"] if doc else None
        else:
            doc = api(base, "GET", f"/api/games/{game_id}", token, None, log)
            if doc and doc["status"] != "running":
                game_id = None
            elif doc and doc["my_seat"] in doc["to_act"] and doc["legal_actions"]:
                action = rng.choice(doc["legal_actions"])
                body = {"action": action, "version": doc["version"], "client_id": str(uuid.uuid4())}
                api(base, "POST", f"/api/games/{game_id}/actions", token, body, log)
        stop.wait(1.0)


def form_post(base: str, path: str, fields: dict[str, str]) -> int:
    """GET a page for its CSRF token, then POST the form like a browser (no redirects)."""
    jar = http.cookiejar.CookieJar()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    with opener.open(base + path, timeout=30) as page:
        html = page.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token.group(1) if token else "", **fields}
    )
    request = urllib.request.Request(  # noqa: S310
        base + path, data=data.encode(), headers={"Referer": base + path}, method="POST"
    )
    try:
        with opener.open(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return exc.code


# --- the drill --------------------------------------------------------------------------


class Drill:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="colorado-drill-"))
        os.chmod(self.folder, 0o755)  # noqa: S103 (PostgreSQL, run as postgres, reads it)
        self.redis = Redis(self.folder)
        self.pg = Postgres(self.folder)
        self.smtp = Smtp()
        env = {
            **os.environ,
            "DATABASE_URL": self.pg.url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis.port}/0",
            "EMAIL_URL": f"smtp://127.0.0.1:{self.smtp.port}",
            "PORT": str(free_port()),
            "DATA_DIR": str(self.folder / "var"),
            "SWEEP_SECONDS": str(args.sweep),
            "BOT_STALL_SECONDS": str(args.stall),
            "TURN_EMAIL_DELAY_SECONDS": "5",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "colorado.settings",
        }
        env["SITE_URL"] = f"http://127.0.0.1:{env['PORT']}"
        self.env = env
        self.site = Site(env, self.folder / "site.log")
        self.requests = Requests()
        self.stop_players = threading.Event()
        self.results: list[dict[str, Any]] = []
        self.failures: list[str] = []

    # in-process Django against the private database, for setup and for watching games
    def django(self) -> None:
        os.environ.update({k: v for k, v in self.env.items() if k != "PORT"})
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()

    def users(self) -> list[str]:
        from accounts.models import User
        from accounts.services import email_verified_set, token_create

        tokens = []
        for n in range(self.args.human_games):
            user = User.objects.create_user(
                username=f"drill-{n}", email=f"drill-{n}@example.org", password=PASSWORD
            )
            email_verified_set(user=user)
            tokens.append(token_create(user=user, name="drill"))
        return tokens

    def bot_games(self) -> None:
        """Keep ``--bot-games`` tables of bots only running (new ones as others end)."""
        from django.db import close_old_connections

        from games.bots import players as bot_players
        from games.models import Game
        from games.tables import lifecycle

        while not self.stop_players.is_set():
            try:
                close_old_connections()
                running = Game.objects.filter(
                    status=Game.Status.RUNNING, seats__user__username="bot-random"
                ).count()
                for _ in range(self.args.bot_games - running):
                    lifecycle.game_create(
                        creator=bot_players.bot_account(kind="random"),
                        players=3,
                        bots=["greedy"] * 2,
                    )
            except Exception as exc:  # the database or the broker is down: try again later
                say(f"bot tables: {type(exc).__name__} (a fault is on)")
            self.stop_players.wait(3.0)

    def running_versions(self) -> dict[int, int]:
        from django.db import close_old_connections

        from games.models import Game

        close_old_connections()
        return dict(Game.objects.filter(status=Game.Status.RUNNING).values_list("pk", "version"))

    def wait_all_moved(self, before: dict[int, int], start: float) -> tuple[float, list[int]]:
        """Seconds from ``start`` until every game of ``before`` moved on or ended."""
        from django.db import close_old_connections

        from games.models import Game

        waiting = dict(before)
        while waiting and time.monotonic() - start < STALL_BOUND:
            try:
                close_old_connections()
                now = dict(Game.objects.filter(pk__in=list(waiting)).values_list("pk", "version"))
                status = dict(Game.objects.filter(pk__in=list(waiting)).values_list("pk", "status"))
            except Exception:
                time.sleep(1)
                continue
            for pk in list(waiting):
                if now.get(pk, 0) > waiting[pk] or status.get(pk) != Game.Status.RUNNING:
                    del waiting[pk]
            time.sleep(0.5)
        return time.monotonic() - start, sorted(waiting)

    def fault(self, name: str, inject: Any, restore: Any = None) -> None:
        say(f"fault: {name}")
        before = self.running_versions()
        start = time.monotonic()
        inject()
        if restore is not None:
            time.sleep(self.args.outage)
            restore()
        up = self.site.wait_healthy()
        recovered = time.monotonic()
        moved, stalled = self.wait_all_moved(before, recovered)
        time.sleep(self.args.settle)
        end = time.monotonic()
        errors = self.requests.server_errors(recovered + 1.0, end)
        row = {
            "fault": name,
            "games": len(before),
            "site back after s": round(recovered - start, 1),
            "all moved after s": round(moved, 1),
            "stalled": stalled,
            "requests after": self.requests.count(recovered, end),
            "5xx after": errors,
            "5xx during": self.requests.server_errors(start, recovered + 1.0),
            "healthz wait s": round(up, 1),
        }
        self.results.append(row)
        say(json.dumps(row))
        if stalled:
            self.failures.append(f"{name}: games {stalled} stalled over {STALL_BOUND:.0f} s")
        if errors:
            self.failures.append(f"{name}: {errors} answers 5xx after the site was back")

    def kill(self, *words: str) -> None:
        pids = self.site.children(*words)
        if not pids:
            self.failures.append(f"no process {' '.join(words)} to kill")
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        say(f"killed {' '.join(words)}: {pids}")

    def smtp_drill(self) -> None:
        say("fault: SMTP down")
        self.smtp.stop()
        start = time.monotonic()
        base = self.site.base
        signup = form_post(
            base,
            "/accounts/signup/",
            {"username": "drill-new", "email": "drill-new@example.org"}
            | {"password1": PASSWORD, "password2": PASSWORD},
        )
        reset = form_post(base, "/accounts/password/reset/", {"email": "drill-0@example.org"})
        say(f"sign-up answered {signup}, password reset {reset} (SMTP down)")
        for label, status in (("sign-up", signup), ("password reset", reset)):
            if status >= 500:
                self.failures.append(f"{label} answered {status} while SMTP was down")
        time.sleep(self.args.outage)
        self.smtp.start()
        back = time.monotonic()
        wanted = {"drill-new@example.org", "drill-0@example.org"}
        while time.monotonic() - back < 300 and not wanted <= {
            m[0] for m in self.smtp.messages if ACCOUNT.match(m[1])
        }:
            time.sleep(1)
        arrived = time.monotonic() - back
        time.sleep(self.args.settle * 2)  # anything sent twice would come by now
        # The account mails asked for while SMTP was down (the players also get game mails,
        # "Game over" and the like, which are not counted here).
        counts = {
            to: sum(1 for m in self.smtp.messages if m[0] == to and ACCOUNT.match(m[1]))
            for to in wanted
        }
        row = {
            "fault": "SMTP down",
            "down s": round(back - start, 1),
            "mails arrived after s": round(arrived, 1),
            "mails per address": counts,
        }
        self.results.append(row)
        say(json.dumps(row))
        for to, n in counts.items():
            if n != 1:
                self.failures.append(f"SMTP: {n} mails to {to}, expected exactly one")

    def replay_check(self) -> None:
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "replay_check"],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        say(f"replay_check: {done.stdout.strip()} {done.stderr.strip()}")
        self.results.append({"replay_check": done.stdout.strip(), "exit": done.returncode})
        if done.returncode:
            self.failures.append("replay_check found games that do not replay")

    def go(self) -> int:
        try:
            say(f"folder {self.folder}")
            self.redis.start()
            self.pg.create()
            self.smtp.start()
            self.site.start()
            say(f"site up after {self.site.wait_healthy(300):.1f} s on {self.site.base}")
            self.django()
            tokens = self.users()
            threads = [threading.Thread(target=self.bot_games, daemon=True)]
            threads += [
                threading.Thread(
                    target=human_player,
                    args=(self.site.base, t, self.stop_players, self.requests),
                    daemon=True,
                )
                for t in tokens
            ]
            for thread in threads:
                thread.start()
            time.sleep(self.args.settle)
            try:
                self.fault("worker kill -9", lambda: self.kill("celery", "worker"))
                self.fault("Redis restart", self.redis.stop, self.redis.start)
                self.fault("PostgreSQL restart", self.pg.stop, self.pg.start)
                self.fault("uvicorn kill -9", lambda: self.kill("uvicorn"))
                self.smtp_drill()
            except RuntimeError as exc:  # the site did not come back: no point going on
                self.failures.append(str(exc))
                say(f"stopped early: {exc}")
            self.stop_players.set()
            for thread in threads:
                thread.join(timeout=40)
            self.replay_check()
            say(f"run command stopped all its parts in {self.site.stop():.1f} s (SIGTERM)")
        finally:
            self.stop_players.set()
            if self.site.proc is not None and self.site.proc.poll() is None:
                os.killpg(self.site.proc.pid, signal.SIGKILL)
            self.smtp.stop()
            self.redis.stop()
            with contextlib.suppress(subprocess.CalledProcessError):
                self.pg.stop()
            if not self.args.keep:
                shutil.rmtree(self.folder, ignore_errors=True)
        print(json.dumps(self.results, indent=1))
        if self.failures:
            say("FAILED: " + "; ".join(self.failures))
            return 1
        say("passed: no game stalled, no 5xx after recovery, every mail once, replays clean")
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-games", type=int, default=6, help="tables of bots only")
    parser.add_argument("--human-games", type=int, default=3, help="people playing via the API")
    parser.add_argument("--sweep", type=int, default=5, help="SWEEP_SECONDS of the site")
    parser.add_argument("--stall", type=int, default=10, help="BOT_STALL_SECONDS of the site")
    parser.add_argument("--outage", type=float, default=10, help="seconds a service stays down")
    parser.add_argument("--settle", type=float, default=20, help="seconds between faults")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    return Drill(parser.parse_args()).go()


if __name__ == "__main__":
    sys.exit(main())
