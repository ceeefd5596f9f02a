"""After resigning, the page no longer tells the player it is their turn, nor shows a "to
act" badge or a deadline for the seat the bot now plays (issue 15, bug 8)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.clocks.seats import seat_resign
from games.models import Game
from tests.accounts.factories import make_user

from .tables import human_table

pytestmark = [pytest.mark.django_db]


def test_a_resigned_player_is_not_told_it_is_their_turn() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = human_table([alice, bob])
    first = game.seats.get(seat=game.to_act[0]).user
    c = Client()
    c.force_login(first)
    before = c.get(f"/games/{game.pk}/").content.decode()
    assert "<title>Your turn" in before  # the page says so while they play
    seat_resign(game_id=game.pk, user=first)
    game = Game.objects.get(pk=game.pk)
    mine = game.seats.get(user=first).seat
    assert mine in game.to_act  # the bot has not moved yet: the seat is still to act
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/panels/"):
        html = c.get(url).content.decode()
        assert "Your turn" not in html.replace('"your_turn": "Your turn"', "")
        assert "You resigned" in html
        row = re.search(rf'<tr class="[^"]*" data-seat="{mine}">.*?</tr>', html, re.S)
        assert row
        assert "to act" not in row.group(0)
        assert "due " not in row.group(0)
        assert "a bot plays" in row.group(0)
        assert 'id="flag-form"' not in html  # no move is offered to the resigned seat
