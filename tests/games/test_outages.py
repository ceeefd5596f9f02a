"""Outages of Redis and PostgreSQL, with real servers that are stopped and started again.

A live server (uvicorn, tests/games/live.py) is pointed at a private Redis or a private
PostgreSQL cluster of its own (tests/games/outage.py), so stopping it troubles no other
test. What is checked is what a player or an operator notices: the status of a move, what
is in the database, what a socket receives, what a page shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games.live.broadcast import group_name
from games.models import Game, Move
from games.tables import lifecycle
from tests.fixtures import channel_prefix
from tests.games.live import ROOT, Socket, live_server
from tests.games.outage import PrivatePostgres, PrivateRedis, private_postgres, private_redis
from tests.play import mover
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]


def call(
    base: str, path: str, *, token: str | None = None, body: Any = None, timeout: float = 30
) -> tuple[int, bytes]:
    """One HTTP call to the live server: (status, body). A client that waits ``timeout``
    seconds, no longer: an answer that does not come within it fails the test."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(  # noqa: S310
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def move(base: str, game_id: int, token: str, *, timeout: float = 30) -> tuple[int, bytes]:
    """Make the first legal action of the token's seat through the live server's API."""
    status, body = call(base, f"/api/games/{game_id}", token=token)
    assert status == 200, body
    doc = json.loads(body)
    assert doc["my_seat"] in doc["to_act"], doc
    assert doc["legal_actions"], doc
    action = doc["legal_actions"][0]
    if action["type"] in ("bid", "sale_bid") and "hand" in (doc["view"] or {}):
        action = {**action, "cowboys": doc["view"]["hand"][:2]}
    return call(
        base,
        f"/api/games/{game_id}/actions",
        token=token,
        body={"action": action, "version": doc["version"]},
        timeout=timeout,
    )


