"""``/admin/login/`` keeps the site's sign-in rules (issue 41, item 4): it shares the
account lockout of the sign-in form and the token endpoint, it is throttled per address,
and an account without a verified e-mail address does not get in."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db


def _staff(name: str, *, verified: bool = True):  # type: ignore[no-untyped-def]
    return make_user(name, verified=verified, is_staff=True, is_superuser=True)


def _admin_login(client: Client, username: str, password: str) -> bool:
    client.post("/admin/login/?next=/admin/", {"username": username, "password": password})
    return client.get("/admin/").status_code == 200


def test_wrong_passwords_lock_the_account_for_the_admin_too() -> None:
    marshal = _staff("marshal")
    client = Client(REMOTE_ADDR="192.0.2.50")
    for _ in range(30):
        assert not _admin_login(client, "marshal", "not-the-password")
    # The right password, from another address: the account is locked all the same.
    other = Client(REMOTE_ADDR="192.0.2.51")
    assert not _admin_login(other, "marshal", "cattle-drive-99")
    page = other.post("/admin/login/", {"username": "marshal", "password": "cattle-drive-99"})
    assert "Too many failed" in page.content.decode()
    assert marshal.is_staff


def test_failures_on_the_sign_in_form_count_for_the_admin() -> None:
    _staff("ranger")
    form = Client(REMOTE_ADDR="192.0.2.60")
    for _ in range(5):
        form.post("/accounts/login/", {"login": "ranger", "password": "wrong"})
    assert not _admin_login(Client(REMOTE_ADDR="192.0.2.61"), "ranger", "cattle-drive-99")


def test_the_admin_login_is_throttled_per_address() -> None:
    client = Client(REMOTE_ADDR="192.0.2.70")
    pages = [
        client.post(
            "/admin/login/", {"username": f"nobody{uuid.uuid4().hex[:6]}", "password": "x"}
        ).content.decode()
        for _ in range(12)
    ]
    assert "Too many failed" not in pages[0]
    assert "Too many failed" in pages[-1]


def test_an_unverified_address_keeps_the_admin_shut() -> None:
    _staff("newdeputy", verified=False)
    client = Client(REMOTE_ADDR="192.0.2.80")
    assert not _admin_login(client, "newdeputy", "cattle-drive-99")
    page = client.post("/admin/login/", {"username": "newdeputy", "password": "cattle-drive-99"})
    assert "Confirm your e-mail address" in page.content.decode()


def test_a_verified_staff_member_gets_in() -> None:
    _staff("sheriff")
    assert _admin_login(Client(REMOTE_ADDR="192.0.2.90"), "sheriff", "cattle-drive-99")
