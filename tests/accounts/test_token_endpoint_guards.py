"""POST /api/auth/token keeps the sign-in form's rules: an account whose e-mail address is not
verified gets no token, and repeated failures for one account lock it out for a while,
whatever address they come from (allauth's ``login_failed`` limit, shared with the form)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import ApiToken, User
from accounts.services import token_user
from tests.accounts.factories import make_user
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db

PASSWORD = "cattle-drive-99"  # tests.accounts.factories.make_user


def _token(username: str, password: str, address: str = "203.0.113.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/api/auth/token",
        {"username": username, "password": password},
        content_type="application/json",
    )


def test_an_unverified_account_gets_no_token() -> None:
    user = make_user(verified=False)
    response = _token(user.username, PASSWORD)
    assert response.status_code == 403
    assert response.json()["code"] == "email_unverified"
    assert "token" not in response.json()
    assert not ApiToken.objects.filter(user=user).exists()


def test_an_account_without_any_address_gets_no_token() -> None:
    user = User.objects.create_user(username="no-mail", password=PASSWORD)
    response = _token(user.username, PASSWORD)
    assert response.status_code == 403
    assert response.json()["code"] == "email_unverified"


def test_a_verified_account_gets_a_token() -> None:
    user = make_user()
    response = _token(user.username, PASSWORD)
    assert response.status_code == 200
    assert token_user(token=response.json()["token"]) == user


def test_the_demo_account_gets_a_token(monkeypatch: Any) -> None:
    monkeypatch.setenv("DEMO_USERNAME", "demo")
    monkeypatch.setenv("DEMO_PASSWORD", "demo-colorado")
    call_command("ensure_demo", stdout=io.StringIO())
    assert _token("demo", "demo-colorado").status_code == 200


def test_a_wrong_password_for_an_unverified_account_is_just_bad_credentials() -> None:
    user = make_user(verified=False)
    response = _token(user.username, "wrong")
    assert response.status_code == 401
    assert response.json()["code"] == "bad_credentials"


def test_five_failures_lock_the_account_whatever_the_address(settings: Any) -> None:
    window = 15  # seconds; the site's is 5 minutes (colorado/settings.py)
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "login_failed": f"5/{window}s/key",
    }
    user, bystander = make_user(), make_user()
    for i in range(5):
        assert _token(user.username, f"guess-{i}", f"198.51.100.{i}").status_code == 401
    # Now even the right password, from an address never seen, is refused for a while...
    locked = _token(user.username, PASSWORD, "192.0.2.77")
    assert locked.status_code == 429
    assert locked.json()["code"] == "too_many_attempts"
    assert "token" not in locked.json()
    # ...for this account only...
    assert _token(bystander.username, PASSWORD, "198.51.100.1").status_code == 200
    # ...until the window has passed (each try from an address of its own).
    tries = iter(range(100, 250))
    wait_until(
        lambda: _token(user.username, PASSWORD, f"192.0.2.{next(tries)}").status_code == 200,
        timeout=window * 3,
        interval=0.5,
    )


def test_the_lockout_is_the_sign_in_forms_lockout() -> None:
    """Failures on the sign-in form count for the API too: guessing cannot move channels."""
    user = make_user()
    form = Client(REMOTE_ADDR="198.51.100.9")
    for i in range(5):
        form.post("/accounts/login/", {"login": user.username, "password": f"guess-{i}"})
    response = _token(user.username, PASSWORD, "192.0.2.10")
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_attempts"


def test_a_right_password_does_not_use_up_the_allowance() -> None:
    """Successes are not counted: a script that signs in often is never locked out."""
    user = make_user()
    for _ in range(7):
        assert _token(user.username, PASSWORD).status_code == 200
