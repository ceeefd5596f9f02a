"""Live table over real WebSockets with the Redis channel layer: a second server process
(uvicorn) serves the sockets while moves are made in this process or through that server's
HTTP API. Every frame is the receiver's own view, and no frame, response or log entry ever
holds another seat's cowboys or unrevealed bid."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games import moves
from games.engine import get_rules
from games.models import Game, Move
from games.selectors import documents
from games.tables import lifecycle
from games.tables.chat import chat_post
from tests.fixtures import channel_prefix
from tests.games.fixtures import ApiClient
from tests.games.live import Socket, live_server, socket_ticket
from tests.waiting import stays

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]

PRIVATE_KEYS = {"hand", "my_bid", "my_sale_bid", "my_interest"}
PRIVATE_EVENTS = {"cowboys_drawn_detail", "my_bid", "my_sale_bid", "my_sale_interest"}


@pytest.fixture(scope="module")
def server(django_db_setup: None, django_db_blocker: Any, worker_id: str) -> Iterator[str]:
    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    with live_server(database_name=name, channel_prefix=channel_prefix(worker_id)) as base:
        yield base


def _socket(
    base: str,
    game_id: int,
    *,
    token: str | None = None,
    ticket: str | None = None,
    cookie: str | None = None,
) -> Socket:
    """A socket as the page opens it: with a ticket bought with ``token`` (or ``ticket``)."""
    url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
    if token:
        ticket = socket_ticket(base, token)
    if ticket:
        url += f"?ticket={ticket}"
    return Socket(url, origin=base, cookie=cookie)


class Truth:
    """The engine's states replayed from the seed: what each version really was."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.engine = get_rules(game.title)
        self.states: dict[int, Any] = {
            1: self.engine.setup(game.num_players, game.seed, game.options)
        }

    def state(self, version: int) -> Any:
        if version not in self.states:
            last = max(self.states)
            state = self.states[last]
            for move in Move.objects.filter(
                game=self.game, version__gt=last, version__lte=version
            ).order_by("version"):
                state, _ = self.engine.apply(state, move.seat, move.action)
                self.states[move.version] = state
        return self.states[version]

    def view(self, version: int, seat: int | None) -> Any:
        return json.loads(json.dumps(self.engine.view(self.state(version), seat)))


def check_private(payload: Any, me: int | None, *, seed: str, path: str = "") -> None:
    """No private key outside my own view, no private event of another seat, no seed."""
    if isinstance(payload, dict):
        kind = payload.get("type")
        if kind in PRIVATE_EVENTS:
            assert me is not None, f"{path}: spectator got {kind}"
            assert payload.get("seat") == me, f"{path}: seat {me} got {payload}"
        if kind == "sale_paid":
            assert me in (payload["buyer"], payload["seller"]), f"{path}: {payload}"
        if kind in ("bid_submitted", "sale_bid_submitted"):
            assert "cowboys" not in payload, f"{path}: {payload}"
        for key, value in payload.items():
            if key in PRIVATE_KEYS and value is not None:
                assert me is not None, f"{path}.{key} sent to a spectator"
            assert key not in ("seed", "state"), f"{path}.{key} leaked"
            check_private(value, me, seed=seed, path=f"{path}.{key}")
    elif isinstance(payload, list):
        for i, item in enumerate(payload):
            check_private(item, me, seed=seed, path=f"{path}[{i}]")
    elif isinstance(payload, str):
        assert seed not in payload


def check_document(doc: dict[str, Any], me: int | None, truth: Truth, seed: str) -> None:
    check_private(doc, me, seed=seed)
    if doc.get("view") is not None:
        assert doc["view"] == truth.view(doc["version"], me)
        assert doc["view"]["seat"] == me


def _game_with(
    make_user: Callable[..., User], players: int, bots: list[str], **kw: Any
) -> tuple[Game, list[User]]:
    users = [make_user() for _ in range(players - len(bots))]
    invite = [u.username for u in users[1:]]
    game = lifecycle.game_create(creator=users[0], players=players, bots=bots, invite=invite, **kw)
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, users


