"""A tournament's table ended: its tournament is stepped at once, after commit (the sweep
would do it within a minute anyway)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game
from games.signals import game_finished
from tournaments.ladder import challenge_settle
from tournaments.models import LadderChallenge, Pairing
from tournaments.task_names import step_queue


def on_game_finished(sender: Any, *, game: Game, **kwargs: Any) -> None:
    tournament_id = (
        Pairing.objects.filter(game_id=game.pk)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        if LadderChallenge.objects.filter(game_id=game.pk).exists():
            game_id = int(game.pk)
            transaction.on_commit(lambda: challenge_settle(game_id=game_id), robust=True)
        return

    def queue() -> None:
        step_queue(tournament_id)

    transaction.on_commit(queue, robust=True)


def connect() -> None:
    game_finished.connect(on_game_finished, dispatch_uid="tournaments-table-over")
