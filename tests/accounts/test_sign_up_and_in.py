"""Sign-up with mandatory e-mail verification, sign-in by username or e-mail, throttles,
password reset and change: allauth as configured for the site.

Account mails go through the outbox (a row, then a Celery task on commit): tasks run eagerly
here, and ``_delivered`` runs the on-commit callbacks a test transaction would never run.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client, TestCase

from accounts.models import User
from notifications.models import OutboxMail
from notifications.tasks import send_outbox_mail
from tests.accounts.factories import make_user
from tests.notifications import smtp


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Celery runs eagerly here (the root conftest's ``eager_tasks``)."""


pytestmark = pytest.mark.django_db

PASSWORD = "open-range-1887"


def _client() -> Client:
    # Throttles count per client address; each test gets its own.
    return Client(REMOTE_ADDR=f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7")


def _link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert match, body
    return match.group(1)


@contextmanager
def _delivered() -> Iterator[None]:
    """Run the block, then what it queued on commit (the outbox task), as after a request."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def _sign_up(client: Client, username: str, email: str) -> None:
    with _delivered():
        response = client.post(
            "/accounts/signup/",
            {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        )
    assert response.status_code == 302, response.content.decode()


def test_sign_up_needs_the_e_mailed_link_before_signing_in() -> None:
    client = _client()
    name = f"wyatt{uuid.uuid4().hex[:6]}"
    _sign_up(client, name, f"{name}@example.org")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [f"{name}@example.org"]
    assert "confirm" in message.body.lower()

    # Not verified yet: signing in only sends us to "check your e-mail".
    other = _client()
    response = other.post("/accounts/login/", {"login": name, "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert "Signed in as" not in other.get("/").content.decode()

    link = _link(message.body)
    assert "Confirm" in client.get(link).content.decode()
    response = client.post(link)
    assert response.status_code == 302

    fresh = _client()
    response = fresh.post("/accounts/login/", {"login": name, "password": PASSWORD})
    assert response.status_code == 302
    assert f"Signed in as <strong>{name}</strong>" in fresh.get("/").content.decode()


def test_sign_in_with_the_e_mail_address_works_too() -> None:
    user = make_user(f"doc{uuid.uuid4().hex[:6]}")
    client = _client()
    response = client.post("/accounts/login/", {"login": user.email, "password": "cattle-drive-99"})
    assert response.status_code == 302
    assert client.get("/api/me/settings").status_code == 200


def test_bot_names_are_refused_at_sign_up() -> None:
    client = _client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bot-greedy-7",
            "email": "not-a-bot@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "kept for the site" in response.content.decode()
    assert not User.objects.filter(username="bot-greedy-7").exists()


def test_a_taken_e_mail_does_not_make_a_second_account_nor_say_so_on_the_page() -> None:
    taken = make_user(f"ike{uuid.uuid4().hex[:6]}")
    client = _client()
    _sign_up(client, f"ike{uuid.uuid4().hex[:6]}", taken.email)
    assert User.objects.filter(email__iexact=taken.email).count() == 1
    # The owner of the address is told by e-mail instead (no account enumeration).
    assert [m.to for m in mail.outbox] == [[taken.email]]


def test_repeated_wrong_passwords_are_throttled(settings: Any) -> None:
    # The counts live in the cache. This test keeps them in a cache of its own, because
    # other test modules empty the shared Redis cache between their tests.
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rl"}
    }
    user = make_user(f"clanton{uuid.uuid4().hex[:6]}")
    client = _client()
    for _ in range(5):
        response = client.post("/accounts/login/", {"login": user.username, "password": "wrong"})
        assert "did not match" in response.content.decode()
    # Even the right password is refused for a while now.
    response = client.post(
        "/accounts/login/", {"login": user.username, "password": "cattle-drive-99"}
    )
    assert "Too many failed sign-in attempts" in response.content.decode()
    assert "Signed in as" not in client.get("/").content.decode()


def test_password_reset_by_e_mail() -> None:
    user = make_user(f"kate{uuid.uuid4().hex[:6]}")
    client = _client()
    with _delivered():
        response = client.post("/accounts/password/reset/", {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = _link(mail.outbox[0].body)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link
    new = "tumbleweed-0042"
    response = client.post(form_url, {"password1": new, "password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_change_when_signed_in() -> None:
    user = make_user(f"virgil{uuid.uuid4().hex[:6]}")
    client = _client()
    client.force_login(user)
    new = "deadwood-stage-5"
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "cattle-drive-99", "password1": new, "password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/confirm-email/",
    ],
)
def test_account_pages_wear_the_site_layout(path: str) -> None:
    page = _client().get(path).content.decode()
    assert 'class="site-header"' in page
    assert "css/site.css" in page
    assert 'class="button' in page or path == "/accounts/confirm-email/"


def test_the_demo_account_can_sign_in(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.management import call_command

    name = f"demo{uuid.uuid4().hex[:6]}"
    monkeypatch.setenv("DEMO_USERNAME", name)
    call_command("ensure_demo")
    call_command("ensure_demo")  # idempotent
    client = _client()
    response = client.post("/accounts/login/", {"login": name, "password": "demo-colorado"})
    assert response.status_code == 302
    assert response["Location"] == "/"


# --- while the mail server is down ---------------------------------------------------------


def _site_logs(caplog: Any) -> str:
    """What the site logged (the test's own mail server, aiosmtpd's ``mail.log``, logs every
    line it receives: that is the mail's reader, not our logs)."""
    return "\n".join(
        caplog.handler.format(r) for r in caplog.records if not r.name.startswith("mail.log")
    )


@pytest.mark.django_db(transaction=True)
def test_sign_up_answers_while_the_mail_server_is_down_and_the_mail_arrives_once_it_is_back(
    monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path, caplog: Any
) -> None:
    caplog.set_level(logging.DEBUG)
    port = smtp.free_port()
    smtp.use_email_url(monkeypatch, settings, tmp_path, port)  # nobody listens there
    name = f"earp{uuid.uuid4().hex[:6]}"
    client = _client()
    response = client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    (row,) = OutboxMail.objects.filter(to=f"{name}@example.org")
    assert row.sent_at is None
    assert row.attempts >= 1
    assert "refused" in row.error.lower()

    with smtp.smtp_server(port) as (_, inbox):
        send_outbox_mail.delay(row.pk)  # the retry once the server is back …
        send_outbox_mail.delay(row.pk)  # … and the same task delivered a second time
    (message,) = inbox.to(f"{name}@example.org")
    assert len(inbox.messages) == 1
    assert message["Subject"].startswith("[Colorado County online] ")
    body = smtp.text_of(message)
    link = _link(body)
    response = client.post(link)
    assert response.status_code == 302
    assert User.objects.get(username=name).emailaddress_set.get().verified
    row.refresh_from_db()
    assert row.sent_at is not None
    assert row.body_text == ""  # the key is not kept once sent
    assert row.body_html == ""
    assert link not in _site_logs(caplog)


@pytest.mark.django_db(transaction=True)
def test_password_reset_answers_while_the_mail_server_is_down_and_the_mail_arrives_once(
    monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path, caplog: Any
) -> None:
    caplog.set_level(logging.DEBUG)
    user = make_user(f"holliday{uuid.uuid4().hex[:6]}")
    port = smtp.free_port()
    smtp.use_email_url(monkeypatch, settings, tmp_path, port)  # nobody listens there
    client = _client()
    response = client.post("/accounts/password/reset/", {"email": user.email})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/done/"
    (row,) = OutboxMail.objects.filter(to=user.email)
    assert row.sent_at is None

    with smtp.smtp_server(port) as (_, inbox):
        send_outbox_mail.delay(row.pk)
        send_outbox_mail.delay(row.pk)
    assert len(inbox.messages) == 1
    (message,) = inbox.to(user.email)
    link = _link(smtp.text_of(message))
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link
    new = "tombstone-epitaph-81"
    response = client.post(form_url, {"password1": new, "password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
    assert link not in _site_logs(caplog)


def test_a_new_account_takes_the_browsers_time_zone() -> None:
    """Issue 43, trial item 5: a new account starts in the time zone the browser reported
    (the ``tz`` cookie), not UTC."""
    from accounts.models import User

    client = _client()
    client.cookies["tz"] = "America/Denver"
    name = f"annie{uuid.uuid4().hex[:6]}"
    _sign_up(client, name, f"{name}@example.org")
    assert User.objects.get(username=name).time_zone == "America/Denver"
