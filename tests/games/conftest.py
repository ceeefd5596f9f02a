"""Fixtures for the game server tests: users, API clients, eager Celery tasks, random play."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games import selectors, services
from games.models import Game


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Every test here runs Celery tasks eagerly (the root conftest's ``eager_tasks``)."""


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **extra: Any) -> User:
        name = username or f"player{next(counter)}"
        user = User.objects.create_user(username=name, password="a-long-password-42", **extra)
        return user

    return make


class ApiClient:
    """A JSON client for /api/ acting as one user through a bearer token (or anonymous)."""

    def __init__(self, user: User | None = None) -> None:
        self.user = user
        self.client = Client()
        self.headers = {}
        if user is not None:
            self.headers["Authorization"] = f"Bearer {token_create(user=user)}"

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None, *, raw: str | None = None) -> Any:
        import json

        data = raw if raw is not None else json.dumps({} if body is None else body)
        return self.client.post(path, data, content_type="application/json", headers=self.headers)


@pytest.fixture
def api() -> Callable[[User | None], ApiClient]:
    return ApiClient


def play_randomly(game: Game, users: list[User], seed: int = 0, limit: int = 5000) -> Game:
    """Play ``game`` to the end through the services: each person picks a random legal action
    whenever they are to act (bots move by themselves through the eager task)."""
    rng = random.Random(seed)  # noqa: S311
    steps = 0
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and steps < limit:
        moved = False
        for user in users:
            doc = selectors.game_document(game=game, user=user)
            if doc["my_seat"] in doc["to_act"] and doc["legal_actions"]:
                services.action_submit(
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


def running_pair(make_user: Callable[..., User]) -> tuple[Game, list[User]]:
    """A running two-player table of two new people (both bid first), and the two."""
    users = [make_user(), make_user()]
    game = services.game_create(creator=users[0], players=2, options={"flags": "random"})
    services.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users
