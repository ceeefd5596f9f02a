"""Issue 15: an invitation, and a rematch offer, send a mail naming who invited and the
table, once, to players whose e-mail setting allows it (not to "off")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.models import Game
from games.tables import lifecycle
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invitation_sends_one_mail_respecting_the_setting(
    person: Callable[..., User], mailoutbox: list
) -> None:
    alice, _bob = person("alice", display_name="Alice Ames"), person("bob")
    quiet = person("quiet", email_notifications=User.EmailNotifications.OFF)
    game = lifecycle.game_create(
        creator=alice, players=3, invite=["bob", "quiet"], open_seats=False
    )
    (message,) = mailoutbox
    assert message.to == ["bob@example.org"]
    assert "“@alice” invites you" in message.subject
    assert "Alice Ames (@alice) invites you" in message.body
    assert f"/games/{game.pk}/" in message.body
    assert "Hello from" not in message.body
    assert quiet.email not in [m.to[0] for m in mailoutbox]


def test_a_rematch_offer_says_so(person: Callable[..., User], mailoutbox: list) -> None:
    alice, bob = person("alice"), person("bob", email_notifications="digest")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    game = play_randomly(Game.objects.get(pk=game.pk), [alice, bob], seed=4)
    mailoutbox.clear()
    rematch = lifecycle.game_rematch(game_id=game.pk, user=alice)
    (message,) = [m for m in mailoutbox if m.to == ["bob@example.org"]]
    assert "offers a rematch" in message.subject
    assert "same players and settings" in message.body
    assert f"/games/{rematch.pk}/" in message.body