def started_game(make_user: Callable[..., User], *, bots: list[str]) -> tuple[Game, list[User]]:
    users = [make_user() for _ in range(2)]
    game = lifecycle.game_create(
        creator=users[0],
        players=2 + len(bots),
        bots=bots,
        invite=[users[1].username],
        options={"flags": "random"},
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, users


# --- Redis ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_server() -> Iterator[PrivateRedis]:
    with private_redis() as server:
        yield server


@pytest.fixture(scope="module")
def redis_site(
    django_db_setup: None, django_db_blocker: Any, worker_id: str, redis_server: PrivateRedis
) -> Iterator[str]:
    """A live server whose cache, channel layer and broker are the private Redis."""
    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    with live_server(
        database_name=name,
        channel_prefix=channel_prefix(worker_id),
        env={"REDIS_URL": redis_server.url, "SOCKET_RESYNC_SECONDS": "3"},
    ) as base:
        yield base


@pytest.fixture
def redis_up(redis_server: PrivateRedis) -> Iterator[PrivateRedis]:
    """Every test starts and ends with the private Redis running."""
    if redis_server.proc is None:
        redis_server.start()
    yield redis_server
    if redis_server.proc is None:
        redis_server.start()


def test_moves_answer_200_while_redis_is_down(
    redis_site: str, redis_up: PrivateRedis, make_user: Callable[..., User]
) -> None:
    game, users = started_game(make_user, bots=["random"])
    tokens = {u.pk: token_create(user=u) for u in users}
    bot_seat = game.seats.get(user__is_bot=True).seat
    redis_up.stop()
    for _ in range(10):  # until a person's move is due to wake the bot (its broker is down)
        player, _doc = mover(game, *users)
        before = Move.objects.filter(game=game).count()
        # No long hang on a dead Redis: answered to a client that waits 10 s at most
        # (measured: under 1 s).
        status, body = move(redis_site, game.pk, tokens[player.pk], timeout=10)
        assert status == 200, body
        assert Move.objects.filter(game=game).count() == before + 1
        game.refresh_from_db()
        if bot_seat in game.to_act:
            break
    assert bot_seat in game.to_act
    # Reads that count anonymous callers in the cache, the health check and a page degrade.
    for path in (f"/api/games/{game.pk}", "/healthz", f"/games/{game.pk}/", "/accounts/login/"):
        status, body = call(redis_site, path)
        assert status == 200, (path, body[:300])
    redis_up.start()
    # The lost bot move is the periodic sweep's to heal; a person's move works again at once.
    other, people = started_game(make_user, bots=[])
    player, _doc = mover(other, *people)
    status, body = move(redis_site, other.pk, token_create(user=player))
    assert status == 200, body
    assert Move.objects.filter(game=other).count() == 1


RESYNC_SECONDS = 3  # SOCKET_RESYNC_SECONDS of the live server above
# A socket is up to date within SOCKET_RESYNC_SECONDS + 1 s (games/live/consumers.py); the rest
# is room for a loaded test machine.
RESYNC_BOUND = RESYNC_SECONDS + 1 + 2


def group_reaches(sock: Socket, game: Game, redis: PrivateRedis, worker_id: str) -> None:
    """Wait until a message sent to the game's group over the channel layer (the private
    Redis, the live server's prefix) reaches ``sock``: the server has subscribed the group
    again. The message asks for a redraw (``refresh``), which only a group message brings:
    the version watch sends nothing for a version the socket already shows."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    async def publish() -> None:
        layer = RedisPubSubChannelLayer(
            hosts=[{"address": redis.url}], prefix=channel_prefix(worker_id)
        )
        try:
            await layer.group_send(group_name(game.pk), {"type": "game.update", "refresh": True})
        finally:
            await layer.flush()

    def delivered() -> bool:
        async_to_sync(publish)()  # Pub/Sub keeps nothing: sent again until it arrives
        try:
            sock.wait_for(lambda f: f.get("refresh") is True, timeout=0.5)
        except TimeoutError:
            return False
        return True

    wait_until(delivered, timeout=30, message="a group message reaching the socket")


def test_sockets_catch_up_on_what_they_missed_while_redis_was_down(
    redis_site: str, redis_up: PrivateRedis, make_user: Callable[..., User], worker_id: str
) -> None:
    game, users = started_game(make_user, bots=[])
    tokens = {u.pk: token_create(user=u) for u in users}
    client = Client()
    client.force_login(users[0])
    url = redis_site.replace("http", "ws", 1) + f"/ws/games/{game.pk}/"
    player = Socket(url, origin=redis_site, cookie=f"sessionid={client.cookies['sessionid'].value}")
    watcher = Socket(url, origin=redis_site)
    socks = [player, watcher]

    def reaches_all(version: int, within: float) -> None:
        started = time.monotonic()
        for sock in socks:
            left = within - (time.monotonic() - started)
            frame = sock.wait_for(lambda f: f.get("version") == version, timeout=max(left, 0))
            assert frame["type"] == "game"

    def next_move() -> int:
        person, _doc = mover(game, *users)
        status, body = move(redis_site, game.pk, tokens[person.pk])
        assert status == 200, body
        return int(json.loads(body)["version"])

    try:
        reaches_all(1, within=20)
        redis_up.stop()
        # The move's frames are lost with the layer; the sockets still learn of it.
        reaches_all(next_move(), within=RESYNC_BOUND)
        redis_up.start()
        reaches_all(next_move(), within=RESYNC_BOUND)
        # The layer has subscribed the game's group again, and moves go on reaching both.
        for sock in socks:
            group_reaches(sock, game, redis_up, worker_id)
        for _ in range(2):
            reaches_all(next_move(), within=RESYNC_BOUND)
        assert player.closed_code is None
        assert watcher.closed_code is None
    finally:
        for sock in socks:
            sock.close()


def test_a_socket_opened_while_redis_is_down_follows_the_game(
    redis_site: str, redis_up: PrivateRedis, make_user: Callable[..., User], worker_id: str
) -> None:
    game, users = started_game(make_user, bots=[])
    tokens = {u.pk: token_create(user=u) for u in users}
    url = redis_site.replace("http", "ws", 1) + f"/ws/games/{game.pk}/"

    def next_move() -> int:
        person, _doc = mover(game, *users)
        status, body = move(redis_site, game.pk, tokens[person.pk])
        assert status == 200, body
        return int(json.loads(body)["version"])

    def reaches(version: int, within: float) -> None:
        watcher.wait_for(lambda f: f.get("version") == version, timeout=within)

    redis_up.stop()
    watcher = Socket(url, origin=redis_site)  # opens although it cannot join its group
    try:
        reaches(1, within=20)
        reaches(next_move(), within=RESYNC_BOUND)
        redis_up.start()
        reaches(next_move(), within=RESYNC_BOUND)
        # The watch joins the socket to its group once Redis is back.
        group_reaches(watcher, game, redis_up, worker_id)
        for _ in range(2):
            reaches(next_move(), within=RESYNC_BOUND)
        assert watcher.closed_code is None
    finally:
        watcher.close()


# --- PostgreSQL ----------------------------------------------------------------------------

PREPARE = """
from django.test import Client
from accounts.models import User
from accounts.services import token_create
from games.tables import lifecycle
alice = User.objects.create_user(username="alice", password="a-long-password-42")
bob = User.objects.create_user(username="bob", password="a-long-password-42")
game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], options={"flags": "random"})
lifecycle.game_join(game_id=game.pk, user=bob)
client = Client()
client.force_login(alice)
print(game.pk, token_create(user=alice), client.cookies["sessionid"].value)
"""


# The live server's wait for a pooled connection (DATABASE_POOL_TIMEOUT). Each borrowed
# connection is checked and a dead one replaced, with the pool's backoff between tries (1 s,
# 2 s, ...): after a restart the first request may wait a few seconds for a live one; with
# the database down the first request of a process waits this long, then the process knows
# and answers the others at once.
POOL_TIMEOUT = 8


@pytest.fixture(scope="module", params=["0", "1"], ids=["production", "debug"])
def postgres_site(
    request: pytest.FixtureRequest, worker_id: str
) -> Iterator[tuple[str, PrivatePostgres, dict[str, Any]]]:
    """A live server on a private PostgreSQL cluster (migrated, with a running game of
    alice's), its cluster, and alice's game id, API token and session cookie; with DEBUG
    off as in production, and on (django-ninja then answers a failed call with a 500 of its
    own, which must become the 503 too)."""
    with private_postgres() as server:
        subprocess.run(
            ["/usr/lib/postgresql/15/bin/createdb", "-h", "127.0.0.1", "-p", str(server.port),
             "-U", "postgres", "colorado"],
            check=True,
        )  # fmt: skip
        env = {
            **os.environ,
            "DATABASE_URL": server.url("colorado"),
            "DJANGO_ENV": "test",
            "LOG_LEVEL": "WARNING",
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        out = subprocess.run(
            [*manage, "shell", "-c", PREPARE], cwd=ROOT, env=env, check=True, capture_output=True
        )
        game_id, token, session = out.stdout.decode().split()[-3:]
        with live_server(
            database_name="colorado",
            channel_prefix=channel_prefix(worker_id),
            env={
                "DATABASE_URL": server.url("colorado"),
                "DEBUG": request.param,
                "DATABASE_POOL_TIMEOUT": str(POOL_TIMEOUT),
            },
        ) as base:
            yield base, server, {"game": int(game_id), "token": token, "session": session}


def get(base: str, path: str, *, timeout: float = 60, **headers: str) -> tuple[int, str, bytes]:
    """GET ``path``: (status, content type, body), by a client that waits ``timeout``
    seconds at most (no answer within it fails the test)."""
    request = urllib.request.Request(base + path, headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:  # noqa: S310
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as exc:
        kind = exc.headers["Content-Type"]
        return exc.code, kind, exc.read()


def test_postgres_down_answers_503_unavailable_and_recovers_by_itself(
    postgres_site: tuple[str, PrivatePostgres, dict[str, Any]],
) -> None:
    base, server, alice = postgres_site
    api = f"/api/games/{alice['game']}"
    page = f"/games/{alice['game']}/"
    bearer = {"Authorization": f"Bearer {alice['token']}"}
    cookie = {"Cookie": f"sessionid={alice['session']}"}
    calls = [(api, bearer), (api, {}), (page, cookie), (page, {}), ("/", cookie)]
    for path, headers in calls:
        status, _, body = get(base, path, **headers)
        assert status == 200, (path, body[:300])
    server.stop()
    try:
        for n, (path, headers) in enumerate(calls):
            # The first waits for the pool once; the others do not wait for it: each is
            # answered to a client that gives up before a wait for the pool would end.
            limit = POOL_TIMEOUT + 10 if n == 0 else POOL_TIMEOUT - 2
            status, kind, body = get(base, path, timeout=limit, **headers)
            assert status == 503, (path, headers, body[:500])
            if path.startswith("/api/"):
                assert kind == "application/json"
                error = json.loads(body)
                assert error["code"] == "unavailable"
                assert error["message"]
            else:
                assert kind.startswith("text/html")
                text = body.decode()
                assert "Colorado County" in text  # the site's frame
                assert "Traceback" not in text
                assert "psycopg" not in text
                assert "alice" not in text  # rendered without the request's user
        status, _, _ = get(base, "/healthz")
        assert status == 503
    finally:
        server.start()
    for path, headers in calls:
        # The server is not restarted: its pool reconnects by itself.
        wait_until(
            lambda p=path, h=headers: get(base, p, **h)[0] == 200,
            timeout=30,
            interval=0.5,
            message=f"{path} answering 200 again",
        )


def test_after_a_quick_postgres_restart_no_request_fails(
    postgres_site: tuple[str, PrivatePostgres, dict[str, Any]],
) -> None:
    """PostgreSQL restarts while nobody calls (a deploy, a failover): the pooled
    connections of the server died with it. The calls that follow must all answer 200 —
    the fault drill (scripts/drill.py) saw 8 answers 503 after /healthz said the site was
    back, one per dead pooled connection borrowed."""
    base, server, alice = postgres_site
    api = f"/api/games/{alice['game']}"
    bearer = {"Authorization": f"Bearer {alice['token']}"}
    for _ in range(5):  # the pool keeps a few connections
        assert get(base, api, **bearer)[0] == 200
    server.stop()
    server.start()
    answers = [get(base, api, **bearer)[0] for _ in range(12)]
    assert answers == [200] * 12
