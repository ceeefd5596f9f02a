"""Colorado County tables played through the real services up to a chosen moment (a land
sale, a bid), for the page tests and the browser tests. Plain functions, no fixtures."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from accounts.models import User
from games import moves
from games.models import Game
from games.selectors import documents
from games.tables import lifecycle

Doc = dict[str, Any]


def human_table(users: Sequence[User]) -> Game:
    """A running table of the given people (the first creates it, the others are invited)."""
    first, *others = users
    game = lifecycle.game_create(
        creator=first,
        players=len(users),
        invite=[u.username for u in others],
        open_seats=False,
        rated=False,
    )
    for user in others:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def move(game: Game, user: User, action: dict[str, Any]) -> Doc:
    doc = documents.game_document(game=game, user=user)
    moves.action_submit(game_id=game.pk, user=user, action=action, version=doc["version"])
    game.refresh_from_db()
    return documents.game_document(game=game, user=user)


def play_until(
    game: Game,
    users: Sequence[User],
    stop: Callable[[User, Doc], bool],
    *,
    seed: int = 1,
    limit: int = 3000,
) -> tuple[User, Doc]:
    """Play random legal moves (never a sale, never interested in one) until ``stop(user,
    doc)`` holds for a person whose document it is; return that person and document."""
    rng = random.Random(seed)  # noqa: S311
    for _ in range(limit):
        moved = False
        for user in users:
            game.refresh_from_db()
            doc = documents.game_document(game=game, user=user)
            if stop(user, doc):
                return user, doc
            if doc["my_seat"] not in doc["to_act"]:
                continue
            legal = [
                a
                for a in doc["legal_actions"]
                if a["type"] != "sell" and a != {"type": "sale_interest", "interested": True}
            ]
            moves.action_submit(
                game_id=game.pk, user=user, action=rng.choice(legal), version=doc["version"]
            )
            moved = True
        assert moved, "nobody could move"
    raise AssertionError("the moment never came")


def can_sell(user: User, doc: Doc) -> bool:
    return any(a["type"] == "sell" for a in doc["legal_actions"]) and doc["view"]["phase"] in (
        "bid",
        "claim",
    )


def open_a_sale(game: Game, users: Sequence[User], seed: int = 1) -> tuple[User, str]:
    """Play until someone can sell, and sell their first marker: (seller, cell)."""
    seller, doc = play_until(game, users, can_sell, seed=seed)
    cell = next(a["cell"] for a in doc["legal_actions"] if a["type"] == "sell")
    move(game, seller, {"type": "sell", "cell": cell})
    return seller, cell


def seat_of(game: Game, user: User) -> int:
    return int(game.seats.get(user=user).seat)