def test_socket_authorisation(server: str, make_user: Callable[..., User]) -> None:
    public, (alice, _bob) = _game_with(make_user, 2, [], options={"flags": "random"})
    private, (carol, _dave) = _game_with(
        make_user, 2, [], options={"flags": "random"}, open_seats=False
    )
    outsider = make_user()
    cases = [
        (public.pk, None, "spectator"),
        (private.pk, None, 4403),
        (private.pk, token_create(user=outsider), 4403),  # invitation-only: players only
        (private.pk, token_create(user=carol), "player"),
        (public.pk, "not-a-ticket", 4403),
        (999_999, token_create(user=alice), 4404),
    ]
    for game_id, token, expected in cases:
        if token == "not-a-ticket":
            sock = _socket(server, game_id, ticket=token)
        else:
            sock = _socket(server, game_id, token=token)
        try:
            if isinstance(expected, int):
                with pytest.raises(TimeoutError):
                    sock.wait_for(lambda f: True, timeout=3)
                assert sock.closed_code in (expected, 403), (game_id, token, sock.closed_code)
            else:
                frame = sock.wait_for(lambda f: f["type"] == "game")
                assert (frame["my_seat"] is None) == (expected == "spectator")
                assert ("hand" in frame["view"]) == (expected == "player")
        finally:
            sock.close()


