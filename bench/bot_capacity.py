"""Fair bot capacity under one account's load (issue 41, item 1; docs/benchmarks.md, "Bot
capacity").

Starts the site with its run command (``python3 dev.py run``: embedded without
``--services``, else with PostgreSQL and Redis from ``DATABASE_URL``/``REDIS_URL``, on a
scratch database of its own), makes two accounts, then measures twice — idle, and while
the first account runs ``--tables`` (20) six-seat La Conquista del Oeste tables of hard
bots it opened and resigned from (the audit's load):

* another player's **medium-bot reply**: the player plays a two-player table (``--game``,
  La Conquista del Oeste: turn by turn) against the medium bot through the API, a random
  legal move at a time, and times each move's answer until the bot has moved and the
  player may move again (polling the table every 120 ms), ``--replies`` times;
* the **pages' medians**: ``/``, ``/how-to-play/``, ``/bots/``, ``/leaderboard/`` and the
  player's table, ``--page-rounds`` times each.

The target: the reply's p95 under 3 s and every page median within 2x of idle. It prints
one JSON line of figures, and exits 1 when a target is missed.

    .venv/bin/python bench/bot_capacity.py [--services] [--tables 20] [--replies 40]

The caps that would refuse the load (``BOT_TABLES_MAX``, ``TABLES_PER_HOUR``) are raised for
the run, since the bench measures the scheduling, not the refusal; ``--site DIR`` runs
another copy of the project (an older commit, for a comparison) with this bench.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["/", "/how-to-play/", "/bots/", "/leaderboard/"]
#: Seconds between two reads of the table while the player waits for the bot: within the
#: API's 600 reads a minute for a signed-in caller.
POLL = 0.12

SETUP = """
from accounts.models import User
from accounts.services import email_verified_set, token_create
out = {}
for name in ("abuser", "player"):
    user, _ = User.objects.get_or_create(username=name, defaults={"email": name + "@example.org"})
    email_verified_set(user=user)
    out[name] = token_create(user=user)
