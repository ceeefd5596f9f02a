"""POST /api/auth/token and bearer authentication (api.md, Conventions)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import ApiToken
from accounts.services import token_user

pytestmark = pytest.mark.django_db


def test_token_for_good_credentials_authenticates(client: Client, django_user_model: type) -> None:
    user = django_user_model.objects.create_user(username="daisy", password="fifty-five-55")
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
