"""Characters the database refuses in user names, the token request and the settings
(API and page), and page bodies over the limit: a clear 400 / 413, nothing changed, never a
500 (colorado/input_guard.py). PostgreSQL is the one that refuses a NUL."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

BAD_STRINGS = ["a\x00b", "a\ud800b"]
FORM = {
    "display_name": "Jane",
    "time_zone": "UTC",
    "language": "en",
    "email_notifications": "off",
    "reminder_hours": "0",
    "away_until": "",
}


@pytest.fixture
def user() -> User:
    return make_user(f"calamity{uuid.uuid4().hex[:6]}", display_name="Jane")


def _client(user: User | None) -> Client:
    client = Client(REMOTE_ADDR=f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.9")
    if user is not None:
        client.force_login(user)
    return client


def _bad_characters(response: Any) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == "bad_characters"
    assert response.json()["message"]


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("path", ["/api/users/a%00b", "/api/users/a%00b/games"])
def test_a_nul_in_a_user_name_answers_400(user: User, signed_in: bool, path: str) -> None:
    _bad_characters(_client(user if signed_in else None).get(path))


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("bad", BAD_STRINGS)
def test_refused_characters_in_the_token_request_answer_400(
    user: User, signed_in: bool, bad: str
) -> None:
    client = _client(user if signed_in else None)
    for body in ({"username": bad, "password": "x"}, {"username": user.username, "password": bad}):
        response = client.post("/api/auth/token", json.dumps(body), content_type="application/json")
        _bad_characters(response)


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("bad", BAD_STRINGS)
def test_refused_characters_in_settings_answer_400_and_change_nothing(
    user: User, signed_in: bool, bad: str
) -> None:
    response = _client(user if signed_in else None).put(
        "/api/me/settings", json.dumps({"display_name": bad}), content_type="application/json"
    )
    _bad_characters(response)
    user.refresh_from_db()
    assert user.display_name == "Jane"


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_nul_in_the_settings_page_form_answers_a_400_page(user: User, signed_in: bool) -> None:
    response = _client(user if signed_in else None).post(
        "/accounts/settings/", {**FORM, "display_name": "Calamity\x00Jane"}
    )
    assert response.status_code == 400
    assert "cannot be stored" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Jane"


def test_a_page_body_over_the_limit_answers_413(user: User) -> None:
    response = _client(user).post(
        "/accounts/settings/", {**FORM, "display_name": "x" * (256 * 1024)}
    )
    assert response.status_code == 413
    assert "too large" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Jane"
