"""The daily digest and the mails of single events: "game finished", a missed turn, the
end of a vacation, an invitation. Each is sent through ``services.notification_send`` under
a key of its own, so it leaves at most once however often its task runs, and names only
what the public view shows (``notifications.services``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.clocks.arithmetic import zone
from games.clocks.time_left import time_left_text
from games.models import Game, Invitation, Seat
from notifications.mail_parts import (
    game_title,
    game_url,
    local_deadline,
    mail_name,
    subject_name,
    what_is_needed,
)
from notifications.services import Mail, notification_send
from notifications.turn_mails import seat_mail_send, wants_mail

DIGEST_LOCAL_HOUR = 7  # the digest goes out at 07:00 in each reader's time zone


def digest_readers(*, now: datetime) -> list[User]:
    """Digest readers for whom it is now the digest hour (07:00 to 07:59 local)."""
    readers = User.objects.filter(
        email_notifications=User.EmailNotifications.DIGEST, is_bot=False, is_active=True
    ).exclude(email="")
    return [
        u
        for u in readers.only("pk", "time_zone")
        if now.astimezone(zone(u.time_zone)).hour == DIGEST_LOCAL_HOUR
    ]


def digest_send(*, user_id: int, now: datetime | None = None) -> bool:
    """One mail listing every game where it is the player's turn, least time left first
    (none when there is no such game). Once per local day."""
    now = now or timezone.now()
    user = User.objects.filter(pk=user_id).first()
    if user is None or user.email_notifications != User.EmailNotifications.DIGEST:
        return False
    local_day = now.astimezone(zone(user.time_zone)).date()

    def build() -> Mail | None:
        seats = [
            s
            for s in Seat.objects.filter(
                user=user, bot_kind="", game__status=Game.Status.RUNNING
            ).select_related("game")
            if s.seat in (s.game.to_act or [])
        ]
        if not seats:
            return None
        far = now + timedelta(days=3650)
        seats.sort(key=lambda s: (s.deadline or far, s.game_id))
        games = [
            {
                "title": game_title(s.game),
                "needed": what_is_needed(s.game),
                "deadline": local_deadline(s.deadline, user),
                "time_left": time_left_text(s.deadline, now),
                "game_url": game_url(s.game),
            }
            for s in seats
        ]
        return Mail(
            subject=_("Your turn in %(count)d games") % {"count": len(games)}
            if len(games) > 1
            else _("Your turn in %(title)s") % {"title": games[0]["title"]},
            template="digest",
            context={"games": games},
        )

    return notification_send(
        key=f"digest:{user.pk}:{local_day.isoformat()}", user=user, kind="digest", build=build
    )


def finished_mail_send(*, seat_id: int) -> bool:
    """ "Game finished" with the final scores and ranks (public once the game is over)."""
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or not wants_mail(seat.user, digest_too=True):
        return False
    game = seat.game
    if game.status != Game.Status.FINISHED:
        return False

    def build() -> Mail | None:
        rows = sorted(
            Seat.objects.filter(game=game).select_related("user"),
            key=lambda s: (s.final_rank or 99, s.seat or 0),
        )
        standings = [
            {
                "rank": s.final_rank,
                "name": mail_name(s.user),
                "score": s.final_score,
                "is_me": s.pk == seat.pk,
                "bot_standing_in": bool(s.bot_kind) and not s.user.is_bot,
            }
            for s in rows
        ]
        return Mail(
            subject=_("Game over: %(title)s") % {"title": game_title(game)},
            template="finished",
            context={
                "title": game_title(game),
                "standings": standings,
                "my_rank": seat.final_rank,
                "my_score": seat.final_score,
                # First place: "You won" (or shared it), not "You finished #1" (issue 43).
                "won": seat.final_rank == 1,
                "shared": seat.final_rank == 1 and sum(1 for s in rows if s.final_rank == 1) > 1,
                "game_url": game_url(game),
            },
        )

    return seat_mail_send(
        seat, kind="finished", key=f"finished:{seat.pk}:{game.version}", build=build
    )


def missed_mail_send(*, seat_id: int, missed_seat_id: int, misses: int) -> bool:
    """Tell a player at a waiting table that ``missed_seat_id``'s player missed a deadline
    (after the second miss they may vote to hand that seat to a bot)."""
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    late = Seat.objects.select_related("user").filter(pk=missed_seat_id).first()
    if seat is None or late is None or not wants_mail(seat.user, digest_too=True):
        return False
    game = seat.game

    def build() -> Mail | None:
        if game.status != Game.Status.RUNNING:
            return None
        return Mail(
            # A person's free text (a display name) never reaches a subject: the username,
            # quoted by the sentence (notifications.mail_parts.subject_name).
            subject=_("“%(name)s” missed a deadline in %(title)s")
            % {"name": subject_name(late.user), "title": game_title(game)},
            template="missed",
            context={
                "title": game_title(game),
                "late_name": mail_name(late.user),
                "misses": misses,
                "may_vote": misses >= 2,
                "game_url": game_url(game),
            },
        )

    return seat_mail_send(
        seat, kind="missed", key=f"missed:{seat.pk}:{missed_seat_id}:{misses}", build=build
    )


def vacation_mail_send(*, seat_id: int, deadline_iso: str) -> bool:
    """Tell a player that a vacation day moved their deadline (once per new deadline)."""
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or not wants_mail(seat.user, digest_too=True):
        return False
    game = seat.game

    def build() -> Mail | None:
        fresh = Seat.objects.get(pk=seat_id)
        if (
            game.status != Game.Status.RUNNING
            or fresh.deadline is None
            or fresh.deadline.isoformat() != deadline_iso
        ):
            return None  # they moved meanwhile, or the deadline changed again
        return Mail(
            subject=_("A vacation day was used in %(title)s") % {"title": game_title(game)},
            template="vacation",
            context={
                "title": game_title(game),
                "needed": what_is_needed(game),
                "deadline": local_deadline(fresh.deadline, seat.user),
                "vacation_days": seat.user.vacation_days,
                "game_url": game_url(game),
            },
        )

    return seat_mail_send(
        seat, kind="vacation", key=f"vacation:{seat.pk}:{deadline_iso}", build=build
    )


def invitation_mail_send(*, invitation_id: int) -> bool:
    """Tell an invited player about the table (a rematch offer says so): who invited them,
    the game, the players seated and a link to take the seat. Once per invitation; sent to
    players whose e-mail setting is "each turn" or "daily digest" (never with "off"), and
    only while the table is still open and the invitation unanswered."""
    invitation = (
        Invitation.objects.select_related("user", "game", "invited_by")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or not wants_mail(invitation.user, digest_too=True):
        return False
    game = invitation.game

    def build() -> Mail | None:
        fresh = Invitation.objects.select_related("game").get(pk=invitation_id)
        if fresh.game.status != Game.Status.OPEN or fresh.accepted_at or fresh.declined_at:
            return None  # taken up, declined or the table moved on meanwhile
        sender = invitation.invited_by
        # The body names the sender with their username beside any display name; the
        # subject by username only, quoted (a display name is free text: it was a way to
        # write "your account is locked" into a subject line).
        inviter = mail_name(sender) if sender else ""
        quoted = {"name": subject_name(sender) if sender else "", "title": game_title(game)}
        rematch = fresh.game.rematch_of_id is not None
        if rematch:
            subject = _("“%(name)s” offers a rematch of %(title)s") % quoted
        else:
            subject = _("“%(name)s” invites you to %(title)s") % quoted
        return Mail(
            subject=subject,
            template="invitation",
            context={
                "title": game_title(game),
                "inviter": inviter,
                "rematch": rematch,
                "players": [
                    mail_name(s.user) for s in Seat.objects.filter(game=game).select_related("user")
                ],
                "game_url": game_url(game),
            },
        )

    return notification_send(
        key=f"invitation:{invitation.pk}",
        user=invitation.user,
        kind="invitation",
        build=build,
        game=game,
    )
