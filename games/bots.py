"""Bot players: their accounts, and how a bot picks its action.

A bot is a user (``is_bot=True``, ``bot_kind``) named ``bot-<kind>``, ``bot-<kind>-2``, …;
one account per seat at a table, so two bots of one kind at a table are two users. A bot sees
only its own seat's view and legal actions, exactly like a person using the API; the move
itself goes through ``games.services.action_submit`` (from the ``games.tasks.bot_move``
Celery task).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from games.engine import Rules
from games.engine.bots import bot_names, get_bot


def bot_kinds(title: str) -> tuple[str, ...]:
    """The bot kinds a table of ``title`` may seat (the generic bots and the title's own)."""
    return tuple(bot_names(title))


def bot_account(*, kind: str, exclude: Iterable[int] = ()) -> User:
    """The first bot account of ``kind`` whose id is not in ``exclude`` (the users already
    seated at the table), created when needed. Safe under concurrency."""
    taken = set(exclude)
    n = 1
    while True:
        username = f"bot-{kind}" if n == 1 else f"bot-{kind}-{n}"
        user = User.objects.filter(username=username).first()
        if user is None:
            try:
                with transaction.atomic():
                    user = User.objects.create(
                        username=username,
                        is_bot=True,
                        bot_kind=kind,
                        display_name=f"{kind.capitalize()} bot" + (f" {n}" if n > 1 else ""),
                        email_notifications=User.EmailNotifications.OFF,
                    )
                    user.set_unusable_password()
                    user.save(update_fields=["password"])
            except IntegrityError:
                user = User.objects.get(username=username)
        if user.pk not in taken:
            return user
        n += 1


def bot_rng(*, seed: str, version: int, seat: int) -> random.Random:
    """The bot's random generator for one decision: reproducible, not for security."""
    return random.Random(f"{seed}:bot:{version}:{seat}")  # noqa: S311


def bot_choose(
    *,
    kind: str,
    engine: Rules,
    view: dict[str, Any],
    legal_actions: list[dict[str, Any]],
    rng: random.Random,
) -> dict[str, Any]:
    """The action the bot of ``kind`` plays from this view (``legal_actions`` non-empty)."""
    action: dict[str, Any] = get_bot(engine.slug, kind).choose(engine, view, legal_actions, rng)
    return action
