"""Colorado through the site: a table against a bot plays to its end on the page, the call
posted as two choices, every other move as its button's JSON."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.engine import get_rules
from games.models import Game
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


@pytest.mark.parametrize(
    "bots", [["medium"], ["easy", "hard"], ["easy", "medium", "hard"]], ids=["2p", "3p", "4p"]
)
def test_a_player_plays_a_whole_game_on_the_page(
    bots: list[str], make_user: Callable[..., User], settings: Any
) -> None:
    """With 2, 3 and 4 seats, against bots of every level (the hard one thinking briefly)."""
    settings.BOT_SEARCH_SECONDS = 0.05
    settings.BOT_SEARCH_ITERATIONS = 10
    alice = make_user()
    game = lifecycle.game_create(
        creator=alice,
        title="colorado-2023",
        players=len(bots) + 1,
        bots=bots,
        options={"round_limit": 25},
    )
    page = Client()
    page.force_login(alice)
    html = page.get(f"/games/{game.pk}/").content.decode()
    assert "Your road map" in html
    assert "Start in town T1" in html
    rules = get_rules("colorado-2023")
    rng = random.Random(3)  # noqa: S311
    called = False
    for _step in range(4000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat = game.seats.get(user=alice).seat
        legal = rules.legal_actions(rules.load(game.state), seat)
        if not legal:
            continue
        moves = [a for a in legal if a["type"] != "standing"]
        action = moves[rng.randrange(len(moves))]
        if action["type"] == "call" and not called:
            called = True
            assert "Whom do you call?" in page.get(f"/games/{game.pk}/").content.decode()
            data = {"call_seat": str(action["seat"]), "call_card": action["card"]}
        else:
            data = {"action": json.dumps(action)}
        answer = page.post(f"/games/{game.pk}/act/", {**data, "version": game.version})
        assert answer.status_code in (200, 302), answer.content
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert called
    assert "The game is over." in page.get(f"/games/{game.pk}/").content.decode()
