"""Staff can abort a table from the admin; the move log cannot be edited or deleted there."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import moves
from games.bots.tasks import bot_move
from games.models import Game, Move
from games.selectors import documents
from games.tables import lifecycle

pytestmark = pytest.mark.django_db


def test_admin_aborts_a_running_game_and_keeps_moves_read_only(
    client: Client, make_user: Callable[..., User]
) -> None:
    staff = make_user(is_staff=True, is_superuser=True)
    player = make_user()
    game = lifecycle.game_create(creator=player, players=2, bots=["random"])
    assert game.status == Game.Status.RUNNING
    doc = documents.game_document(game=game, user=player)
    if doc["my_seat"] in doc["to_act"]:
        moves.action_submit(
            game_id=game.pk, user=player, action=doc["legal_actions"][0], version=doc["version"]
        )
    else:
        # The bot opens; its task is queued on commit, which never comes inside this test's
        # transaction, so run it here.
        bot_move(game.pk, doc["version"])
    move = Move.objects.filter(game=game).first()
    assert move is not None  # the player's move, or the bot's opening one
    client.force_login(staff)
    response = client.post(
        "/admin/games/game/",
        {"action": "abort_games", "_selected_action": [game.pk]},
        follow=True,
    )
    assert "1 game aborted." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert client.get(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    assert Move.objects.filter(pk=move.pk).exists()


def test_admin_shows_who_handed_a_seat_to_the_bot(
    client: Client, make_user: Callable[..., User]
) -> None:
    """A resignation is visible on the game's admin page (seat, player, reason), read-only."""
    from games.clocks.seats import seat_resign

    staff = make_user(is_staff=True, is_superuser=True)
    alice, bob = make_user(username="alice-resigns"), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username])
    lifecycle.game_join(game_id=game.pk, user=bob)
    seat_resign(game_id=game.pk, user=alice)
    client.force_login(staff)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "alice-resigns" in page
    assert "seat handover" in page.lower()
    assert "the player resigned" in page
