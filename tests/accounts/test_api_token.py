"""POST /api/auth/token and bearer authentication (docs/api.md, "Conventions")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import ApiToken
from accounts.services import email_verified_set, token_create, token_user

pytestmark = pytest.mark.django_db


def test_token_for_good_credentials_authenticates(client: Client, django_user_model: type) -> None:
    user = django_user_model.objects.create_user(
        username="daisy", password="fifty-five-55", email="daisy@example.org"
    )
    email_verified_set(user=user)  # as sign-in, a token needs a verified address
    response = client.post(
        "/api/auth/token",
        {"username": "daisy", "password": "fifty-five-55"},
        content_type="application/json",
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert token_user(token=token) == user
    # Only a digest is stored, never the token itself.
    assert not ApiToken.objects.filter(key_digest=token).exists()


def test_bad_credentials_get_a_clear_401(client: Client, django_user_model: type) -> None:
    django_user_model.objects.create_user(username="joe", password="two-seven-29")
    response = client.post(
        "/api/auth/token", {"username": "joe", "password": "x"}, content_type="application/json"
    )
    assert response.status_code == 401
    assert response.json()["code"] == "bad_credentials"


@pytest.mark.parametrize("body", ["not json", '{"username": 5}', "[]", '{"password": "x"}'])
def test_malformed_bodies_get_400_not_500(client: Client, body: str) -> None:
    response = client.post("/api/auth/token", body, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) >= {"code", "message"}


def test_unknown_token_is_nobody() -> None:
    assert token_user(token="no-such-token") is None
    assert token_user(token="") is None


def test_openapi_schema_and_docs_are_served(client: Client) -> None:
    schema = client.get("/api/openapi.json")
    assert schema.status_code == 200
    assert "/api/auth/token" in schema.json()["paths"]
    assert client.get("/api/docs").status_code == 200


def test_a_checked_token_is_remembered_but_forgotten_when_deleted_or_user_deactivated(
    settings: Any, django_user_model: type, django_assert_num_queries: Any
) -> None:
    """A busy script's token costs no query per call, yet deleting the token or deactivating
    the user in this process stops it at once (other processes: within
    API_TOKEN_CACHE_SECONDS)."""
    settings.API_TOKEN_CACHE_SECONDS = 60
    user = django_user_model.objects.create_user(username="rosa", password="x-12345678")
    token = token_create(user=user, name="script")
    first = token_user(token=token)
    assert first == user
    with django_assert_num_queries(0):
        again = token_user(token=token)
    assert again == user
    assert again is not first  # a fresh object for each request
    ApiToken.objects.filter(user=user).get().delete()
    assert token_user(token=token) is None

    token = token_create(user=user, name="second")
    assert token_user(token=token) == user
    user.is_active = False
    user.save()
    assert token_user(token=token) is None


def test_with_no_token_cache_every_call_checks_the_database(
    settings: Any, django_user_model: type, django_assert_num_queries: Any
) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 0
    user = django_user_model.objects.create_user(username="otto", password="x-12345678")
    token = token_create(user=user)
    assert token_user(token=token) == user
    with django_assert_num_queries(1):
        assert token_user(token=token) == user


def test_password_guessing_through_the_token_endpoint_is_throttled_by_address(
    client: Client, django_user_model: type
) -> None:
    """20 attempts a minute per address, even from a signed-in session (each for another
    account here: one account locks after 5 failures, test_token_endpoint_guards.py)."""
    django_user_model.objects.create_user(username="kit", password="right-one-123")
    client.force_login(django_user_model.objects.create_user(username="eve", password="x-1234567"))
    codes = [
        client.post(
            "/api/auth/token",
            {"username": f"kit-{i}", "password": f"guess-{i}"},
            content_type="application/json",
        ).status_code
        for i in range(21)
    ]
    assert codes[:20] == [401] * 20
    assert codes[20] == 429
