"""Moves over the game's socket (docs/api.md, "Moves over the socket"): ``{"type": "action",
"action", "version", "client_id"}`` answers ``{"type": "answer", "client_id", "status",
"body"}`` with what ``POST /api/games/<id>/actions`` answers — the new document, or the
error with its code — through the same service: stale checks by the seat's decision
version, client-id idempotency, and each other seat's own frame."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from accounts.models import User
from accounts.services import token_create
from games import moves
from games.models import Game, Move
from games.selectors import documents
from games.store import jsontext
from games.tables import lifecycle
from tests.games.fixtures import ApiClient
from tests.games.sockets import Socket, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def _bidding_game(make_user: Callable[..., User]) -> tuple[Game, list[User]]:
    """Two players, random flags: both are to bid at once."""
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(
        creator=alice, players=2, invite=[bob.username], options={"flags": "random"}
    )
    game = lifecycle.game_join(game_id=game.pk, user=bob)
    assert game.status == Game.Status.RUNNING
    return game, [alice, bob]


async def _answer(socket: Socket, timeout: float = 15) -> dict[str, Any]:
    """The next answer on ``socket`` (frames before it are skipped)."""
    while True:
        message = json.loads(await socket.receive_from(timeout=timeout))
        if message["type"] == "answer":
            return message


def _hand(game: Game, user: User) -> list[int]:
    return list(documents.game_document(game=game, user=user)["view"]["hand"])


def test_a_move_over_the_socket_answers_the_new_document_and_reaches_the_other_seat(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = _bidding_game(make_user)
    hand = _hand(game, alice)
    tokens = [token_create(user=u) for u in (alice, bob)]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        mine, theirs = [await connect(game.pk, t) for t in tokens]
        for s in (mine, theirs):
            assert json.loads(await s.receive_from(timeout=10))["version"] == 1
        await mine.app.send_input(
            {
                "type": "websocket.receive",
                "text": json.dumps(
                    {
                        "type": "action",
                        "action": {"type": "bid", "cowboys": hand[:2]},
                        "version": 1,
                        "client_id": "c-1",
                    }
                ),
            }
        )
        answer = await _answer(mine)
        frame = json.loads(await theirs.receive_from(timeout=10))
        assert await mine.app.receive_nothing(0.5)  # the mover gets no second copy of v2
        for s in (mine, theirs):
            await s.disconnect()
        return answer, frame, []

    answer, frame, _ = async_to_sync(scenario)()
    assert answer["status"] == 200
    assert answer["client_id"] == "c-1"
    body = answer["body"]
    assert body["version"] == 2
    assert body["applied_version"] == 2
    assert body["replayed"] is False
    assert body["view"]["my_bid"] == sorted(hand[:2])  # the mover's own view
    # The same document the HTTP endpoint gives the mover (its keys, its view).
    http = ApiClient(alice).get(f"/api/games/{game.pk}")
    assert set(body) == set(http.json()) | {"applied_version", "replayed"}
    assert body["view"] == http.json()["view"]
    # The other seat's frame is its own: no sight of the sealed bid.
    assert frame["type"] == "game"
    assert frame["version"] == 2
    assert frame["view"]["seat"] != body["view"]["seat"]
    assert "my_bid" not in json.dumps(frame) or frame["view"].get("my_bid") is None
    assert Move.objects.filter(game=game).count() == 1


def _send_actions(game: Game, token: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    async def scenario() -> list[dict[str, Any]]:
        socket = await connect(game.pk, token)
        await socket.receive_from(timeout=10)
        answers = []
        for message in messages:
            await socket.app.send_input(
                {"type": "websocket.receive", "text": json.dumps({"type": "action", **message})}
            )
            answers.append(await _answer(socket))
        await socket.disconnect()
        return answers

    return list(async_to_sync(scenario)())


def test_socket_refusals_carry_the_http_codes(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = _bidding_game(make_user)
    outsider = make_user()
    hand = _hand(game, alice)
    answers = _send_actions(
        game,
        token_create(user=alice),
        [
            {"action": {"type": "bid", "cowboys": [99]}, "version": 1, "client_id": "x"},
            {"action": "not an object", "version": 1},
            {"action": {"type": "bid", "cowboys": hand[:1]}, "version": 7},
            {"action": {"type": "bid"}, "version": 1, "client_id": "bot:1:0"},
            {"form": {"kind": ["bid"], "cowboys": ["zero"]}, "version": 1},
        ],
    )
    assert [(a["status"], a["body"]["code"]) for a in answers] == [
        (422, answers[0]["body"]["code"]),
        (400, "bad_action"),
        (400, "bad_version"),
        (400, "bad_client_id"),
        (400, "bad_request"),
    ]
    assert answers[0]["body"]["code"] not in ("bad_request", "", None)
    assert answers[0]["client_id"] == "x"
    # The HTTP endpoint refuses the same illegal bid with the same status and code.
    http = ApiClient(alice).post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "bid", "cowboys": [99]}, "version": 1},
    )
    assert (http.status_code, http.json()["code"]) == (422, answers[0]["body"]["code"])
    # A spectator's socket may not move.
    (spectator,) = _send_actions(
        game, token_create(user=outsider), [{"action": {"type": "bid", "cowboys": hand[:1]}}]
    )
    assert (spectator["status"], spectator["body"]["code"]) == (403, "not_a_player")
    assert not Move.objects.filter(game=game).exists()


def test_a_stale_socket_action_answers_409_with_the_current_document(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = _bidding_game(make_user)
    hands = {u.pk: _hand(game, u) for u in (alice, bob)}
    for user in (bob, alice):  # both bid: the round resolves, alice's choices change
        moves.action_submit(
            game_id=game.pk,
            user=user,
            action={"type": "bid", "cowboys": hands[user.pk][:1]},
            version=1,
        )
    game.refresh_from_db()
    (stale,) = _send_actions(
        game,
        token_create(user=alice),
        [{"action": {"type": "bid", "cowboys": hands[alice.pk][:1]}, "version": 1}],
    )
    assert (stale["status"], stale["body"]["code"]) == (409, "stale_version")
    current = stale["body"]["current"]
    assert current["version"] == game.version
    assert current["my_seat"] == documents.seat_for_user(game=game, user=alice).seat  # type: ignore[union-attr]
    # The whole document, as a fresh read gives it (it is built from the rows the refused
    # move locked, not read again).
    assert current == json.loads(jsontext.dumps(documents.game_document(game=game, user=alice)))
    assert Move.objects.filter(game=game).count() == 2


def test_a_client_id_sent_again_over_the_socket_applies_nothing(
    make_user: Callable[..., User],
) -> None:
    game, (alice, _bob) = _bidding_game(make_user)
    hand = _hand(game, alice)
    token = token_create(user=alice)
    bid = {"action": {"type": "bid", "cowboys": hand[:2]}, "version": 1, "client_id": "once"}
    (first,) = _send_actions(game, token, [bid])
    # Again over the socket, and over HTTP: both are the first move's retry.
    (again,) = _send_actions(game, token, [bid])
    http = ApiClient(alice).post(f"/api/games/{game.pk}/actions", bid)
    assert first["status"] == again["status"] == http.status_code == 200
    assert first["body"]["replayed"] is False
    assert again["body"]["replayed"] is True
    assert http.json()["replayed"] is True
    assert again["body"]["applied_version"] == http.json()["applied_version"] == 2
    assert Move.objects.filter(game=game).count() == 1


def test_a_form_over_the_socket_is_read_as_the_page_posts_it(
    make_user: Callable[..., User],
) -> None:
    game, (alice, _bob) = _bidding_game(make_user)
    hand = _hand(game, alice)
    (answer,) = _send_actions(
        game,
        token_create(user=alice),
        [{"form": {"kind": ["bid"], "cowboys": [str(c) for c in hand[:2]]}, "version": 1}],
    )
    assert answer["status"] == 200
    move = Move.objects.get(game=game)
    assert move.action == {"type": "bid", "cowboys": sorted(hand[:2])}
