"""Delivery through real SMTP (a local aiosmtpd server) with the production mail settings
path: EMAIL_URL → colorado.env.email_config → Django's SMTP backend."""

from __future__ import annotations

import email
import socket
from email.message import Message

import pytest
from aiosmtpd.controller import Controller

from colorado import env
from notifications import services as mail
from notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], Message]] = []

    async def handle_DATA(self, server, session, envelope):
        parsed = email.message_from_bytes(envelope.content)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), parsed))
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _use_email_url(monkeypatch, settings, tmp_path, port: int) -> None:
    monkeypatch.setenv("EMAIL_URL", f"smtp://127.0.0.1:{port}")
    config = env.email_config("EMAIL_URL", "console:", tmp_path)
    settings.EMAIL_BACKEND = config.backend
    settings.EMAIL_HOST = config.host
    settings.EMAIL_PORT = config.port
    settings.EMAIL_USE_TLS = config.use_tls
    settings.EMAIL_USE_SSL = config.use_ssl
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield controller, inbox
    finally:
        controller.stop()


def test_a_turn_mail_is_delivered_over_smtp_with_its_headers(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    controller, inbox = smtp_server
    _use_email_url(monkeypatch, settings, tmp_path, controller.port)
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    alice = person("alice", email_notifications="off")
    bob = person("bob", email_notifications="off")
    game = two_player_game(alice, bob)
    alice.email_notifications = "each_turn"
    alice.save()
    seat = game.seats.get(user=alice)
    assert mail.turn_mail_send(seat_id=seat.pk, version=game.version) is True
    assert mail.turn_mail_send(seat_id=seat.pk, version=game.version) is False
    ((sender, recipients, message),) = inbox.messages
    assert recipients == ["alice@example.org"]
    assert "noreply@" in sender
    assert message["Subject"] == f"Your turn: Colorado County, table {game.pk}"
    unfolded = "".join(message["List-Unsubscribe"].split())
    assert unfolded == f"<{mail.unsubscribe_url(user=alice)}>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.is_multipart()
    kinds = [part.get_content_type() for part in message.walk() if not part.is_multipart()]
    assert kinds == ["text/plain", "text/html"]
    text = message.get_payload()[0].get_payload(decode=True).decode()
    assert mail.game_url(game) in text


def test_a_mail_server_failure_is_recorded_and_the_retry_sends_once(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    controller, inbox = smtp_server
    alice = person("alice", email_notifications="off")
    game = two_player_game(alice, person("bob", email_notifications="off"))
    alice.email_notifications = "each_turn"
    alice.save()
    seat = game.seats.get(user=alice)
    _use_email_url(monkeypatch, settings, tmp_path, _free_port())  # nobody listens there
    with pytest.raises(ConnectionRefusedError):
        mail.turn_mail_send(seat_id=seat.pk, version=game.version)
    row = Notification.objects.get(key=f"turn:{seat.pk}:{game.version}")
    assert row.sent_at is None
    assert "Connection" in row.error or "refused" in row.error.lower()
    _use_email_url(monkeypatch, settings, tmp_path, controller.port)
    assert mail.turn_mail_send(seat_id=seat.pk, version=game.version) is True
    assert mail.turn_mail_send(seat_id=seat.pk, version=game.version) is False
    assert len(inbox.messages) == 1
    row.refresh_from_db()
    assert row.sent_at is not None
    assert row.error == ""
