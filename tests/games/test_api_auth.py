"""Anonymous writes are told to sign in; a signed-in session still needs its CSRF token."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.models import ChatMessage
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.mark.parametrize("path", ["/api/games", "/api/games/1/actions", "/api/games/1/chat"])
def test_an_anonymous_write_answers_401_not_signed_in(path: str) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(path, "{}", content_type="application/json")
    assert response.status_code == 401, response.content[:300]
    assert response.json()["code"] == "not_signed_in"


def test_a_session_without_the_csrf_token_answers_403_csrf_failed(
    make_user: Callable[..., User],
) -> None:
    users = [make_user(), make_user()]
    game = lifecycle.game_create(creator=users[0], players=2)
    lifecycle.game_join(game_id=game.pk, user=users[1])
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[0])
    path = f"/api/games/{game.pk}/chat"
    refused = client.post(path, {"text": "howdy"}, content_type="application/json")
    assert refused.status_code == 403, refused.content[:300]
    assert refused.json()["code"] == "csrf_failed"
    assert ChatMessage.objects.count() == 0
    # With the token (as the game page sends it) the same call goes through.
    client.get("/")
    token = client.cookies["csrftoken"].value
    accepted = client.post(
        path, {"text": "howdy"}, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert accepted.status_code == 201, accepted.content[:300]
