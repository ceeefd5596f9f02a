"""Bot players: their accounts, and how a bot picks its action.

A bot is a user (``is_bot=True``, ``bot_kind``) named ``bot-<kind>``, ``bot-<kind>-2``, …;
one account per seat at a table, so two bots of one kind at a table are two users. A bot sees
only its own seat's view and legal actions, exactly like a person using the API; the move
itself goes through ``games.services.action_submit`` (``games.bot_play.bot_play``, from the
``games.tasks.bot_move`` Celery task and from the deadline sweep).

One rule says when a bot is due (``bot_to_act``; the same in SQL over every game:
``seats_bot_due``): the game is running and a seat a bot plays (``Seat.bot_kind`` set: a bot
account's seat, or a person's seat handed to the bot) is in ``Game.to_act``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Func, QuerySet

from accounts.models import User
from games.engine import Rules, get_rules
from games.engine.bots import bot_names, get_bot
from games.models import Game, Seat


def bot_kinds(title: str) -> tuple[str, ...]:
    """The bot kinds a table of ``title`` may seat (the generic bots and the title's own)."""
    return tuple(bot_names(title))


def stand_in_kind(game: Game) -> str:
    """The bot that plays for a person at ``game``: once for a late player (the deadline
    sweep), or for good after resigning or a replace vote: the title's ``stand_in_bot``."""
    return str(get_rules(game.title).stand_in_bot)


def bot_to_act(game: Game, seats: Iterable[Seat] | None = None) -> Seat | None:
    """The seat a bot must act for now (the lowest-numbered one), or None: the "is a bot
    due" rule. ``seats``: the game's seats when the caller holds them already (a move reads
    them locked); otherwise only the candidates are read."""
    to_act = set(game.to_act or [])
    if game.status != Game.Status.RUNNING or not to_act:
        return None
    if seats is None:
        seats = Seat.objects.filter(game=game, seat__in=to_act).exclude(bot_kind="")
    due = [s for s in seats if s.bot_kind and s.seat is not None and s.seat in to_act]
    return min(due, key=lambda s: int(s.seat or 0), default=None)


class _ToActHas(Func):
    """SQL: ``to_act`` (a JSON list of seat numbers) contains ``seat``. Portable, so the
    whole test is one query with no row fetched for a bot that is not to act."""

    output_field = BooleanField()
    arity = 2

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        raise NotImplementedError(f"no JSON containment for {connection.vendor}")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        to_act, to_act_params = compiler.compile(self.source_expressions[0])
        seat, seat_params = compiler.compile(self.source_expressions[1])
        # jsonb @> a scalar: true when the array holds it.
        return f"({to_act} @> to_jsonb({seat}))", (*to_act_params, *seat_params)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        to_act, to_act_params = compiler.compile(self.source_expressions[0])
        seat, seat_params = compiler.compile(self.source_expressions[1])
        # Both fragments are compiled column references; their parameters stay separate.
        sql = f"EXISTS (SELECT 1 FROM json_each({to_act}) WHERE json_each.value = {seat})"  # noqa: S608
        return sql, (*to_act_params, *seat_params)


def seats_bot_due() -> QuerySet[Seat]:
    """``bot_to_act``'s rule in SQL, over every game at once (the stall sweep): the seats a
    bot plays that are in their running game's ``to_act``."""
    return (
        Seat.objects.filter(game__status=Game.Status.RUNNING, seat__isnull=False)
        .exclude(bot_kind="")
        .filter(_ToActHas("game__to_act", "seat"))
    )


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
                        # The level alone: a number would read as a seat ("Random bot 3"
                        # at seat 1); the table tells two of a kind apart by their seat.
                        display_name=f"{kind.capitalize()} bot",
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
