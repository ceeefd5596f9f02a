#!/usr/bin/env python3
"""The move path alone, without HTTP or sockets (not a timed test).

Plays ``--games`` four-player games of random legal moves through
``games.moves.answer.answer`` (one move of the service both the socket and the HTTP
endpoint reach through ``games.moves.queue``: the move's transaction, the frames of every
seat published to the channel layer, the mover's answer) in one thread, and prints per
move: the calling thread's CPU time, the process's
(the publish runs in the channel layer's sender thread), the wall time, and the SQL
statements sent through Django in the calling thread (``BEGIN`` and ``COMMIT`` not
counted). CPU time is much less sensitive to other work on the machine than a rate, so two
versions of the move path can be compared on a busy machine. With ``--via http`` each move
is posted to ``/api/games/<id>/actions`` through Django's test client instead (bearer
token, the whole middleware stack, ninja; the move itself runs in a database thread).

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/move_path.py

Instructions, which no load changes: each move is called through ``operator.call`` (a C
function nothing else on the path calls), so callgrind can collect the moves alone, and
``--deal`` fixes the game's seed so that two trees play the same game::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=_operator_call \\
        .venv/bin/python bench/move_path.py --games 1 --deal 5eed5eed5eed5eed5eed5eed5eed5eed
"""

from __future__ import annotations

import argparse
import hashlib
import json
import operator
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from load_server import BENCH_CAPS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--via",
        choices=["call", "http"],
        default="call",
        help="call: games.moves.answer.answer in this thread; http: POST /api/games/<id>/actions "
        "through Django's whole stack (test client, bearer token, middleware, ninja)",
    )
    parser.add_argument(
        "--deal",
        metavar="SEED",
        help="the games' seed (set before they start): the same deal, hence with --seed the "
        "same game, in every run and tree",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="write a cProfile of the moves alone (not the bench's own reads) to FILE",
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    # As the servers the other benches start run: without DEBUG's query log and the
    # cursors' debug wrappers, which the move path would otherwise pay for here alone.
    os.environ.setdefault("DEBUG", "0")
    # The site's per-account caps raised (tables and invitations an hour), as in the
    # servers the other benches start: the bench's accounts open a table per game.
    for name, value in BENCH_CAPS.items():
        os.environ.setdefault(name, value)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection

    from accounts.models import User
    from games.models import Game
    from games.moves import answer as move_answer
    from games.selectors import documents
    from games.tables import lifecycle

    statements = [0]

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements[0] += 1
        return execute(sql, params, many, context)

    users = [User.objects.get_or_create(username=f"bench-move-{i}")[0] for i in range(args.players)]
    clients: dict[int, Any] = {}
    if args.via == "http":
        from django.test import Client

        from accounts.services import token_create

        for u in users:
            clients[u.pk] = Client(
                HTTP_AUTHORIZATION=f"Bearer {token_create(user=u)}", HTTP_HOST="127.0.0.1"
            )
    rng = random.Random(args.seed)
    cpu, wall, sql = [], [], []
    process_cpu = 0.0
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for _ in range(args.games):
        game = lifecycle.game_create(  # the title named: the default one is a setting
            creator=users[0],
            title="colorado-county",
            players=args.players,
            invite=[u.username for u in users[1:]],
        )
        if args.deal:
            Game.objects.filter(pk=game.pk).update(
                seed=args.deal, seed_hash=hashlib.sha256(args.deal.encode()).hexdigest()
            )
        for user in users[1:]:
            game = lifecycle.game_join(game_id=game.pk, user=user)
        while game.status == Game.Status.RUNNING:
            game.refresh_from_db()
            docs = [(u, documents.game_document(game=game, user=u)) for u in users]
            due = [(u, d) for u, d in docs if d["my_seat"] in d["to_act"] and d["legal_actions"]]
            if not due:
                break
            user, doc = rng.choice(due)
            action = rng.choice(doc["legal_actions"])
            statements[0] = 0
            c0, w0, p0 = time.thread_time(), time.perf_counter(), time.process_time()
            if profiler is not None:
                profiler.enable()
            with connection.execute_wrapper(count):
                if args.via == "http":
                    response = operator.call(
                        clients[user.pk].post,
                        f"/api/games/{game.pk}/actions",
                        {
                            "action": action,
                            "version": doc["version"],
                            "client_id": f"m{rng.random()}",
                        },
                        content_type="application/json",
                    )
                    status, _body = response.status_code, response.content[:300]
                else:
                    status, _body = operator.call(
                        move_answer.answer,
                        game_id=game.pk,
                        user=user,
                        action=action,
                        version=doc["version"],
                        client_id=f"m{rng.random()}",
                    )
            if profiler is not None:
                profiler.disable()
            cpu.append(time.thread_time() - c0)
            process_cpu += time.process_time() - p0
            wall.append(time.perf_counter() - w0)
            sql.append(statements[0])
            if status != 200:
                raise SystemExit(f"refused: {status} {_body}")
            game.refresh_from_db()
    if profiler is not None:
        profiler.dump_stats(args.profile)
    print(
        json.dumps(
            {
                "moves": len(cpu),
                "cpu_ms_mean": round(statistics.fmean(cpu) * 1000, 3),
                "cpu_ms_median": round(statistics.median(cpu) * 1000, 3),
                "process_cpu_ms_mean": round(process_cpu / len(cpu) * 1000, 3),
                "wall_ms_median": round(statistics.median(wall) * 1000, 3),
                "statements_mean": round(statistics.fmean(sql), 2),
                "statements_max": max(sql),
                "load_average": [round(x, 2) for x in os.getloadavg()],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
