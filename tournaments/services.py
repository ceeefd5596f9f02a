"""Making a tournament, entering and leaving it (docs/tournaments.md). The rounds are run
by ``tournaments.rounds``."""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import email_verified
from games.bots.players import bot_account, kind_for
from games.clocks.seats import seat_resign
from games.engine import title_slugs
from games.errors import BadRequest, Conflict, GameError, NotAllowed, NotFound
from games.models import Game, Seat
from games.tables.seated import table_checks
from tournaments.models import Entrant, Pairing, Tournament
from tournaments.task_names import step_queue

MAX_ENTRANTS = 64
MAX_SWISS_ROUNDS = 20
LIVE = (Tournament.Status.OPEN, Tournament.Status.RUNNING)


def per_player() -> int:
    """Tournaments a player (not an admin) may have open or under way at once."""
    return int(getattr(settings, "TOURNAMENTS_PER_PLAYER", 3))


def _int(value: Any, code: str, low: int, high: int, message: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(message, code=code)
    return value


def _starts(value: Any, now: datetime) -> datetime | None:
    if value in (None, "", "when_full"):
        return None
    when = parse_datetime(value) if isinstance(value, str) else None
    if when is None or timezone.is_naive(when):
        raise BadRequest(
            _('starts is "when_full" or a time with its zone (ISO 8601).'), code="bad_starts"
        )
    if not now <= when <= now + timedelta(days=90):
        raise BadRequest(_("A tournament starts within 90 days."), code="bad_starts")
    return when


def tournament_create(*, creator: User, data: dict[str, Any]) -> Tournament:
    """A new tournament taking entries. Any verified player (``per_player`` live at once)
    or an admin may make one. Refusals: 400 with a stable code, 403, 409."""
    if not creator.is_staff and not email_verified(user=creator):
        raise NotAllowed(
            _("Verify your e-mail address before making a tournament."), code="email_unverified"
        )
    title = data.get("title")
    if title not in title_slugs():
        raise BadRequest(_("Unknown game."), code="unknown_game")
    fmt = data.get("format")
    if fmt not in Tournament.Format.values:
        raise BadRequest(_("The format is round_robin, swiss or knockout."), code="bad_format")
    seats = _int(data.get("seats", 2), "bad_players", 2, 16, _("Seats per table: 2 to 16."))
    if fmt == Tournament.Format.KNOCKOUT and seats != 2:
        raise BadRequest(_("A knockout is played at two-seat tables."), code="bad_players")
    options = table_checks(
        title=title, seats=seats, options=data.get("options"), clock=data.get("clock")
    )
    rounds = 0
    if fmt == Tournament.Format.SWISS:
        rounds = _int(
            data.get("rounds"),
            "bad_rounds",
            1,
            MAX_SWISS_ROUNDS,
            _("A Swiss tournament has 1 to %(n)d rounds.") % {"n": MAX_SWISS_ROUNDS},
        )
    low = _int(
        data.get("min_entrants", seats),
        "bad_entrants",
        seats,
        MAX_ENTRANTS,
        _("At least one table's worth of entrants, at most %(n)d.") % {"n": MAX_ENTRANTS},
    )
    high = _int(
        data.get("max_entrants", max(low, 8)),
        "bad_entrants",
        low,
        MAX_ENTRANTS,
        _("At least one table's worth of entrants, at most %(n)d.") % {"n": MAX_ENTRANTS},
    )
    round_days = _int(
        data.get("round_days", 14), "bad_round_days", 1, 60, _("A round lasts 1 to 60 days.")
    )
    name = data.get("name") or ""
    if not isinstance(name, str) or len(name) > 80:
        raise BadRequest(_("A tournament's name has at most 80 characters."), code="bad_name")
    rated, bots = data.get("rated", True), data.get("bots_allowed", False)
    if not isinstance(rated, bool) or not isinstance(bots, bool):
        raise BadRequest(_("rated and bots_allowed are true or false."), code="bad_request")
    now = timezone.now()
    starts = _starts(data.get("starts", "when_full"), now)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=creator.pk).first()
        live = Tournament.objects.filter(created_by=creator, status__in=LIVE).count()
        if not creator.is_staff and live >= per_player():
            raise Conflict(
                _("You have %(n)d tournaments going, the most a player may.") % {"n": per_player()},
                code="too_many_tournaments",
            )
        return Tournament.objects.create(
            name=name.strip() or _("%(title)s tournament") % {"title": title},
            title=title,
            format=fmt,
            seats=seats,
            rounds=rounds,
            options=options,
            clock=data.get("clock"),
            rated=rated,
            bots_allowed=bots,
            min_entrants=low,
            max_entrants=high,
            starts_at=starts,
            round_days=round_days,
            created_by=creator,
        )


