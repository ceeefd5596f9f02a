"""Tables whose players the site chooses (a tournament's round): every seat filled at once
and the game started, in one transaction. The options and clock are checked as for any
table (``games.tables.lifecycle``); the late player's seat is moved for by the bot (tournament
tables never wait: docs/tournaments.md, TR-R-3); there are no invitations and no free
seat, but anyone may watch; the table counts against no player's allowance of tables."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import get_rules
from games.errors import BadRequest
from games.models import Game, Seat
from games.tables import lifecycle


def table_checks(*, title: str, seats: int, options: Any, clock: Any) -> dict[str, Any]:
    """The options as the title takes them; 400 with the codes of ``POST /api/games``."""
    try:
        engine = get_rules(title)
    except KeyError:
        raise BadRequest(_("Unknown game."), code="unknown_game") from None
    clean = lifecycle.seats_and_options_check(engine, seats, options)
    lifecycle.clock_seconds(clock)
    return clean


def seated_table_open(
    *,
    created_by: User | None,
    title: str,
    users: Sequence[User],
    options: Mapping[str, Any],
    clock: Any,
    rated: bool,
) -> Game:
    """A started table of ``users`` (bot accounts play their own seats)."""
    clean = table_checks(title=title, seats=len(users), options=options, clock=clock)
    initial, increment, maximum = lifecycle.clock_seconds(clock)
    with transaction.atomic():
        seed = secrets.token_hex(16)
        row = Game.objects.create(
            title=title,
            options=clean,
            num_players=len(users),
            created_by=created_by,
            seed=seed,
            seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
            clock_initial_seconds=initial,
            clock_increment_seconds=increment,
            clock_max_seconds=maximum,
            on_timeout=Game.OnTimeout.BOT,
            rated=rated,
            open_seats=True,  # watched by anyone, as the tournament is; no seat is free
        )
        for user in users:
            Seat.objects.create(game=row, user=user, bot_kind=user.bot_kind if user.is_bot else "")
        return lifecycle.game_start(game_id=row.pk)
