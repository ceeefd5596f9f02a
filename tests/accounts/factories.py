"""Test factories for accounts: users, and finished games written straight to the models.

The game services are the only production code that writes games; these factories build the
rows a finished game leaves behind so rating and profile code can be tested in isolation.
End-to-end tests use the real services instead.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from typing import Any

from allauth.account.models import EmailAddress
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat

_counter = itertools.count(1)

#: The password of a test user unless the test gives one.
PASSWORD = "cattle-drive-99"


def make_user(username: str | None = None, *, verified: bool = True, **fields: Any) -> User:
    """A user for a test: every test user is made here (the ``make_user``, ``person`` and
    ``player`` fixtures too). By default with an address, verified, and ``PASSWORD``."""
    username = username or f"player{next(_counter)}"
    fields.setdefault("email", f"{username}@example.org")
    password = fields.pop("password", PASSWORD)
    user = User.objects.create_user(username=username, password=password, **fields)
    if verified and user.email:
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    return user


def make_bot(kind: str = "greedy", n: int | None = None) -> User:
    name = f"bot-{kind}" if not n else f"bot-{kind}-{n}"
    return User.objects.create_user(username=name, is_bot=True, bot_kind=kind, email="")


def ranks_from_scores(scores: Sequence[int]) -> list[int]:
    """Competition ranks (1 best, ties share, next rank skips)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def finished_game(
    users: Sequence[User],
    scores: Sequence[int],
    *,
    ranks: Sequence[int] | None = None,
    resigned: Sequence[bool] | None = None,
    replaced: Sequence[bool] | None = None,
    missed: Sequence[int] | None = None,
    rated: bool = True,
    slug: str = "colorado-county",
    status: str = Game.Status.FINISHED,
) -> Game:
    """A finished game with ``users`` in seats 0.. and ``scores`` by seat."""
    n = len(users)
    ranks = list(ranks) if ranks is not None else ranks_from_scores(scores)
    seed = f"seed-{next(_counter)}"
    now = timezone.now()
    game = Game.objects.create(
        title=slug,
        num_players=n,
        status=status,
        seed=seed,
        seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
        rated=rated,
        started_at=now,
        finished_at=now if status == Game.Status.FINISHED else None,
        result={"scores": list(scores), "ranks": ranks},
        created_by=users[0],
    )
    for seat, user in enumerate(users):
        bot_kind = user.bot_kind if user.is_bot else ""
        if replaced and replaced[seat]:
            bot_kind = "greedy"
        Seat.objects.create(
            game=game,
            user=user,
            seat=seat,
            bot_kind=bot_kind,
            resigned=bool(resigned and resigned[seat]),
            missed_deadlines=missed[seat] if missed else 0,
            final_score=scores[seat],
            final_rank=ranks[seat],
        )
    return game
