"""Bots move through a real Celery worker with the Redis broker, like in production."""

from __future__ import annotations

import pytest

from games.bots import players as bot_players
from games.models import Game, Move
from games.tables import lifecycle
from tests.waiting import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def test_two_bots_play_a_whole_game_through_the_worker(real_worker: None) -> None:
    opener = bot_players.bot_account(kind="random")
    game = lifecycle.game_create(creator=opener, players=2, bots=["greedy"])

    def finished() -> bool:
        game.refresh_from_db()
        return game.status == Game.Status.FINISHED

    wait_until(finished, timeout=180, interval=0.5, message=lambda: f"v{game.version} finished")
    assert game.result is not None
    assert Move.objects.filter(game=game).count() == game.version - 1
    assert set(Move.objects.filter(game=game).values_list("actor", flat=True)) == {"bot"}


def test_every_bot_move_reaches_a_watching_socket(real_worker: None, worker_id: str) -> None:
    """The worker's broadcasts cross processes: a spectator socket held by a separate
    uvicorn server sees each version the bots reach, up to the end."""
    from django.db import connection

    from tests.fixtures import channel_prefix
    from tests.games.live import Socket, live_server

    name = connection.settings_dict["NAME"]
    opener = bot_players.bot_account(kind="random")
    with live_server(database_name=name, channel_prefix=channel_prefix(worker_id)) as base:
        game = lifecycle.game_create(creator=opener, players=2, bots=["greedy"], open_seats=True)
        sock = Socket(base.replace("http", "ws", 1) + f"/ws/games/{game.pk}/", origin=base)
        try:
            final = sock.wait_for(lambda f: f.get("status") == "finished", timeout=240)
        finally:
            sock.close()
    game.refresh_from_db()
    assert final["version"] == game.version
    assert final["result"] == game.result
    seen = sorted({f["version"] for f in sock.frames if f["type"] == "game"})
    # Frames may skip versions when moves come faster than a frame is built, never stall.
    assert seen[-1] == game.version
