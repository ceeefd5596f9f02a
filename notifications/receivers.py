"""The mails' (and pushes') part of a move, named in ``games.moves.effects``: inside the
move's transaction a "your turn" mail is owed on the seat (the sweep queues it after the
grace period) and the pushes are recorded; after the commit the "game finished" mails are
queued. And the invitation mails of a new table (``on_game_created``, Django's
``post_save``), queued on commit (``robust``: a broker hiccup never turns a committed
change into an error).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game, Invitation, Seat
from games.moves.result import Advance, MoveResult
from games.store import rows
from notifications import push
from notifications.tasks import send_finished_email, send_invitation_email

log = logging.getLogger(__name__)


def newly_due(*, move: Any, previous_to_act: frozenset[int], to_act: frozenset[int]) -> set[int]:
    """Seats that have a new decision to make: in ``to_act`` now and not before, or the seat
    that just acted and must act again."""
    mover = getattr(move, "seat", None)
    return {s for s in to_act if s not in previous_to_act or s == mover}


def turn_owed(advance: Advance) -> None:
    """Put a "your turn" mail on the seat of each person newly due; the sweep queues it once
    the grace period has passed (``notifications.turn_mails.turn_mails_claim``) and it leaves
    only if the player has still not seen the table. One UPDATE in the move's transaction,
    not a task per move: the pending mail is as durable as the move."""
    game = advance.game
    due = newly_due(
        move=advance.move, previous_to_act=advance.previous_to_act, to_act=advance.to_act
    )
    if not due or game.status != Game.Status.RUNNING:
        return
    people = [s for s in advance.seats if s.seat in due and not s.bot_kind and not s.user.is_bot]
    # Web Push first (issue 43): a device that pushes turns delays the mail, which then
    # goes only if the push was not answered.
    pushers = push.turn_pushers(s.user_id for s in people)
    if pushers:
        push.turn_pushes_record(game=game, seats=[s for s in people if s.user_id in pushers])
    now = timezone.now()
    soon = now + timedelta(seconds=int(settings.TURN_EMAIL_DELAY_SECONDS))
    later = max(soon, now + timedelta(seconds=int(settings.PUSH_MAIL_DELAY_SECONDS)))
    mailed = [s for s in people if s.user.email_notifications == "each_turn"]
    for at, group in (
        (soon, [s.pk for s in mailed if s.user_id not in pushers]),
        (later, [s.pk for s in mailed if s.user_id in pushers]),
    ):
        if group:
            rows.update_pks(Seat, group, turn_mail_version=int(game.version), turn_mail_at=at)


def _people(result: MoveResult) -> list[int]:
    return [s.pk for s in result.seats if not s.user.is_bot]


def finished_pushes_owed(result: MoveResult) -> None:
    """In the finishing move's transaction: the "game over" pushes."""
    if _people(result):
        push.finished_pushes_record(game=result.game)


def finished_mails_queue(result: MoveResult) -> None:
    """After the finishing move's commit: one "game finished" mail per person."""
    if result.finished:
        for seat_id in _people(result):
            send_finished_email.delay(seat_id)


def on_game_created(sender: Any, *, instance: Game, created: bool, **kwargs: Any) -> None:
    """A new table (a rematch too): queue one mail per invitation, once committed (the
    invitations are written after the table's row, in the same transaction)."""
    if not created:
        return
    game_id = int(instance.pk)

    def queue() -> None:

        for invitation_id in Invitation.objects.filter(game_id=game_id).values_list(
            "pk", flat=True
        ):
            send_invitation_email.delay(invitation_id)
        push.invitation_pushes_queue(game_id=game_id)

    transaction.on_commit(queue, robust=True)