def test_session_cookie_socket_gets_my_view(server: str, make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = _game_with(make_user, 2, [], options={"flags": "random"})
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    sock = _socket(server, game.pk, cookie=cookie)
    try:
        frame = sock.wait_for(lambda f: f["type"] == "game")
        assert frame["my_seat"] == game.seats.get(user=alice).seat
        # An idle socket stays open (longer than Redis client timeouts).
        stays(lambda: sock.closed_code is None, 7, message="the idle socket open")
        sock.send({"type": "hello", "version": 0})
        again = sock.wait_for(lambda f: f["type"] == "game" and f["events"])
        assert again["events"][0]["version"] == 1
    finally:
        sock.close()


def test_moves_reach_every_socket_with_its_own_view(
    server: str, make_user: Callable[..., User]
) -> None:
    game, users = _game_with(make_user, 3, [], options={"flags": "random"})
    truth = Truth(game)
    seats = {u.pk: game.seats.get(user=u).seat for u in users}
    socks = {u.pk: _socket(server, game.pk, token=token_create(user=u)) for u in users}
    watcher = _socket(server, game.pk)
    try:
        for sock in [*socks.values(), watcher]:
            sock.wait_for(lambda f: f["type"] == "game" and f["version"] == 1)
        # A bid made in THIS process reaches the sockets held by the other server.
        hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
        moves.action_submit(
            game_id=game.pk, user=users[0], action={"type": "bid", "cowboys": hand[:2]}
        )
        for user in users:
            frame = socks[user.pk].wait_for(lambda f: f.get("version") == 2)
            check_document(frame, seats[user.pk], truth, game.seed)
            assert frame["view"]["hand"] == truth.view(2, seats[user.pk])["hand"]
            mine = [e for e in frame["events"] if e["type"] == "my_bid"]
            assert bool(mine) == (user == users[0])
        spectator = watcher.wait_for(lambda f: f.get("version") == 2)
        check_document(spectator, None, truth, game.seed)
        # A bid made through the OTHER server's HTTP API reaches the sockets as well.
        token = token_create(user=users[1])
        import urllib.request

        request = urllib.request.Request(  # noqa: S310
            f"{server}/api/games/{game.pk}/actions",
            data=json.dumps({"action": {"type": "bid", "cowboys": []}}).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            assert response.status == 200
        for user in users:
            frame = socks[user.pk].wait_for(lambda f: f.get("version") == 3)
            check_document(frame, seats[user.pk], truth, game.seed)
        # Chat reaches sockets too.
        chat_post(game_id=game.pk, user=users[2], text="nice bid")
        chat = watcher.wait_for(lambda f: f["type"] == "chat")
        assert chat["text"] == "nice bid"
    finally:
        for sock in [*socks.values(), watcher]:
            sock.close()


@pytest.mark.timeout(900)  # whole games through HTTP and sockets; slow on a loaded machine
@pytest.mark.parametrize(("players", "bots", "seed"), [(4, ["random"], 11), (3, [], 12)])
def test_hidden_information_never_leaks_through_api_log_or_socket(
    server: str,
    make_user: Callable[..., User],
    players: int,
    bots: list[str],
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The players and the spectator below read the table after every move, as fast as the
    # machine plays: over the anonymous limit of 60 calls a minute and, on a fast run, the
    # signed-in one of 600 (a CI run got a 429 there); the limits have tests of their own.
    from colorado.throttling import AnonymousRateThrottle, UserRateThrottle

    for throttle in (AnonymousRateThrottle, UserRateThrottle):
        monkeypatch.setattr(throttle, "allow_request", lambda self, request: True)
    game, users = _game_with(make_user, players, bots, options={"lakes": "random"})
    truth = Truth(game)
    seats = {u.pk: game.seats.get(user=u).seat for u in users}
    clients = {u.pk: ApiClient(u) for u in users}
    socks = {u.pk: _socket(server, game.pk, token=token_create(user=u)) for u in users}
    watcher = _socket(server, game.pk)
    anonymous = ApiClient(None)
    rng = random.Random(seed)  # noqa: S311
    checked = 0
    still, seen = 0, -1
    try:
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING:
                break
            still = still + 1 if game.version == seen else 0
            seen = game.version
            assert still < 50, f"every move refused at version {seen} (to_act {game.to_act})"
            moved = False
            for user in users:
                answer = clients[user.pk].get(f"/api/games/{game.pk}")
                assert answer.status_code == 200, answer.content
                doc = answer.json()
                check_document(doc, seats[user.pk], truth, game.seed)
                checked += 1
                if doc["my_seat"] in doc["to_act"] and doc["legal_actions"]:
                    legal = doc["legal_actions"]
                    action = rng.choice(legal)
                    # Bids of two cowboys (legal_actions lists them one at a time): from the
                    # whole hand for a round's bid, from the cowboys not yet committed to it
                    # for a sale bid (a bid of committed ones is refused every time, and the
                    # game would stand still).
                    if action["type"] in ("bid", "sale_bid"):
                        pool = [
                            c for a in legal if a["type"] == action["type"] for c in a["cowboys"]
                        ]
                        if action["type"] == "bid":
                            pool = list(doc["view"]["hand"])
                        if len(pool) > 2:
                            action = {**action, "cowboys": rng.sample(pool, 2)}
                    response = clients[user.pk].post(
                        f"/api/games/{game.pk}/actions",
                        {"action": action, "version": doc["version"]},
                    )
                    assert response.status_code in (200, 409, 422), response.content
                    check_private(response.json(), seats[user.pk], seed=game.seed)
                    moved = True
            spectator = anonymous.get(f"/api/games/{game.pk}").json()
            check_document(spectator, None, truth, game.seed)
            assert moved or game.to_act == []
        # The whole log, for each seat and a spectator, and every socket frame received.
        for user in users:
            log = clients[user.pk].get(f"/api/games/{game.pk}/log").json()
            check_private(log, seats[user.pk], seed=game.seed)
        check_private(anonymous.get(f"/api/games/{game.pk}/log").json(), None, seed=game.seed)
        final = game.version
        # The test moves as fast as it can; the sockets' server may lag behind, never stall.
        for user in users:
            socks[user.pk].wait_for(lambda f: f.get("version") == final, timeout=180)
        watcher.wait_for(lambda f: f.get("version") == final, timeout=180)
        for user in users:
            for frame in socks[user.pk].frames:
                if frame["type"] == "game" and frame["status"] == "running":
                    check_document(frame, seats[user.pk], truth, game.seed)
        for frame in watcher.frames:
            if frame["type"] == "game" and frame["status"] == "running":
                check_document(frame, None, truth, game.seed)
        assert sum(len(s.frames) for s in socks.values()) > game.version
    finally:
        for sock in [*socks.values(), watcher]:
            sock.close()
    assert checked > 50
    export = anonymous.get(f"/api/games/{game.pk}/export").json()
    assert export["seed"] == game.seed  # published at the end, and only then


def test_origin_rules_for_cookie_and_script_sockets(
    server: str, make_user: Callable[..., User]
) -> None:
    """A script with a ticket or an Authorization header may omit Origin; a cookie socket
    must come from our Origin."""
    game, (alice, _bob) = _game_with(make_user, 2, [], options={"flags": "random"})
    url = server.replace("http", "ws", 1) + f"/ws/games/{game.pk}/"
    token = token_create(user=alice)
    for script in (
        Socket(f"{url}?ticket={socket_ticket(server, token)}", origin=None),
        Socket(url, origin=None, headers={"Authorization": f"Bearer {token}"}),
    ):
        try:
            frame = script.wait_for(lambda f: f["type"] == "game")
            assert frame["my_seat"] == game.seats.get(user=alice).seat
        finally:
            script.close()
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    for origin in (None, "http://evil.example"):
        sock = Socket(url, origin=origin, cookie=cookie)
        try:
            assert not sock.frames
            assert sock.closed_code is not None
        finally:
            sock.close()
