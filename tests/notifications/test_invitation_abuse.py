"""Invitations are not a spam or phishing channel (issue 41, items 5 and 7): an account
sends only so many an hour and only so many to one person, an invitee can mute an inviter,
a mail names the sender by username beside any display name, and a subject line never
carries a user's free text unquoted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.errors import GameError
from games.models import Invitation
from games.tables import lifecycle
from tests.games.fixtures import ApiClient

pytestmark = pytest.mark.django_db(transaction=True)

PHISH = "Security team: your account is locked, reset at evil.example"


def test_the_mail_names_the_sender_by_username_and_quotes_the_subject(
    person: Callable[..., User], mailoutbox: list
) -> None:
    mallory = person("mallory", display_name=PHISH)
    person("bob")
    lifecycle.game_create(creator=mallory, players=2, invite=["bob"], open_seats=False)
    (message,) = mailoutbox
    assert PHISH not in message.subject
    assert "Security team" not in message.subject
    assert "“@mallory”" in message.subject
    assert f"{PHISH} (@mallory)" in message.body
    html, _kind = message.alternatives[0]
    assert "(@mallory)" in html


def test_invitations_per_hour_are_capped(
    person: Callable[..., User], settings: Any, mailoutbox: list
) -> None:
    settings.INVITATIONS_PER_HOUR = 4
    settings.TABLES_PER_HOUR = 100
    alice = person("alice")
    names = [person(f"guest{n}").username for n in range(6)]
    for name in names[:4]:
        lifecycle.game_create(creator=alice, players=2, invite=[name], open_seats=False)
    with pytest.raises(GameError) as refused:
        lifecycle.game_create(creator=alice, players=2, invite=[names[4]], open_seats=False)
    assert refused.value.status == 429
    assert refused.value.code == "too_many_invitations"
    api = ApiClient(alice).post("/api/games", {"players": 2, "invite": [names[5]]})
    assert api.status_code == 429
    assert api.json()["code"] == "too_many_invitations"
    assert Invitation.objects.filter(invited_by=alice).count() == 4
    assert len(mailoutbox) == 4


def test_invitations_to_one_person_are_capped(person: Callable[..., User], settings: Any) -> None:
    settings.INVITATIONS_PER_INVITEE = 2
    settings.TABLES_PER_HOUR = 100
    alice, _bob = person("alice"), person("bob")
    for _ in range(2):
        lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    with pytest.raises(GameError) as refused:
        lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    assert refused.value.code == "too_many_invitations"
    # Another person may still be invited.
    person("carol")
    lifecycle.game_create(creator=alice, players=2, invite=["carol"], open_seats=False)


def test_an_invitee_can_mute_an_inviter(person: Callable[..., User], mailoutbox: list) -> None:
    mallory, bob = person("mallory"), person("bob")
    client = Client()
    client.force_login(bob)
    page = client.post("/users/mallory/mute/", follow=True)
    assert page.status_code == 200
    refused = ApiClient(mallory).post("/api/games", {"players": 2, "invite": ["bob"]})
    assert refused.status_code == 403
    assert refused.json()["code"] == "invitation_muted"
    assert "bob" not in refused.json()["message"]
    assert mailoutbox == []
    # Unmuted, the invitation goes through again.
    client.post("/users/mallory/unmute/")
    assert (
        ApiClient(mallory).post("/api/games", {"players": 2, "invite": ["bob"]}).status_code == 201
    )
    # The same through the API.
    api = ApiClient(bob)
    assert api.post("/api/me/mutes", {"username": "mallory"}).status_code == 201
    assert [m["username"] for m in api.get("/api/me/mutes").json()] == ["mallory"]
    assert (
        ApiClient(mallory).post("/api/games", {"players": 2, "invite": ["bob"]}).status_code == 403
    )
    gone = api.client.delete("/api/me/mutes/mallory", headers=api.headers)
    assert gone.status_code == 204
