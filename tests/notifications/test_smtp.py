"""Delivery through real SMTP (a local aiosmtpd server) with the production mail settings
path: EMAIL_URL → colorado.env.email_config → Django's SMTP backend."""

from __future__ import annotations

import pytest

from notifications import mail_parts, services, turn_mails
from notifications.models import Notification
from tests.notifications import smtp

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def smtp_server():
    with smtp.smtp_server() as server:
        yield server


def test_a_turn_mail_is_delivered_over_smtp_with_its_headers(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    controller, inbox = smtp_server
    smtp.use_email_url(monkeypatch, settings, tmp_path, controller.port)
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend"
    alice = person("alice", email_notifications="off")
    bob = person("bob", email_notifications="off")
    game = two_player_game(alice, bob)
    alice.email_notifications = "each_turn"
    alice.save()
    seat = game.seats.get(user=alice)
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is True
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is False
    ((sender, recipients, message),) = inbox.messages
    assert recipients == ["alice@example.org"]
    assert "noreply@" in sender
    assert (
        message["Subject"]
        == f"[Colorado County online] Your turn: Colorado County, table {game.pk}"
    )
    unfolded = "".join(message["List-Unsubscribe"].split())
    assert unfolded == f"<{mail_parts.unsubscribe_url(user=alice)}>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.is_multipart()
    kinds = [part.get_content_type() for part in message.walk() if not part.is_multipart()]
    assert kinds == ["text/plain", "text/html"]
    text = message.get_payload()[0].get_payload(decode=True).decode()
    assert mail_parts.game_url(game) in text


def _a_failed_turn_mail(person, two_player_game, monkeypatch, settings, tmp_path):
    """Alice's "your turn" mail, tried once while nobody listens on the mail port: the
    game and her seat."""
    alice = person("alice", email_notifications="off")
    game = two_player_game(alice, person("bob", email_notifications="off"))
    alice.email_notifications = "each_turn"
    alice.save()
    seat = game.seats.get(user=alice)
    smtp.use_email_url(monkeypatch, settings, tmp_path, smtp.free_port())  # nobody listens there
    with pytest.raises(ConnectionRefusedError):
        turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version)
    return game, seat


def test_a_mail_server_failure_is_recorded_and_the_retry_sends_once(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    controller, inbox = smtp_server
    game, seat = _a_failed_turn_mail(person, two_player_game, monkeypatch, settings, tmp_path)
    row = Notification.objects.get(key=f"turn:{seat.pk}:{game.version}")
    assert row.sent_at is None
    assert "Connection" in row.error or "refused" in row.error.lower()
    smtp.use_email_url(monkeypatch, settings, tmp_path, controller.port)
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is True
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is False
    assert len(inbox.messages) == 1
    row.refresh_from_db()
    assert row.sent_at is not None
    assert row.error == ""


def test_a_game_mail_whose_retries_were_lost_is_sent_by_the_hourly_task(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    """The mail server was down, the task's retry was lost (the in-memory broker of the
    embedded mode restarted, Redis wiped): the hourly task finds the failed row and sends it,
    once, when the retries have clearly stopped."""
    from datetime import timedelta

    from django.utils import timezone

    from notifications.tasks import send_digests

    controller, inbox = smtp_server
    game, seat = _a_failed_turn_mail(person, two_player_game, monkeypatch, settings, tmp_path)
    # (its retry is then lost)
    row = Notification.objects.get(key=f"turn:{seat.pk}:{game.version}")
    smtp.use_email_url(monkeypatch, settings, tmp_path, controller.port)
    send_digests()
    assert inbox.messages == []  # a retry may still be on its way (up to an hour apart)
    Notification.objects.filter(pk=row.pk).update(tried_at=timezone.now() - timedelta(hours=2))
    send_digests()
    send_digests()
    assert [recipients for _, recipients, _ in inbox.messages] == [["alice@example.org"]]
    row.refresh_from_db()
    assert row.sent_at is not None


def test_a_failed_mail_no_longer_needed_is_not_queued_again(
    person, two_player_game, smtp_server, monkeypatch, settings, tmp_path
):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat

    controller, inbox = smtp_server
    game, seat = _a_failed_turn_mail(person, two_player_game, monkeypatch, settings, tmp_path)
    smtp.use_email_url(monkeypatch, settings, tmp_path, controller.port)
    Seat.objects.filter(pk=seat.pk).update(last_seen_version=game.version)  # she looked
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is False  # the retry
    later = timezone.now() + timedelta(hours=2)
    assert services.notifications_requeue(now=later) == 0
    assert inbox.messages == []


def test_a_failed_invitation_mail_is_queued_again_when_its_retries_are_lost(person, mailoutbox):
    """Like every game mail, an invitation whose send failed and whose retries were lost
    is sent by the sweep (it was left out: the invitation kind had no task to queue)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tables import lifecycle

    alice, bob = person("alice"), person("bob")
    lifecycle.game_create(creator=alice, players=2, invite=[bob.username])
    row = Notification.objects.get(kind="invitation", user=bob)
    mailoutbox.clear()
    # The send failed, and no retry came for two hours.
    Notification.objects.filter(pk=row.pk).update(
        sent_at=None, error="SMTPServerDisconnected()", tried_at=timezone.now() - timedelta(hours=2)
    )
    assert services.notifications_requeue(now=timezone.now()) == 1
    assert [m.to for m in mailoutbox] == [[bob.email]]
    row.refresh_from_db()
    assert row.sent_at is not None
