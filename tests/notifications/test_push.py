"""Web Push end to end (issue 43) against a push service of the tests' own: a player's
device is subscribed from the settings page's address, a move that makes them due pushes
an encrypted, signed "your turn" in their language that holds nothing hidden, the task run
again sends nothing, a lost task is redone by the sweep, and a device the push service no
longer knows (410) is removed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import Seat
from notifications import mail_parts, push, push_wire
from notifications.models import PushMessage, PushSubscription
from notifications.tasks import send_push

from .push_service import Browser, push_service, vapid_claims

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _local_push(settings) -> None:
    settings.PUSH_ANY_ENDPOINT = True
    settings.PUSH_DELAY_SECONDS = 0


def subscribe(user, browser: Browser, events=None) -> dict:
    client = Client()
    client.force_login(user)
    answer = client.post(
        "/notifications/push/subscribe/",
        json.dumps(browser.subscription(events)),
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_turn_is_pushed_encrypted_signed_and_once(person, two_player_game, settings):
    alice = person("alice")
    bob = person("bob", language="fr")
    with push_service() as service:
        browser = Browser(service, "bob-phone")
        subscribe(bob, browser)
        game = two_player_game(alice, bob)  # both bid at once: bob is due at the start
        assert len(service.received) == 1
        message = service.received[0]
        assert message.path == "/push/bob-phone"
        assert message.headers["content-encoding"] == "aes128gcm"
        assert int(message.headers["ttl"]) > 0
        claims = vapid_claims(message, push_wire.public_key())
        assert claims["aud"] == service.base
        assert claims["exp"] > timezone.now().timestamp()
        data = browser.read(message)
        # In bob's language; what the public view says is due; the table's address.
        assert data == {
            "title": "À vous de jouer",
            "body": data["body"],
            "url": f"/games/{game.pk}/",
            "tag": f"game-{game.pk}",
        }
        # What the public view says is due (a mail's words), never a seat's hand or bid.
        with translation.override("fr"):
            needed = mail_parts.what_is_needed(game)
        assert data["body"] == f"Colorado County, table {game.pk} : {needed}"
        # The same task again sends nothing.
        sent = PushMessage.objects.get(subscription__user=bob)
        assert sent.outcome == "sent"
        assert send_push(sent.pk) is False
        assert len(service.received) == 1


def test_the_mail_waits_while_a_device_pushes_turns(person, two_player_game, settings):
    alice, bob = person("alice"), person("bob")
    with push_service() as service:
        subscribe(bob, Browser(service, "bob"))
        game = two_player_game(alice, bob)
    bob_seat = Seat.objects.get(game=game, user=bob)
    alice_seat = Seat.objects.get(game=game, user=alice)
    # Bob's mail waits an hour (PUSH_MAIL_DELAY_SECONDS); alice's the usual grace period.
    assert bob_seat.turn_mail_at is not None
    assert alice_seat.turn_mail_at is None  # already sent by the fixture's sweep
    assert bob_seat.turn_mail_at - timezone.now() > timedelta(minutes=50)


def test_a_lost_push_is_redone_by_the_sweep_once(person, two_player_game, monkeypatch):
    alice, bob = person("alice"), person("bob")
    with push_service() as service:
        subscribe(bob, Browser(service, "bob"))
        with monkeypatch.context() as lost:  # the queued tasks never run
            lost.setattr(push, "queue", lambda ids, countdown=0: None)
            game = two_player_game(alice, bob)
        assert service.received == []
        waiting = PushMessage.objects.get(subscription__user=bob, game=game)
        assert waiting.outcome == ""
        # Not yet: the task may still come.
        assert push.push_requeue(now=timezone.now()) == 0
        later = timezone.now() + push.PUSH_LEASE + timedelta(seconds=1)
        assert push.push_requeue(now=later) == 1
        assert len(service.received) == 1
        assert push.push_requeue(now=later + push.PUSH_LEASE * 2) == 0
        assert len(service.received) == 1


def test_a_device_the_push_service_dropped_is_removed(person, two_player_game, settings):
    alice, bob = person("alice"), person("bob")
    with push_service() as service:
        service.status = 410
        subscribe(bob, Browser(service, "bob"))
        two_player_game(alice, bob)
        assert len(service.received) == 1
    assert not PushSubscription.objects.filter(user=bob).exists()


def test_a_device_pushes_only_the_events_it_chose_and_a_player_who_looked_gets_none(
    person, two_player_game, settings
):
    alice, bob = person("alice"), person("bob")
    settings.PUSH_DELAY_SECONDS = 0
    with push_service() as service:
        subscribe(bob, Browser(service, "bob"), events=["finished"])
        two_player_game(alice, bob)
        assert service.received == []


def test_a_subscription_elsewhere_than_a_push_service_is_refused(person, settings):
    settings.PUSH_ANY_ENDPOINT = False
    bob = person("bob")
    client = Client()
    client.force_login(bob)
    with push_service() as service:
        sub = Browser(service, "bob").subscription()
    answer = client.post(
        "/notifications/push/subscribe/", json.dumps(sub), content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_endpoint"
    answer = client.post("/notifications/push/subscribe/", "{", content_type="application/json")
    assert answer.json()["error"]["code"] == "bad_subscription"
    anonymous = Client().post(
        "/notifications/push/subscribe/", "{}", content_type="application/json"
    )
    assert anonymous.status_code == 401
