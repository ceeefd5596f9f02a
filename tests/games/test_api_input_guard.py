"""Input the database cannot keep, and bodies over the limit (colorado/input_guard.py):
400 ``bad_characters`` / 413 ``too_large`` with the error shape, nothing changed, never a
500 — for anonymous callers and signed-in ones. PostgreSQL is the one that refuses a NUL."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import ChatMessage, Game, Move
from tests.games.fixtures import ApiClient, running_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

Api = Callable[[User | None], ApiClient]
# Strings PostgreSQL refuses to store: a NUL, and a lone surrogate (valid as a JSON escape,
# not encodable as UTF-8).
BAD_STRINGS = ["a\x00b", "a\ud800b"]


def _bad_characters(response: Any) -> None:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "bad_characters"
    assert body["message"]


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("path", ["/api/games?player=a%00b", "/api/games?status=open&a%00=1"])
def test_a_nul_in_the_query_answers_400(
    api: Api, make_user: Callable[..., User], signed_in: bool, path: str
) -> None:
    _bad_characters(api(make_user() if signed_in else None).get(path))


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("bad", BAD_STRINGS)
def test_refused_characters_in_game_bodies_answer_400_and_change_nothing(
    api: Api, make_user: Callable[..., User], signed_in: bool, bad: str
) -> None:
    game, users = running_pair(make_user)
    client = api(users[0] if signed_in else None)
    bodies = [
        ("/api/games", {"players": 2, "invite": [bad]}),
        ("/api/games", {"players": 2, "options": {bad: 1}}),
        (f"/api/games/{game.pk}/chat", {"text": bad}),
        (
            f"/api/games/{game.pk}/actions",
            {"action": {"type": "bid", "cowboys": []}, "client_id": bad},
        ),
        (f"/api/games/{game.pk}/actions", {"action": {"type": bad, "cowboys": []}}),
    ]
    before = (Game.objects.count(), Move.objects.count(), ChatMessage.objects.count())
    for path, body in bodies:
        _bad_characters(client.post(path, body))
    assert (Game.objects.count(), Move.objects.count(), ChatMessage.objects.count()) == before


def test_a_nul_in_a_session_cookie_is_not_a_500(make_user: Callable[..., User]) -> None:
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    _bad_characters(client.get("/api/games"))


def test_a_body_over_the_limit_answers_413_and_changes_nothing(
    api: Api, make_user: Callable[..., User], settings: Any
) -> None:
    game, users = running_pair(make_user)
    client = api(users[0])
    big = {"text": "x" * (256 * 1024)}
    for who in (client, api(None)):
        response = who.post(f"/api/games/{game.pk}/chat", big)
        assert response.status_code == 413, response.content[:300]
        assert response.json()["code"] == "too_large"
        assert response.json()["message"]
    assert ChatMessage.objects.count() == 0
    # One setting: lowered, it holds for smaller bodies too.
    assert settings.MAX_REQUEST_BODY_BYTES == 256 * 1024
    settings.MAX_REQUEST_BODY_BYTES = 1000
    assert client.post(f"/api/games/{game.pk}/chat", {"text": "x" * 1000}).status_code == 413
    assert client.post(f"/api/games/{game.pk}/chat", {"text": "howdy"}).status_code == 201


def test_a_json_body_without_refused_characters_passes_untouched(
    api: Api, make_user: Callable[..., User]
) -> None:
    """The guard walks the decoded JSON: an escaped backslash-zero is just text."""
    game, users = running_pair(make_user)
    response = api(users[0]).post(f"/api/games/{game.pk}/chat", raw=json.dumps({"text": "\\0 ok"}))
    assert response.status_code == 201, response.content[:300]
    assert ChatMessage.objects.get().text == "\\0 ok"
