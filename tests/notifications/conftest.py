"""Fixtures for the mail tests: eager tasks and a running two-player table (people with
addresses: the root plugin's ``person``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.tables import lifecycle
from notifications import turn_mails

BID_FIRST = {"flags": "random"}  # the game opens with a simultaneous sealed bid


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Every test here runs Celery tasks eagerly (the root conftest's ``eager_tasks``)."""


@pytest.fixture
def two_player_game() -> Callable[[User, User], Game]:
    def make(first: User, second: User, **create: Any) -> Game:
        game = lifecycle.game_create(creator=first, players=2, options=BID_FIRST, **create)
        lifecycle.game_join(game_id=game.pk, user=second)
        # The sweep after the grace period: the "your turn" mails due at the start leave.
        grace = timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS)
        turn_mails.turn_mails_queue(now=timezone.now() + grace)
        game.refresh_from_db()
        return game

    return make
