"""Shared fixtures of the site's tests (a plugin of the root ``conftest.py``): users, API
clients and a running table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games import services
from games.models import Game


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


def running_pair(make_user: Callable[..., User]) -> tuple[Game, list[User]]:
    """A running two-player table of two new people (both bid first), and the two."""
    users = [make_user(), make_user()]
    game = services.game_create(creator=users[0], players=2, options={"flags": "random"})
    services.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users
