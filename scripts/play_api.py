#!/usr/bin/env python3
"""A whole game through the public interface, as a script or a third-party bot would play it.

Two people (``play-alice``, ``play-bob``) get API tokens (``POST /api/auth/token``); Alice
opens a three-seat table with a greedy bot and invites Bob; Bob joins; both hold a WebSocket
on the table and, whenever a frame says they are to act, POST a random legal action. The bot
moves by itself through the task worker. At the end the script fetches the export (seed
included) and replays it with the engine to check the published result.

    python scripts/play_api.py                 # starts its own server (and worker)
    python scripts/play_api.py --url http://127.0.0.1:8000   # against a running site
    python scripts/play_api.py --title colorado-2023         # another title (a medium bot)

With ``REDIS_URL`` set it starts uvicorn and a Celery worker; without it, ``manage.py serve``
(everything in one process). ``DATABASE_URL`` picks the database (SQLite by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "play-the-api-42"  # noqa: S105 (local demo accounts)


def http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return {"http_status": exc.code, **json.loads(exc.read() or b"{}")}


def ensure_users() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from accounts.services import email_verified_set

    for name in ("play-alice", "play-bob"):
        user, _ = User.objects.get_or_create(username=name)
        user.set_password(PASSWORD)
        user.email = user.email or f"{name}@example.org"
        user.save()
        email_verified_set(user=user)  # a token, like signing in, needs a verified address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_site(port: int) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "PORT": str(port), "LOG_LEVEL": "WARNING"}
    py = sys.executable
    if os.environ.get("REDIS_URL"):
        commands = [
            [py, "-m", "uvicorn", "colorado.asgi:application", "--port", str(port),
             "--log-level", "warning"],
            [py, "-m", "celery", "-A", "colorado", "worker", "--pool", "threads",
             "--concurrency", "2", "--loglevel", "WARNING"],
        ]  # fmt: skip
    else:
        commands = [[py, "manage.py", "serve", "--port", str(port)]]
    procs = [subprocess.Popen(c, cwd=ROOT, env=env) for c in commands]  # noqa: S603
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return procs
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the site did not start")


async def player(base: str, name: str, token: str, game_id: int, seed: int) -> dict[str, Any]:
    """Act whenever the newest document (a socket frame, or the answer to my own POST,
    including a 409's current document) says it is my turn."""
    rng = random.Random(seed)  # noqa: S311
    # The token goes in a header, never the URL: URLs end up in access logs.
    url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
    auth = {"Authorization": f"Bearer {token}"}
    doc: dict[str, Any] = {"version": -1, "status": "running", "to_act": []}
    acted = -1
    async with websockets.connect(url, additional_headers=auth, max_size=2**24) as ws:
        while True:
            if doc["status"] not in ("open", "running"):
                return doc
            if doc["version"] > acted and doc.get("my_seat") in doc["to_act"]:
                action = rng.choice(doc["legal_actions"])
                answer = await asyncio.to_thread(
                    http, base, "POST", f"/api/games/{game_id}/actions",
                    {"action": action, "version": doc["version"]}, token,
                )  # fmt: skip
                acted = doc["version"]
                newer = answer.get("current", answer)  # a 409 carries the current document
                view = newer.get("view") or {}
                print(
                    f"{name:>10} v{acted:<4} {action['type']:<14} -> v{newer.get('version')} "
                    f"{view.get('phase', '?'):<6} round {view.get('round', '?')} "
                    f"scores {view.get('scores')}"
                    + (f"  ({answer['code']})" if "code" in answer else "")
                )
                if newer.get("version", -1) > doc["version"]:
                    doc = newer
                continue
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=300))
            if frame.get("type") == "game" and frame["version"] > doc["version"]:
                doc = frame


async def play(base: str, title: str | None = None) -> int:
    tokens = {
        name: http(base, "POST", "/api/auth/token", {"username": name, "password": PASSWORD})[
            "token"
        ]
        for name in ("play-alice", "play-bob")
    }
    doc = http(
        base,
        "POST",
        "/api/games",
        {
            "players": 3,
            "bots": ["medium"] if title else ["greedy"],
            "invite": ["play-bob"],
            "open_seats": False,
            **({"game": title} if title else {}),
        },
        tokens["play-alice"],
    )
    game_id = doc["id"]
    print(f"table {game_id} opened; seed hash {doc['seed_hash']}")
    doc = http(base, "POST", f"/api/games/{game_id}/join", None, tokens["play-bob"])
    print(f"bob joined; status {doc['status']}; seats {[s['username'] for s in doc['seats']]}")
    finals = await asyncio.gather(
        player(base, "play-alice", tokens["play-alice"], game_id, 1),
        player(base, "play-bob", tokens["play-bob"], game_id, 2),
    )
    result = finals[0]["result"]
    print(f"game over at version {finals[0]['version']}: {result}")
    export = http(base, "GET", f"/api/games/{game_id}/export", None, tokens["play-alice"])
    sys.path.insert(0, str(ROOT))
    from games.engine import get_rules

    engine = get_rules(export["game"])
    state = engine.setup(len(export["players"]), export["seed"], export["options"])
    for move in export["moves"]:
        state, _ = engine.apply(state, move["seat"], move["action"])
    replayed = engine.result(state)
    ok = replayed == result["scores"]
    print(f"replayed {len(export['moves'])} moves from the published seed: scores {replayed} "
          f"{'match' if ok else 'DO NOT match'}")  # fmt: skip
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running site (default: start one)")
    parser.add_argument("--title", help="the title's slug (default: the site's default title)")
    args = parser.parse_args()
    ensure_users()
    procs: list[subprocess.Popen[bytes]] = []
    base = args.url
    if base is None:
        port = free_port()
        procs = start_site(port)
        base = f"http://127.0.0.1:{port}"
    try:
        code = asyncio.run(play(base.rstrip("/"), args.title))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    sys.exit(code)


if __name__ == "__main__":
    main()
