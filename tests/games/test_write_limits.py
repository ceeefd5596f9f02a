"""Limits on every write (issue 41, items 1 and 6): the page's chat is held to the API's
allowance, and an account opens only so many tables an hour and keeps only so many tables
with bots going, on the pages and through the API alike, with a clear answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from games.tables import lifecycle
from tests.games.fixtures import ApiClient

pytestmark = [pytest.mark.django_db]


def _form(**changes: Any) -> dict[str, str]:
    form = {
        "title": "colorado-county",
        "players": "2",
        "lakes": "first-game",
        "flags": "players",
        "clock": "fast",
        "on_timeout": "bot",
        "rated": "on",
        "open_seats": "on",
        "invite": "",
        "bots": "0",
        "bot_kind": "greedy",
    }
    form.update({key: str(value) for key, value in changes.items()})
    return form


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_page_chat_has_the_apis_allowance(make_user: Callable[..., User]) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2)
    lifecycle.game_join(game_id=game.pk, user=bob)
    client = _client(alice)
    codes = [
        client.post(
            f"/games/{game.pk}/chat/", {"text": f"hi {n}"}, headers={"Accept": "application/json"}
        ).status_code
        for n in range(40)
    ]
    assert codes[:30] == [200] * 30
    assert set(codes[30:]) == {429}
    refused = client.post(
        f"/games/{game.pk}/chat/", {"text": "again"}, headers={"Accept": "application/json"}
    )
    assert refused.json()["code"] == "throttled"
    # The API's allowance is the same bucket: it is spent too.
    api = ApiClient(alice).post(f"/api/games/{game.pk}/chat", {"text": "and here"})
    assert api.status_code == 429
    # Without the script: back to the table with the message.
    page = client.post(f"/games/{game.pk}/chat/", {"text": "once more"}, follow=True)
    assert 'class="message error"' in page.content.decode()


def test_tables_opened_per_hour_are_capped_on_pages_and_api(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.TABLES_PER_HOUR = 3
    alice = make_user()
    client = _client(alice)
    for _ in range(2):
        response = client.post("/games/new/", _form())
        assert response.status_code == 302, response.content[:300]
    assert ApiClient(alice).post("/api/games", {"players": 2}).status_code == 201
    refused = ApiClient(alice).post("/api/games", {"players": 2})
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_tables"
    page = client.post("/games/new/", _form())
    assert page.status_code == 200
    assert "too_many_tables" not in page.content.decode()
    assert Game.objects.filter(created_by=alice).count() == 3
    assert page.context["form"].non_field_errors()
    # Someone else is not held by alice's count.
    assert ApiClient(make_user()).post("/api/games", {"players": 2}).status_code == 201


def test_tables_with_bots_are_capped_per_account(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.BOT_TABLES_MAX = 2
    alice = make_user()
    api = ApiClient(alice)
    # Open tables with bots count while they wait too, not only once running.
    for _ in range(2):
        response = api.post("/api/games", {"players": 3, "bots": ["easy"]})
        assert response.status_code == 201, response.content
    refused = api.post("/api/games", {"players": 3, "bots": ["easy"]})
    assert refused.status_code == 403
    assert refused.json()["code"] == "bot_table_limit"
    # A table of people only is not a table with bots.
    assert api.post("/api/games", {"players": 2}).status_code == 201
    page = _client(alice).post("/games/new/", _form(bots=1))
    assert page.status_code == 200
    assert Game.objects.filter(created_by=alice).count() == 3


def test_a_finished_or_aborted_table_frees_its_place(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.BOT_TABLES_MAX = 1
    alice = make_user()
    api = ApiClient(alice)
    first = api.post("/api/games", {"players": 3, "bots": ["easy"]}).json()
    assert api.post("/api/games", {"players": 3, "bots": ["easy"]}).status_code == 403
    lifecycle.game_abort(game_id=first["id"])
    assert api.post("/api/games", {"players": 3, "bots": ["easy"]}).status_code == 201
