"""Shared test helpers that several test packages use (not fixtures: plain functions)."""

from __future__ import annotations

import random
from typing import Any

from accounts.models import User
from games import moves
from games.models import Game
from games.selectors import documents


def mover(game: Game, *users: User) -> tuple[User, dict[str, Any]]:
    """The first of ``users`` whose seat is to act in ``game`` now (``game`` is read again),
    with that player's document."""
    game.refresh_from_db()
    fresh = Game.objects.get(pk=game.pk)
    for user in users:
        doc = documents.game_document(game=fresh, user=user)
        if doc["my_seat"] in doc["to_act"]:
            return user, doc
    raise AssertionError(f"none of them is to act (to_act {game.to_act})")


def act_once(game: Game, *users: User) -> Game:
    """The first legal action of the first of ``users`` who is to act, made through the
    move service; the game after it."""
    user, doc = mover(game, *users)
    return moves.action_submit(
        game_id=game.pk, user=user, action=doc["legal_actions"][0], version=doc["version"]
    )


def play_randomly(game: Game, users: list[User], seed: int = 0, limit: int = 5000) -> Game:
    """Play ``game`` to the end through the services: each person picks a random legal action
    whenever they are to act (bots move by themselves through the eager task)."""
    rng = random.Random(seed)  # noqa: S311
    steps = 0
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and steps < limit:
        moved = False
        for user in users:
            doc = documents.game_document(game=game, user=user)
            if doc["my_seat"] in doc["to_act"] and doc["legal_actions"]:
                moves.action_submit(
                    game_id=game.pk,
                    user=user,
                    action=rng.choice(doc["legal_actions"]),
                    version=doc["version"],
                    client_id=f"{user.pk}-{steps}",
                )
                moved = True
                steps += 1
            game.refresh_from_db()
        assert moved, f"nobody could move at version {game.version} (to_act {game.to_act})"
    return game
