"""Webhooks reach a local receiver once, signed, with public facts only; a lost task is sent
by the sweep, a failure is tried again after the backoff with the same event id, and a hook
that keeps failing is turned off with a notice (docs/webhooks.md)."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import token_create
from games.models import Game, GameNote
from games.tables import lifecycle
from tests.accounts.factories import make_user
from tests.play import play_randomly
from tests.webhooks.receiver import Received, local_receiver
from webhooks import delivery as delivery_module
from webhooks.models import Webhook, WebhookDelivery
from webhooks.tasks import sweep_deliveries

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC_FIELDS = {"id", "event", "occurred_at", "text", "url", "game"}


def _api(user: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_create(user=user)}"}


def _add_hook(user: Any, url: str, events: list[str], fmt: str = "json") -> dict[str, Any]:
    answer = Client().post(
        "/api/me/webhooks",
        json.dumps({"url": url, "events": events, "format": fmt}),
        content_type="application/json",
        headers=_api(user),
    )
    assert answer.status_code == 201, answer.content
    return dict(answer.json())


def _signed(received: Received, secret: str) -> bool:
    expected = "sha256=" + hmac.new(secret.encode(), received.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(received.headers["X-Signature-256"], expected)


def test_events_reach_a_local_receiver_once_signed_and_with_public_facts_only() -> None:
    alice, bob = make_user(), make_user()
    with local_receiver() as receiver:
        hook = _add_hook(alice, receiver.url, ["my_turn", "invitation", "game_over"])
        secret = hook["secret"]
        assert len(secret) == 64
        game = lifecycle.game_create(
            title="colorado-county",
            creator=bob,
            players=2,
            options={"flags": "random"},
            invite=[alice.username],
        )
        lifecycle.game_join(game_id=game.pk, user=alice)
        GameNote.objects.create(game=game, user=alice, text="my secret plan")
        game = play_randomly(game, [alice, bob], seed=2)
        assert game.status == Game.Status.FINISHED
        got = list(receiver.received)
        # Nothing more is sent by the sweep: every delivery was sent once.
        assert sweep_deliveries() == 0
        assert len(receiver.received) == len(got)
    events = [json.loads(r.body)["event"] for r in got]
    assert events[0] == "invitation"
    assert events[-1] == "game_over"
    assert events.count("game_over") == 1
    assert "my_turn" in events
    ids = [r.headers["X-Event-Id"] for r in got]
    assert len(set(ids)) == len(ids), "each event once"
    for r in got:
        assert r.path == "/hook?channel=games"
        assert _signed(r, secret)
        body = json.loads(r.body)
        assert set(body) == PUBLIC_FIELDS
        assert body["id"] == r.headers["X-Event-Id"]
        assert body["game"] == {"id": game.pk, "title": "Colorado County"}
        assert body["url"].endswith(f"/games/{game.pk}/")
        text = r.body.decode()
        for hidden in (secret, "my secret plan", game.seed, '"view"', '"state"', "hand"):
            assert hidden not in text
    # Every delivery is recorded as sent, once.
    rows = WebhookDelivery.objects.all()
    assert {row.status for row in rows} == {"sent"}
    assert all(row.attempts == 1 for row in rows)


def test_bob_without_a_hook_costs_nothing_and_alices_hook_hears_only_her_turns() -> None:
    alice, bob = make_user(), make_user()
    with local_receiver() as receiver:
        _add_hook(alice, receiver.url, ["my_turn"])
        game = lifecycle.game_create(
            title="colorado-county", creator=alice, players=2, options={"flags": "random"}
        )
        lifecycle.game_join(game_id=game.pk, user=bob)
        keys = list(WebhookDelivery.objects.values_list("key", flat=True))
    # The start makes both seats due; only alice's seat is told, once.
    assert len(keys) == 1
    assert keys[0].startswith(f"my_turn:{game.pk}:1:")
    assert len(receiver.received) == 1


def test_a_lost_task_is_sent_by_the_sweep_once(monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = make_user(), make_user()
    with local_receiver() as receiver:
        _add_hook(alice, receiver.url, ["invitation"])
        from webhooks import task_names

        monkeypatch.setattr(task_names, "deliver_queue", lambda *args: None)  # lost
        lifecycle.game_create(
            title="colorado-county", creator=bob, players=2, invite=[alice.username]
        )
        assert receiver.received == []
        monkeypatch.undo()
        assert sweep_deliveries() == 1
        assert len(receiver.received) == 1
        assert sweep_deliveries() == 0
        assert len(receiver.received) == 1


def test_a_failure_is_tried_again_after_the_backoff_with_the_same_event_id() -> None:
    alice, bob = make_user(), make_user()
    with local_receiver() as receiver:
        hook = _add_hook(alice, receiver.url, ["invitation"], fmt="discord")
        receiver.answers = [500]
        before = timezone.now()
        lifecycle.game_create(
            title="colorado-county", creator=bob, players=2, invite=[alice.username]
        )
        after = timezone.now()
        row = WebhookDelivery.objects.get()
        assert row.status == "pending"
        assert row.attempts == 1
        assert row.last_error == "HTTP 500"
        # The first retry is due a minute after the failed try.
        minute = timedelta(seconds=60)
        assert before + minute <= row.next_attempt_at <= after + minute
        # Not due yet: the sweep and an early task send nothing.
        assert sweep_deliveries() == 0
        assert delivery_module.deliver_one(row.pk) == "skipped"
        later = row.next_attempt_at + timedelta(seconds=1)
        assert delivery_module.deliver_one(row.pk, now=later) == "sent"
        assert delivery_module.deliver_one(row.pk, now=later) == "skipped"
    first, second = receiver.received
    assert first.headers["X-Event-Id"] == second.headers["X-Event-Id"]
    assert (first.headers["X-Delivery-Attempt"], second.headers["X-Delivery-Attempt"]) == ("1", "2")
    assert first.body == second.body
    assert _signed(second, hook["secret"])
    discord = json.loads(second.body)
    assert set(discord) == {"content", "allowed_mentions"}
    assert "invites you to table" in discord["content"]


def test_a_hook_that_keeps_failing_is_turned_off_with_a_notice(settings: Any) -> None:
    settings.INVITATIONS_PER_INVITEE = 100
    alice, bob = make_user(), make_user()
    with local_receiver() as receiver:
        _add_hook(alice, receiver.url, ["invitation"], fmt="slack")
        receiver.answers = [503] * 100
        for _ in range(delivery_module.DISABLE_AFTER):
            lifecycle.game_create(
                title="colorado-county", creator=bob, players=2, invite=[alice.username]
            )
        moment = timezone.now()
        for _ in range(delivery_module.MAX_ATTEMPTS):
            moment += timedelta(days=1)
            for row in WebhookDelivery.objects.filter(status="pending"):
                delivery_module.deliver_one(row.pk, now=moment)
        assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"failed"}
        tries = len(receiver.received)
        assert tries == delivery_module.DISABLE_AFTER * delivery_module.MAX_ATTEMPTS
        hook = Webhook.objects.get()
        assert hook.disabled_at is not None
        assert hook.last_error == "HTTP 503"
        # Turned off: a new event is not even owed.
        lifecycle.game_create(
            title="colorado-county", creator=bob, players=2, invite=[alice.username]
        )
        assert len(receiver.received) == tries
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "1 of your webhooks was turned off after repeated failed deliveries." in page
    listed = client.get("/api/me/webhooks").json()
    assert listed[0]["disabled"] is True
    # Turned on again from the webhooks page.
    client.post(f"/accounts/settings/webhooks/{hook.pk}/enable/")
    hook.refresh_from_db()
    assert hook.disabled_at is None
    assert hook.failures == 0
    assert "turned off" not in client.get("/accounts/settings/").content.decode()
