"""Signal receivers that queue mails. They run inside the move's transaction and only queue
tasks ``on_commit`` (``robust``: a broker hiccup never turns a committed move into an error).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from games.models import Game, Seat

log = logging.getLogger(__name__)


def newly_due(*, move: Any, previous_to_act: frozenset[int], to_act: frozenset[int]) -> set[int]:
    """Seats that have a new decision to make: in ``to_act`` now and not before, or the seat
    that just acted and must act again."""
    mover = getattr(move, "seat", None)
    return {s for s in to_act if s not in previous_to_act or s == mover}


def on_game_advanced(
    sender: Any,
    *,
    game: Game,
    move: Any,
    previous_to_act: frozenset[int],
    to_act: frozenset[int],
    **kwargs: Any,
) -> None:
    """Queue a "your turn" mail for each person newly due, checked after a grace period."""
    due = newly_due(move=move, previous_to_act=previous_to_act, to_act=to_act)
    if not due or game.status != Game.Status.RUNNING:
        return
    # A move hands over the seats it locked (with their users); the start reads them.
    seats: list[Seat] | None = getattr(game, "_locked_seats", None)
    if seats is None:
        seats = list(Seat.objects.filter(game=game, seat__in=due).select_related("user"))
    seat_ids = [
        s.pk
        for s in seats
        if s.seat in due
        and not s.bot_kind
        and not s.user.is_bot
        and s.user.email_notifications == "each_turn"
    ]
    version = int(game.version)
    delay = int(settings.TURN_EMAIL_DELAY_SECONDS)

    def queue() -> None:
        from games.tasks_mail import send_turn_email

        for seat_id in seat_ids:
            send_turn_email.apply_async((seat_id, version), countdown=delay)

    if seat_ids:
        transaction.on_commit(queue, robust=True)


def on_game_finished(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """Queue the "game finished" mails."""
    seat_ids = list(Seat.objects.filter(game=game, user__is_bot=False).values_list("pk", flat=True))

    def queue() -> None:
        from games.tasks_mail import send_finished_email

        for seat_id in seat_ids:
            send_finished_email.delay(seat_id)

    if seat_ids:
        transaction.on_commit(queue, robust=True)