def _open(tournament_id: Any) -> Tournament:
    t = (
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if isinstance(tournament_id, int) and 0 < tournament_id < 2**62
        else None
    )
    if t is None:
        raise NotFound(_("There is no such tournament."), code="unknown_tournament")
    return t


def _enter(t: Tournament, user: User) -> Entrant:
    if t.status != Tournament.Status.OPEN:
        raise Conflict(_("This tournament takes no more entries."), code="not_open")
    if Entrant.objects.filter(tournament=t, user=user).exists():
        raise Conflict(_("You have entered already."), code="already_entered")
    if Entrant.objects.filter(tournament=t).count() >= t.max_entrants:
        raise Conflict(_("This tournament is full."), code="tournament_full")
    entrant = Entrant.objects.create(tournament=t, user=user)
    if t.starts_at is None and Entrant.objects.filter(tournament=t).count() >= t.max_entrants:
        _wake(t.pk)  # "when full": the round starts now, not at the next sweep
    return entrant


def _wake(tournament_id: int) -> None:
    def queue() -> None:
        step_queue(tournament_id)

    transaction.on_commit(queue, robust=True)


def tournament_join(*, tournament_id: Any, user: User) -> Tournament:
    if user.is_bot:
        raise NotAllowed(_("Bots are entered by the tournament's maker."), code="bot")
    with transaction.atomic():
        t = _open(tournament_id)
        _enter(t, user)
    return t


def tournament_add_bot(*, tournament_id: Any, user: User, level: Any) -> Tournament:
    """The maker (or an admin) enters a bot of ``level`` where bots are allowed."""
    with transaction.atomic():
        t = _open(tournament_id)
        if t.created_by_id != user.pk and not user.is_staff:
            raise NotAllowed(_("Only the tournament's maker enters bots."), code="not_the_maker")
        if not t.bots_allowed:
            raise Conflict(_("This tournament is for people only."), code="no_bots")
        kind = kind_for(t.title, level) if isinstance(level, str) else None
        if kind is None:
            raise BadRequest(_("Unknown bot level."), code="unknown_bot_level")
        taken = Entrant.objects.filter(tournament=t).values_list("user_id", flat=True)
        _enter(t, bot_account(kind=kind, exclude=list(taken)))
    return t


def tournament_leave(*, tournament_id: Any, user: User) -> Tournament:
    """Before the start: the entry is removed. Under way: the player withdraws (TR-R-4):
    they are paired no more and resign their running tables of the tournament."""
    with transaction.atomic():
        t = _open(tournament_id)
        entrant = Entrant.objects.filter(tournament=t, user=user).first()
        if entrant is None:
            raise Conflict(_("You have not entered this tournament."), code="not_entered")
        if t.status == Tournament.Status.OPEN:
            entrant.delete()
            return t
        if t.status != Tournament.Status.RUNNING or entrant.withdrawn_at is not None:
            raise Conflict(_("There is nothing to withdraw from."), code="not_running")
        entrant.withdrawn_at = timezone.now()
        entrant.save(update_fields=["withdrawn_at"])
        games = list(
            Pairing.objects.filter(
                round__tournament=t, game__status=Game.Status.RUNNING
            ).values_list("game_id", flat=True)
        )
    for game_id in games:
        if Seat.objects.filter(game_id=game_id, user=user, bot_kind="").exists():
            with contextlib.suppress(GameError):  # already out of that table
                seat_resign(game_id=game_id, user=user)
    return t
