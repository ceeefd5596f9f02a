"""A tournament's table ended: its tournament is stepped at once, after the finishing move's
commit (``table_over``, named in ``games.moves.effects.AFTER_COMMIT``; the sweep would do it
within a minute anyway)."""

from __future__ import annotations

from games.moves.result import MoveResult
from tournaments.ladder import challenge_settle
from tournaments.models import LadderChallenge, Pairing
from tournaments.task_names import step_queue


def table_over(result: MoveResult) -> None:
    if not result.finished:
        return
    game_id = int(result.game.pk)
    tournament_id = (
        Pairing.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        if LadderChallenge.objects.filter(game_id=game_id).exists():
            challenge_settle(game_id=game_id)
        return
    step_queue(tournament_id)
