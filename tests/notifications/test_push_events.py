"""Issue 43: the last two push events a player may choose, "chat addressed to me" and "a
deadline close", end to end against the tests' push service: encrypted for the device, in
the player's language, once however often the task or the sweep runs, a lost task redone by
the sweep, and nothing the table has not said in public (never the chat's text)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat
from games.tables import chat
from notifications import push, push_events
from notifications.models import PushMessage
from notifications.tasks import send_push

from .push_service import Browser, push_service
from .test_push import subscribe

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _local_push(settings) -> None:
    settings.PUSH_ANY_ENDPOINT = True
    settings.PUSH_DELAY_SECONDS = 0


def test_a_chat_naming_me_is_pushed_once_without_its_text(person, two_player_game):
    alice, bob = person("alice"), person("bob", language="fr")
    game = two_player_game(alice, bob)
    with push_service() as service:
        browser = Browser(service, "bob-phone")
        subscribe(bob, browser, events=["chat"])
        chat.chat_post(game_id=game.pk, user=alice, text="Hello all")  # names nobody
        chat.chat_post(game_id=game.pk, user=alice, text="mail me: bob@example.org")
        chat.chat_post(game_id=game.pk, user=bob, text="@bob talks to himself")
        assert service.received == []
        said = chat.chat_post(game_id=game.pk, user=alice, text="@Bob, secret plan: 7")
        assert len(service.received) == 1
        data = browser.read(service.received[0])
        assert data == {
            "title": "Discussion",
            "body": f"« @alice » vous a écrit à Colorado County, table {game.pk}",
            "url": f"/games/{game.pk}/#chat",
            "tag": f"chat-{game.pk}",
        }
        assert "secret" not in str(data)
        sent = PushMessage.objects.get(kind="chat", subscription__user=bob)
        assert sent.outcome == "sent"
        assert send_push(sent.pk) is False
        # Alice's devices get nothing for her own words; a device without "chat" neither.
        assert not PushMessage.objects.filter(kind="chat").exclude(pk=sent.pk).exists()
        assert said.pk == int(sent.key.split(":")[1])


def test_a_muted_author_pushes_nothing(person, two_player_game):
    from games.models import InvitationMute

    alice, bob = person("alice"), person("bob")
    game = two_player_game(alice, bob)
    InvitationMute.objects.create(user=bob, muted=alice)
    with push_service() as service:
        subscribe(bob, Browser(service, "bob"), events=["chat"])
        chat.chat_post(game_id=game.pk, user=alice, text="@bob hi")
        assert service.received == []


def _due_in(seat: Seat, delta: timedelta) -> None:
    Seat.objects.filter(pk=seat.pk).update(
        deadline=timezone.now() + delta, clock_started_at=timezone.now() - timedelta(hours=1)
    )


def test_a_deadline_close_is_pushed_once_a_clock_run(person, two_player_game, monkeypatch):
    alice, bob = person("alice"), person("bob", reminder_hours=6)
    game = two_player_game(alice, bob)  # both bid at once: both due
    seat = Seat.objects.get(game=game, user=bob)
    with push_service() as service:
        browser = Browser(service, "bob")
        subscribe(bob, browser, events=["deadline"])
        subscribe(alice, Browser(service, "alice"), events=["turn"])  # did not choose it
        _due_in(seat, timedelta(hours=30))
        assert push_events.deadline_pushes_queue(now=timezone.now()) == 0  # not close yet
        _due_in(seat, timedelta(hours=2, minutes=30))
        with monkeypatch.context() as lost:  # the queued task never runs
            lost.setattr(push, "queue", lambda ids, countdown=0: None)
            assert push_events.deadline_pushes_queue(now=timezone.now()) == 1
        assert service.received == []
        # The next sweeps record nothing new; the lost one is redone once, by the sweep.
        assert push_events.deadline_pushes_queue(now=timezone.now()) == 0
        later = timezone.now() + push.PUSH_LEASE + timedelta(seconds=1)
        assert push.push_requeue(now=later) == 1
        assert push.push_requeue(now=later + push.PUSH_LEASE * 2) == 0
        assert len(service.received) == 1
        data = browser.read(service.received[0])
        assert data["title"] == "Deadline close"
        assert data["body"].startswith(f"Colorado County, table {game.pk}: your move, 2 h ")
        assert data["body"].endswith(" min left")
        assert data["url"] == f"/games/{game.pk}/"


def test_a_deadline_push_is_skipped_once_the_seat_has_moved_on(person, two_player_game):
    alice, bob = person("alice"), person("bob", reminder_hours=6)
    game = two_player_game(alice, bob)
    seat = Seat.objects.get(game=game, user=bob)
    with push_service() as service:
        subscribe(bob, Browser(service, "bob"), events=["deadline"])
        _due_in(seat, timedelta(hours=1))
        with pytest.MonkeyPatch.context() as lost:
            lost.setattr(push, "queue", lambda ids, countdown=0: None)
            assert push_events.deadline_pushes_queue(now=timezone.now()) == 1
        # A new clock run (the seat acted and is due again): the old push says nothing.
        Seat.objects.filter(pk=seat.pk).update(clock_started_at=timezone.now())
        message = PushMessage.objects.get(kind="deadline")
        assert send_push(message.pk) is False
        assert service.received == []
        message.refresh_from_db()
        assert message.outcome == "skipped"


def test_the_settings_offer_the_new_events(person):
    from django.test import Client

    bob = person("bob")
    client = Client()
    client.force_login(bob)
    page = client.get("/accounts/settings/").content.decode()
    assert 'value="chat"' in page
    assert 'value="deadline"' in page