import json; print("TOKENS " + json.dumps(out))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Site:
    def __init__(self, base: str, tokens: dict[str, str]) -> None:
        self.base = base
        self.tokens = tokens

    def call(self, method: str, path: str, who: str | None = None, body: Any = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if who is not None:
            headers["Authorization"] = f"Bearer {self.tokens[who]}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(  # noqa: S310 (localhost)
            self.base + path, data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return {"http_status": exc.code, **json.loads(exc.read() or b"{}")}

    def page(self, path: str) -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(self.base + path, timeout=60) as response:  # noqa: S310
            response.read()
        return time.perf_counter() - started


def start_site(args: argparse.Namespace, data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ENV"}}
    env.update(
        {
            "PORT": str(port),
            "DATA_DIR": str(data_dir),
            "LOG_LEVEL": "WARNING",
            "BOT_TABLES_MAX": "100",
            "TABLES_PER_HOUR": "100",
            "INVITATIONS_PER_HOUR": "100",
        }
    )
    if not args.services:
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
    else:
        url = urlsplit(env["DATABASE_URL"])
        scratch = f"{url.path.lstrip('/')}_botcap"
        admin = urlunsplit(url._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{scratch}"')
        env["DATABASE_URL"] = urlunsplit(url._replace(path=f"/{scratch}"))
        env["CHANNEL_PREFIX"] = env["CACHE_PREFIX"] = f"botcap{port}"
    site = Path(args.site).resolve()
    log = (data_dir / "run.log").open("wb")
    proc = subprocess.Popen(  # noqa: S603 (our own run command)
        [sys.executable, str(site / "dev.py"), "run"],
        cwd=site,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):  # noqa: S310
                break
        except OSError:
            if proc.poll() is not None:
                raise SystemExit((data_dir / "run.log").read_text()[-3000:]) from None
            time.sleep(0.5)
    shell = subprocess.run(  # noqa: S603 (our own manage.py)
        [sys.executable, str(site / "manage.py"), "shell", "-c", SETUP],
        cwd=site,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in shell.stdout.splitlines() if x.startswith("TOKENS "))
    return proc, base, json.loads(line[len("TOKENS ") :])  # type: ignore[return-value]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def page_medians(site: Site, table: int, rounds: int) -> dict[str, float]:
    paths = [*PAGES, f"/games/{table}/"]
    samples: dict[str, list[float]] = {p: [] for p in paths}
    for _ in range(rounds):
        for path in paths:
            samples[path].append(site.page(path))
    return {path: round(statistics.median(v) * 1000, 1) for path, v in samples.items()}


def new_table(site: Site, game: str) -> dict[str, Any]:
    doc = site.call(
        "POST", "/api/games", "player", {"game": game, "players": 2, "bots": ["medium"]}
    )
    assert "id" in doc, doc
    return doc  # type: ignore[no-any-return]


def bot_replies(site: Site, game: str, count: int, rng: random.Random) -> list[float]:
    """Seconds from each of the player's moves being answered until the medium bot has
    replied and the player may move again, over as many tables as it takes. A move after
    which the player moves again at once (their turn goes on, or the bot had already
    moved: a simultaneous step) is no reply and is not counted."""
    replies: list[float] = []
    doc = new_table(site, game)
    while len(replies) < count:
        if doc.get("status") != "running":
            doc = new_table(site, game)
            continue
        legal = doc.get("legal_actions") or []
        if not legal:
            time.sleep(POLL)
            doc = site.call("GET", f"/api/games/{doc['id']}", "player")
            continue
        answer = site.call(
            "POST",
            f"/api/games/{doc['id']}/actions",
            "player",
            {"action": rng.choice(legal), "version": doc["version"]},
        )
        if answer.get("http_status"):  # refused (a stale version): read the table again
            doc = site.call("GET", f"/api/games/{doc['id']}", "player")
            continue
        answered = time.perf_counter()
        doc = answer
        if doc.get("legal_actions"):
            continue  # still the player's move: no reply to wait for
        while doc.get("status") == "running" and not doc.get("legal_actions"):
            time.sleep(POLL)
            doc = site.call("GET", f"/api/games/{doc['id']}", "player")
            if time.perf_counter() - answered > 120:
                raise SystemExit("the bot did not reply within 120 s")
        if doc.get("status") == "running" and doc["version"] > answer["version"]:
            replies.append(time.perf_counter() - answered)
    return replies


def load(site: Site, tables: int, *, public: bool) -> list[int]:
    """The audit's load: ``tables`` six-seat tables of hard bots, opened and resigned from.
    Invitation-only unless ``public``: then the home page lists eight of them to watch, and
    a page that shows more games is slower whatever the bots do."""
    ids = []
    for _ in range(tables):
        doc = site.call(
            "POST",
            "/api/games",
            "abuser",
            {
                "game": "la-conquista-del-oeste",
                "players": 6,
                "bots": ["hard"] * 5,
                "open_seats": public,
            },
        )
        assert "id" in doc, doc
        ids.append(doc["id"])
    for game_id in ids:
        site.call("POST", f"/api/games/{game_id}/resign", "abuser")
    return ids


def moves_of(site: Site, ids: list[int]) -> int:
    return sum(int(site.call("GET", f"/api/games/{i}", "abuser")["version"]) for i in ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--services", action="store_true", help="PostgreSQL and Redis mode")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--replies", type=int, default=40)
    parser.add_argument("--page-rounds", type=int, default=15)
    parser.add_argument("--warm-up", type=float, default=20.0, help="seconds of load first")
    parser.add_argument("--site", default=str(ROOT), help="the project copy to run")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument(
        "--public-load", action="store_true", help="the abuser's tables open to all (watchable)"
    )
    parser.add_argument(
        "--game", default="la-conquista-del-oeste", help="the player's title (turn by turn)"
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="botcap-") as folder:
        proc, base, tokens = start_site(args, Path(folder))
        try:
            site = Site(base, tokens)
            table = new_table(site, args.game)["id"]
            idle_pages = page_medians(site, table, args.page_rounds)
            idle = bot_replies(site, args.game, max(10, args.replies // 2), rng)
            ids = load(site, args.tables, public=args.public_load)
            time.sleep(args.warm_up)  # the load builds up: every table's bots at work
            before = moves_of(site, ids)
            started = time.perf_counter()
            loaded = bot_replies(site, args.game, args.replies, rng)
            loaded_pages = page_medians(site, table, args.page_rounds)
            window = time.perf_counter() - started
            load_moves = moves_of(site, ids) - before
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
    ratios = {p: round(loaded_pages[p] / max(idle_pages[p], 0.1), 2) for p in idle_pages}
    figures = {
        "mode": "services" if args.services else "embedded",
        "tables": args.tables,
        "reply_idle_s": {
            "p50": round(statistics.median(idle), 2),
            "p95": round(percentile(idle, 95), 2),
            "max": round(max(idle), 2),
        },
        "reply_loaded_s": {
            "p50": round(statistics.median(loaded), 2),
            "p95": round(percentile(loaded, 95), 2),
            "max": round(max(loaded), 2),
            "n": len(loaded),
        },
        "pages_idle_ms": idle_pages,
        "pages_loaded_ms": loaded_pages,
        "page_ratio": ratios,
        "load_moves": load_moves,
        "load_moves_per_s": round(load_moves / window, 2),
    }
    print(json.dumps(figures))
    met = figures["reply_loaded_s"]["p95"] < 3.0 and max(ratios.values()) <= 2.0  # type: ignore[index]
    print("targets met" if met else "targets MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
