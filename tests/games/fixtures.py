"""Shared fixtures of the site's tests (a plugin of the root ``conftest.py``): users, API
clients and a running table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games.models import Game
from games.tables import lifecycle
from tests.accounts import factories

#: The password of the users the fixtures make.
PASSWORD = "a-long-password-42"


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    """Makes users (``tests.accounts.factories.make_user``): ``player1``, ``player2``, …
    unless named, with no address unless given one, signed in by ``PASSWORD``."""
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **extra: Any) -> User:
        extra.setdefault("email", "")
        extra.setdefault("password", PASSWORD)
        return factories.make_user(username or f"player{next(counter)}", verified=False, **extra)

    return make


@pytest.fixture
def person(make_user: Callable[..., User]) -> Callable[..., User]:
    """Makes a named user with an address, ``<name>@example.org`` (the mail tests)."""

    def make(name: str, **extra: Any) -> User:
        return make_user(name, **{"email": f"{name}@example.org", **extra})

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


def invited_pair(
    make_user: Callable[..., User],
    first: str | None = None,
    second: str | None = None,
    *,
    open_seats: bool = False,
) -> tuple[Game, list[User]]:
    """A running two-player table (the title's default options) that its opener invited the
    other to, and the two (named ``first`` and ``second`` if given)."""
    users = [make_user(first), make_user(second)]
    game = lifecycle.game_create(
        creator=users[0], players=2, invite=[users[1].username], open_seats=open_seats
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, users


def running_pair(make_user: Callable[..., User]) -> tuple[Game, list[User]]:
    """A running two-player table of two new people (both bid first), and the two."""
    users = [make_user(), make_user()]
    game = lifecycle.game_create(creator=users[0], players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users
