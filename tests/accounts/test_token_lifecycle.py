"""API tokens expire after ``API_TOKEN_DAYS`` and can be listed and revoked, on the settings
page and through ``/api/me/tokens``; a revoked or expired token stops working at once in
this process, even while the per-process token cache remembers it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.services import token_create, token_user
from tests.accounts.factories import make_user
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_token_expires_after_api_token_days(settings: Any) -> None:
    settings.API_TOKEN_DAYS = 30
    user = make_user()
    response = Client().post(
        "/api/auth/token",
        {"username": user.username, "password": "cattle-drive-99"},
        content_type="application/json",
    )
    assert response.status_code == 200
    row = ApiToken.objects.get(user=user)
    assert abs(row.expires_at - row.created_at - datetime.timedelta(days=30)).total_seconds() < 5
    expires = datetime.datetime.fromisoformat(response.json()["expires_at"])
    assert expires == row.expires_at


def test_an_expired_token_stops_at_its_expiry_even_when_remembered(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 60
    user = make_user()
    token = token_create(user=user)
    # A token with one second left (an update, as the clock would: no signal clears caches).
    ApiToken.objects.filter(user=user).update(
        expires_at=timezone.now() + datetime.timedelta(seconds=1)
    )
    assert Client().get("/api/me/settings", headers=_bearer(token)).status_code == 200
    with django_assert_num_queries(0):
        assert token_user(token=token) == user  # remembered by this process now
    # Refused at its expiry, long before this process would forget it (60 s).
    wait_until(lambda: token_user(token=token) is None, timeout=15)
    response = Client().get("/api/me/settings", headers=_bearer(token))
    assert response.status_code == 401
    assert response.json()["code"] == "not_signed_in"


def test_my_tokens_are_listed_without_secrets() -> None:
    user = make_user()
    token = token_create(user=user, name="my bot")
    token_create(user=make_user(), name="someone else's")
    response = Client().get("/api/me/tokens", headers=_bearer(token))
    assert response.status_code == 200
    rows = response.json()
    assert [row["name"] for row in rows] == ["my bot"]
    assert set(rows[0]) == {"id", "name", "created_at", "last_used_at", "expires_at"}
    assert token not in response.content.decode()
    assert rows[0]["last_used_at"] is not None  # this very call used it


def test_revoking_a_token_through_the_api_stops_it_at_once(settings: Any) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 60
    user = make_user()
    keeper, doomed = token_create(user=user, name="keeper"), token_create(user=user, name="old")
    assert token_user(token=doomed) == user  # remembered by this process
    doomed_id = ApiToken.objects.get(user=user, name="old").pk
    response = Client().delete(f"/api/me/tokens/{doomed_id}", headers=_bearer(keeper))
    assert response.status_code == 204
    assert Client().get("/api/me/settings", headers=_bearer(doomed)).status_code == 401
    assert Client().get("/api/me/settings", headers=_bearer(keeper)).status_code == 200
    again = Client().delete(f"/api/me/tokens/{doomed_id}", headers=_bearer(keeper))
    assert again.status_code == 404
    assert again.json()["code"] == "unknown_token"


def test_someone_elses_token_cannot_be_revoked() -> None:
    owner = make_user()
    theirs = token_create(user=owner, name="theirs")
    their_id = ApiToken.objects.get(user=owner).pk
    response = _signed_in(make_user()).delete(f"/api/me/tokens/{their_id}")
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_token"
    assert token_user(token=theirs) == owner
    assert Client().get("/api/me/tokens").status_code == 401


def test_the_settings_page_lists_and_revokes_tokens() -> None:
    user = make_user()
    token = token_create(user=user, name="score bot")
    row = ApiToken.objects.get(user=user)
    client = _signed_in(user)
    page = client.get("/accounts/settings/").content.decode()
    assert "API tokens" in page
    assert "score bot" in page
    assert f'action="/accounts/settings/tokens/{row.pk}/revoke/"' in page
    assert token not in page
    assert row.key_digest not in page
    assert client.get(f"/accounts/settings/tokens/{row.pk}/revoke/").status_code == 405
    response = client.post(f"/accounts/settings/tokens/{row.pk}/revoke/", follow=True)
    assert response.redirect_chain[-1][0] == "/accounts/settings/"
    text = response.content.decode()
    assert "“score bot” is revoked" in text
    assert "score bot</" not in text.replace("“score bot” is revoked", "")
    assert token_user(token=token) is None


def test_the_settings_page_cannot_revoke_someone_elses_token() -> None:
    owner = make_user()
    token = token_create(user=owner, name="theirs")
    row = ApiToken.objects.get(user=owner)
    response = _signed_in(make_user()).post(f"/accounts/settings/tokens/{row.pk}/revoke/")
    assert response.status_code == 404
    assert token_user(token=token) == owner


def test_revoking_on_the_page_needs_the_csrf_token() -> None:
    user = make_user()
    token = token_create(user=user, name="kept")
    row = ApiToken.objects.get(user=user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(f"/accounts/settings/tokens/{row.pk}/revoke/").status_code == 403
    assert token_user(token=token) == user


@pytest.mark.parametrize(
    ("token_id", "status", "code"),
    [("abc", 400, "bad_request"), ("99999999999999999999999", 404, "unknown_token")],
)
def test_a_malformed_token_id_gets_a_clear_error(token_id: str, status: int, code: str) -> None:
    token = token_create(user=make_user())
    response = Client().delete(f"/api/me/tokens/{token_id}", headers=_bearer(token))
    assert (response.status_code, response.json()["code"]) == (status, code)
