"""The JSON game API (docs/api.md): shapes, status codes, errors, and who may do what."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import moves
from games.engine import get_rules
from games.models import Game, Move
from games.tables import lifecycle
from games.tables.chat import chat_post
from games.tables.handover import seat_hand_to_bot
from tests.games.fixtures import ApiClient
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

Api = Callable[[User | None], ApiClient]
DOC_KEYS = {"id", "game", "status", "version", "seats", "my_seat", "to_act", "view"}
DOC_KEYS |= {"legal_actions", "result", "seed_hash"}


def _running(make_user: Callable[..., User], *, public: bool = True) -> tuple[Game, list[User]]:
    users = [make_user(), make_user()]
    game = lifecycle.game_create(
        creator=users[0],
        players=2,
        options={"flags": "random"},
        invite=[] if public else [users[1].username],
        open_seats=public,
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def test_create_join_and_read_a_table(api: Api, make_user: Callable[..., User]) -> None:
    alice, bob = make_user(), make_user()
    response = api(alice).post(
        "/api/games",
        {"players": 3, "bots": ["greedy"], "clock": {"initial_hours": 0.5, "increment_hours": 1}},
    )
    assert response.status_code == 201, response.content
    doc = response.json()
    assert set(doc) >= DOC_KEYS
    assert doc["status"] == "open"
    assert doc["clock"]["initial_hours"] == 0.5
    assert [s["is_bot"] for s in doc["seats"]] == [False, True]
    listed = api(None).get("/api/games?status=open").json()
    assert doc["id"] in [g["id"] for g in listed]
    assert all("view" not in g for g in listed)
    joined = api(bob).post(f"/api/games/{doc['id']}/join")
    assert joined.status_code == 200
    mine = joined.json()
    assert mine["status"] == "running"
    assert mine["my_seat"] in (0, 1, 2)
    assert mine["view"]["hand"]
    assert mine["legal_actions"] or mine["my_seat"] not in mine["to_act"]
    late = api(make_user()).post(f"/api/games/{doc['id']}/join")
    assert (late.status_code, late.json()["code"]) == (409, "not_open")


def test_full_open_table_says_table_full(api: Api, make_user: Callable[..., User]) -> None:
    # An open table whose seats are taken by people but not started: not possible (it
    # starts), so a table is full only once running; a three-seat table mid-way is joinable.
    alice = make_user()
    game = lifecycle.game_create(creator=alice, players=2)
    response = api(make_user()).post(f"/api/games/{game.pk}/join")
    assert response.status_code == 200
    assert api(make_user()).post(f"/api/games/{game.pk}/join").status_code == 409


def test_actions_versions_retries_and_illegal_moves(
    api: Api, make_user: Callable[..., User]
) -> None:
    game, (alice, bob) = _running(make_user)
    client = api(alice)
    doc = client.get(f"/api/games/{game.pk}").json()
    hand = doc["view"]["hand"]
    body = {"action": {"type": "bid", "cowboys": hand[:2]}, "version": 1, "client_id": "a-1"}
    first = client.post(f"/api/games/{game.pk}/actions", body)
    assert first.status_code == 200
    assert first.json()["view"]["my_bid"] == sorted(hand[:2])
    again = client.post(f"/api/games/{game.pk}/actions", body)
    assert again.status_code == 200
    assert Move.objects.filter(game=game).count() == 1
    illegal = client.post(
        f"/api/games/{game.pk}/actions", {"action": {"type": "bid", "cowboys": [999]}}
    )
    assert illegal.status_code == 422
    assert set(illegal.json()) == {"code", "message"}
    assert illegal.json()["code"] == "cowboy_not_held"
    # Bob's bid reveals both; Alice's choices change at version 3.
    api(bob).post(f"/api/games/{game.pk}/actions", {"action": {"type": "bid", "cowboys": []}})
    stale = client.post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "bid", "cowboys": []}, "version": 2, "client_id": "a-2"},
    )
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["current"]["version"] == 3
    assert stale.json()["current"]["my_seat"] is not None


def test_log_since_a_version(api: Api, make_user: Callable[..., User]) -> None:
    game, users = _running(make_user)
    for user in users:
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": []})
    everything = api(users[0]).get(f"/api/games/{game.pk}/log").json()
    assert everything[0]["version"] == 1
    later = api(users[0]).get(f"/api/games/{game.pk}/log?since=2").json()
    assert later
    assert all(e["version"] > 2 for e in later)
    assert "bids_revealed" in [e["type"] for e in later]


def test_log_since_my_version_lists_what_was_said_and_done_at_it(
    api: Api, make_user: Callable[..., User]
) -> None:
    """A client polling ``log?since=<the version I last saw>`` gets the chat said and the
    seats handed to a bot while the table stood at that version (they carry the version
    they followed), and not again once it has seen a later version."""
    users = [make_user(), make_user()]
    game = lifecycle.game_create(creator=users[0], players=2, options={"flags": "random"})
    chat_post(game_id=game.pk, user=users[0], text="anyone?")  # open table: version 0
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    seen = game.version
    chat_post(game_id=game.pk, user=users[1], text="howdy")
    polled = api(users[0]).get(f"/api/games/{game.pk}/log?since={seen}").json()
    assert [e["text"] for e in polled if e["type"] == "chat"] == ["howdy"]
    everything = api(users[0]).get(f"/api/games/{game.pk}/log?since=0").json()
    assert [e["text"] for e in everything if e["type"] == "chat"] == ["anyone?", "howdy"]

    for user in users:
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": []})
    game.refresh_from_db()
    after = api(users[0]).get(f"/api/games/{game.pk}/log?since={game.version}").json()
    assert [e for e in after if e["type"] == "chat"] == []

    seen = game.version
    seat_hand_to_bot(game_id=game.pk, seat=1, reason="resign")
    polled = api(users[0]).get(f"/api/games/{game.pk}/log?since={seen}").json()
    handovers = [e for e in polled if e["type"] == "seat_handed_to_bot"]
    assert [(e["seat"], e["version"]) for e in handovers] == [(1, seen)]


def test_export_only_after_the_end_and_it_replays(api: Api, make_user: Callable[..., User]) -> None:
    game, users = _running(make_user)
    running = api(users[0]).get(f"/api/games/{game.pk}/export")
    assert running.status_code == 409
    assert game.seed not in running.content.decode()
    assert running.json()["seed_hash"] == game.seed_hash
    play_randomly(game, users, seed=3)
    export = api(None).get(f"/api/games/{game.pk}/export").json()
    assert hashlib.sha256(export["seed"].encode()).hexdigest() == export["seed_hash"]
    engine = get_rules(export["game"])
    state = engine.setup(len(export["players"]), export["seed"], export["options"])
    for move in export["moves"]:
        state, _ = engine.apply(state, move["seat"], move["action"])
    assert engine.is_over(state)
    assert engine.result(state) == export["result"]["scores"]


def test_chat_arrives_in_the_log(api: Api, make_user: Callable[..., User]) -> None:
    game, users = _running(make_user)
    response = api(users[0]).post(f"/api/games/{game.pk}/chat", {"text": "howdy"})
    assert response.status_code == 201
    log = api(users[1]).get(f"/api/games/{game.pk}/log").json()
    assert [e["text"] for e in log if e["type"] == "chat"] == ["howdy"]


def test_anonymous_callers_are_throttled_with_the_error_shape(
    api: Api, make_user: Callable[..., User]
) -> None:
    """docs/api.md: throttling answers 429 ``throttled``. Anonymous callers: 60 calls a minute
    per address, counted in the shared cache (every server process together)."""
    game, _users = _running(make_user)
    anonymous = api(None)
    answers = [anonymous.get(f"/api/games/{game.pk}").status_code for _ in range(61)]
    assert answers[:60] == [200] * 60
    assert answers[60] == 429
    body = anonymous.get(f"/api/games/{game.pk}").json()
    assert body["code"] == "throttled"
    assert body["message"]
    # Counted per address: a signed-in player at the same address is not held back.
    assert api(make_user()).get(f"/api/games/{game.pk}").status_code == 200


def test_signed_in_callers_are_throttled_per_endpoint(
    api: Api, make_user: Callable[..., User]
) -> None:
    """Chat: 30 messages a minute per player (counted in the server process's memory);
    the 31st is refused with nothing written, and another player is not affected."""
    from games.models import ChatMessage

    game, users = _running(make_user)
    alice, bob = api(users[0]), api(users[1])
    answers = [
        alice.post(f"/api/games/{game.pk}/chat", {"text": f"line {i}"}).status_code
        for i in range(31)
    ]
    assert answers[:30] == [201] * 30
    assert answers[30] == 429
    assert ChatMessage.objects.filter(game=game).count() == 30
    assert bob.post(f"/api/games/{game.pk}/chat", {"text": "hi"}).status_code == 201


def test_an_endpoints_own_limit_counts_only_its_own_calls(
    api: Api, make_user: Callable[..., User]
) -> None:
    """A player whose client read the table 40 times this minute still chats (chat's 30 a
    minute counts chat only), and an anonymous visitor who read it 30 times still asks for
    the export (its 20 a minute counts exports only; a running game's is refused, 409)."""
    game, users = _running(make_user)
    alice = api(users[0])
    assert {alice.get(f"/api/games/{game.pk}").status_code for _ in range(40)} == {200}
    assert alice.post(f"/api/games/{game.pk}/chat", {"text": "hi"}).status_code == 201
    anonymous = api(None)
    assert {anonymous.get(f"/api/games/{game.pk}").status_code for _ in range(30)} == {200}
    assert anonymous.get(f"/api/games/{game.pk}/export").status_code == 409


def test_a_burst_of_moves_does_not_stop_a_player_reading_the_table(
    api: Api, make_user: Callable[..., User]
) -> None:
    """Moves have their own limit (1200 a minute); other calls share 600 a minute. A client
    that has sent 601 move requests still reads the table."""
    game, users = _running(make_user)
    alice = api(users[0])
    for _ in range(601):
        answer = alice.post(f"/api/games/{game.pk}/actions", raw='{"action": "x"}')
        assert answer.status_code in (400, 422)
    assert alice.get(f"/api/games/{game.pk}").status_code == 200


def test_reading_the_table_marks_it_seen(api: Api, make_user: Callable[..., User]) -> None:
    game, users = _running(make_user)
    api(users[0]).get(f"/api/games/{game.pk}")
    seat = game.seats.get(user=users[0])
    assert seat.last_seen_version == 1


# --- who may do what ----------------------------------------------------------------------

ROLES = ("anonymous", "outsider", "player")


def _expect(endpoint: str, role: str, public: bool) -> int:
    if role == "outsider" and not public and endpoint in ("doc", "log", "export"):
        return (
            403  # an invitation-only table is for its players (games.selectors.documents.can_watch)
        )
    if role == "anonymous":
        if endpoint in ("doc", "log", "export"):
            return {"doc": 200, "log": 200, "export": 409}[endpoint] if public else 401
        return 401
    table = {
        "doc": (200, 200),
        "log": (200, 200),
        "export": (409, 409),
        "action": (403, 200),
        "chat": (403, 201),
        "join": (409, 200),
        "leave": (403, 409),
    }
    return table[endpoint][ROLES.index(role) - 1]


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("role", ROLES)
def test_authorisation_matrix(
    api: Api, make_user: Callable[..., User], role: str, public: bool
) -> None:
    game, users = _running(make_user, public=public)
    user = {"anonymous": None, "outsider": make_user(), "player": users[0]}[role]
    client = api(user)
    base = f"/api/games/{game.pk}"
    calls = {
        "doc": lambda: client.get(base),
        "log": lambda: client.get(f"{base}/log"),
        "export": lambda: client.get(f"{base}/export"),
        "action": lambda: client.post(
            f"{base}/actions", {"action": {"type": "bid", "cowboys": []}}
        ),
        "chat": lambda: client.post(f"{base}/chat", {"text": "hi"}),
        "join": lambda: client.post(f"{base}/join"),
        "leave": lambda: client.post(f"{base}/leave"),
    }
    for endpoint, call in calls.items():
        response = call()
        assert response.status_code == _expect(endpoint, role, public), (endpoint, response.content)
        body = response.json()
        if response.status_code >= 400:
            assert set(body) >= {"code", "message"}
        if endpoint == "doc" and response.status_code == 200:
            if role == "player":
                assert body["my_seat"] is not None
                assert "hand" in body["view"]
            else:
                assert body["my_seat"] is None
                assert body["legal_actions"] == []
                assert "hand" not in body["view"]
                assert "my_bid" not in body["view"]


# --- never a 500 ---------------------------------------------------------------------------

NASTY = [
    "not json",
    "",
    "[]",
    "null",
    "42",
    '"text"',
    "{}",
    "\u0000",
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    '{"players": 1e400}',
    '{"players": 9223372036854775808}',
    '{"players": true}',
    '{"players": "four"}',
    '{"players": 99}',
    '{"players": -2}',
    '{"players": 2, "game": "chess"}',
    '{"players": 2, "game": null}',
    '{"players": 2, "options": []}',
    '{"players": 2, "options": {"lakes": "lava"}}',
    '{"players": 2, "options": {"zzz": 1}}',
    '{"players": 2, "clock": "turbo"}',
    '{"players": 2, "clock": 5}',
    '{"players": 2, "clock": {"initial_hours": -1}}',
    '{"players": 2, "clock": {"initial_hours": 1e308}}',
    '{"players": 2, "clock": {"initial_hours": "NaN"}}',
    '{"players": 2, "clock": {"initial_hours": 2, "max_hours": 1}}',
    '{"players": 2, "clock": {"bogus": 1}}',
    '{"players": 2, "bots": ["skynet"]}',
    '{"players": 2, "bots": ["random", "random"]}',
    '{"players": 2, "bots": "random"}',
    '{"players": 2, "invite": ["nobody-here"]}',
    '{"players": 2, "invite": [null]}',
    '{"players": 2, "invite": ["' + "x" * 500 + '"]}',
    '{"players": 2, "on_timeout": "explode"}',
    '{"players": 2, "rated": "maybe"}',
    '{"action": null}',
    '{"action": []}',
    '{"action": {}}',
    '{"action": {"type": 5}}',
    '{"action": {"type": "bid"}}',
    '{"action": {"type": "bid", "cowboys": "all"}}',
    '{"action": {"type": "bid", "cowboys": [1e10]}}',
    '{"action": {"type": "bid", "cowboys": [true]}}',
    '{"action": {"type": "bid", "cowboys": [1, 1]}}',
    '{"action": {"type": "bid", "cowboys": []}, "version": -1}',
    '{"action": {"type": "bid", "cowboys": []}, "version": "x"}',
    '{"action": {"type": "bid", "cowboys": []}, "version": 1180591620717411303424}',
    '{"action": {"type": "bid", "cowboys": []}, "version": 99999}',
    '{"action": {"type": "bid", "cowboys": []}, "client_id": 5}',
    '{"action": {"type": "bid", "cowboys": []}, "client_id": "' + "c" * 100 + '"}',
    '{"action": {"type": "claim", "card": null, "flag": 5}}',
    '{"action": {"type": "place_flag", "colour": "red", "cell": "Z99"}}',
    '{"action": {"type": "sell", "cell": "A1", "extra": 1}}',
    '{"action": {"type": "sale_pay", "cowboy": -5}}',
    '{"text": ""}',
    '{"text": "   "}',
    '{"text": 5}',
    '{"text": "' + "x" * 3000 + '"}',
    '{"username": "x", "password": "y"}',
]


@pytest.mark.parametrize("endpoint", ["games", "actions", "chat", "join", "leave"])
def test_nasty_bodies_never_cause_a_500(
    api: Api, make_user: Callable[..., User], endpoint: str
) -> None:
    game, users = _running(make_user)
    client = api(users[0])
    path = "/api/games" if endpoint == "games" else f"/api/games/{game.pk}/{endpoint}"
    before = (Move.objects.count(), Game.objects.count())
    for body in NASTY:
        response = client.post(path, raw=body)
        assert response.status_code < 500, (body[:80], response.content[:300])
        if response.status_code >= 400:
            payload = response.json()
            assert isinstance(payload["code"], str)
            assert isinstance(payload["message"], str)
            assert game.seed not in response.content.decode()
    if endpoint == "actions":
        # Only the legal bids among the bodies were applied (at most one per seat turn).
        assert Move.objects.count() - before[0] <= 1


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/0",
        "/api/games/-1",
        "/api/games/abc",
        "/api/games/99999999999999999999999",
        "/api/games/1/log?since=-1",
        "/api/games/1/log?since=abc",
        "/api/games/1/log?since=999999999999999999999999",
        "/api/games?status=bogus",
        "/api/games?limit=100000",
        "/api/games?player=" + "x" * 400,
    ],
)
def test_nasty_paths_never_cause_a_500(api: Api, make_user: Callable[..., User], path: str) -> None:
    _running(make_user)
    for client in (api(None), api(make_user())):
        response = client.get(path)
        assert response.status_code < 500, response.content[:300]
        if response.status_code >= 400:
            assert "code" in response.json()


def _loads(text: str) -> Any:
    return json.loads(text)
