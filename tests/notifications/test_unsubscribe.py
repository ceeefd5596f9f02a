"""One-click unsubscribe: the link's page, the confirmation POST and RFC 8058 one-click."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from notifications import mail_parts
from notifications import services as mail

pytestmark = pytest.mark.django_db


def _path(user: User) -> str:
    return mail_parts.unsubscribe_url(user=user).removeprefix(mail.settings.SITE_URL)


def test_opening_the_link_asks_first_and_changes_nothing(person):
    alice = person("alice")
    page = Client(enforce_csrf_checks=True).get(_path(alice))
    assert page.status_code == 200
    assert "Stop all e-mails to alice" in page.content.decode()
    alice.refresh_from_db()
    assert alice.email_notifications == "each_turn"


def test_confirming_switches_every_mail_off_without_signing_in(person):
    alice = person("alice", email_notifications="digest")
    page = Client(enforce_csrf_checks=True).post(_path(alice))
    assert page.status_code == 200
    assert "will get no more e-mails" in page.content.decode()
    alice.refresh_from_db()
    assert alice.email_notifications == "off"


def test_mail_clients_one_click_post_works_without_csrf(person):
    alice = person("alice")
    answer = Client(enforce_csrf_checks=True).post(
        _path(alice),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 200
    alice.refresh_from_db()
    assert alice.email_notifications == "off"


def test_a_forged_or_damaged_token_changes_nothing(person):
    alice = person("alice")
    bob = person("bob")
    token = mail_parts.unsubscribe_token(user=alice)
    # Bob's payload under Alice's signature.
    forged = (
        mail_parts.unsubscribe_token(user=bob).rsplit(":", 1)[0] + ":" + token.rsplit(":", 1)[1]
    )
    client = Client(enforce_csrf_checks=True)
    for bad in (forged, token[:-2] + "xx", "nonsense"):
        answer = client.post(f"/notifications/unsubscribe/{bad}/")
        assert answer.status_code == 404
        assert "not valid" in answer.content.decode()
    for user in (alice, bob):
        user.refresh_from_db()
        assert user.email_notifications == "each_turn"


def test_other_methods_are_refused(person):
    answer = Client().put(_path(person("alice")))
    assert answer.status_code == 405
