"""The base pages: home, sign-in and sign-out (served by django-allauth)."""

from __future__ import annotations

import uuid

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

pytestmark = pytest.mark.django_db


def test_home_says_what_the_site_is_and_offers_sign_in(client: Client) -> None:
    page = client.get("/").content.decode()
    assert "Colorado County" in page
    assert 'href="/accounts/login/"' in page


def test_sign_in_and_out(client: Client, django_user_model: type) -> None:
    user = django_user_model.objects.create_user(
        username="nelly", email="nelly@example.org", password="lasso-and-spurs-16"
    )
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"login": "nelly", "password": "lasso-and-spurs-16"})
    assert response.status_code == 302
    assert "Signed in as <strong>nelly</strong>" in client.get("/").content.decode()
    response = client.post("/accounts/logout/")
    assert response.status_code in {200, 302}
    assert "Signed in as" not in client.get("/").content.decode()


def test_wrong_password_shows_a_clear_error(client: Client, django_user_model: type) -> None:
    # A fresh name each run: failed sign-ins are throttled per name (ACCOUNT_RATE_LIMITS).
    username = f"bill-{uuid.uuid4().hex[:8]}"
    django_user_model.objects.create_user(username=username, password="sixty-two-63")
    response = client.post("/accounts/login/", {"login": username, "password": "nope"})
    assert response.status_code == 200
    assert "did not match" in response.content.decode()
