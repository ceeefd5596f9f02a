"""Clocks on the database: starting and stopping seats' clocks as the game advances, the
deadline sweep (vacation, timeouts), taking vacation, resigning and replace votes.

Rules in words: ``docs/clocks.md``; arithmetic: ``games.clocks`` (pure). Lock order, the
same everywhere so two writers never wait on each other in a circle: game rows (by id),
then seat rows, then the user row. Moves themselves go through ``games.services``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Least
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import clocks, rows
from games.models import Game, Move, Seat

log = logging.getLogger(__name__)

#: A claimed seat's deadline is pushed this far: if the worker dies, the seat is due again
#: after the lease and the next sweep takes it over.
CLAIM_LEASE = timedelta(minutes=5)
#: Seats handled per sweep run (the rest wait a minute).
SWEEP_LIMIT = 200
#: Misses after which the other players of a waiting table may vote to replace the player.
MISSES_BEFORE_VOTE = 2
CLOCK_FIELDS = ["clock_remaining_seconds", "clock_started_at", "deadline"]


def _tz(user: User) -> tzinfo:
    return clocks.zone(user.time_zone)


def _counts_as_person(seat: Seat) -> bool:
    """A seat a person plays now (not a bot account, not handed to a bot)."""
    return not seat.bot_kind and not seat.user.is_bot


def _away(seat: Seat) -> datetime | None:
    return seat.user.away_until if _counts_as_person(seat) else None


def _elapsed(seat: Seat, game: Game, now: datetime) -> float:
    if seat.clock_started_at is None:
        return 0.0
    return clocks.counted_seconds(
        seat.clock_started_at,
        now,
        tz=_tz(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=_away(seat),
    )


def _deadline(seat: Seat, game: Game, start: datetime) -> datetime:
    return clocks.deadline_after(
        start,
        seat.clock_remaining_seconds,
        tz=_tz(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=_away(seat),
    )


# --- the clock as the game advances (receiver of games.signals.game_advanced) --------------


def clocks_advance(
    *,
    game: Game,
    move: Move | None,
    previous_to_act: frozenset[int],
    to_act: frozenset[int],
    now: datetime | None = None,
) -> None:
    """Stop and start the seats' clocks after ``move`` (``None``: the game started).

    Runs inside the move's transaction (the game row is locked). A running clock
    (``clock_started_at`` set) stops when its seat is no longer due, or when its seat acted;
    the seat that acted gets the increment (capped). Every seat due and without a running
    clock starts one, with its deadline. At the start every bank is the initial time; at the
    end every clock stops and every deadline is cleared.
    """
    now = now or timezone.now()
    # The caller (a move) may hand over the seats it already locked with their users.
    seats: list[Seat] | None = getattr(game, "_locked_seats", None)
    if seats is None:
        seats = list(
            Seat.objects.select_for_update(of=("self",))
            .filter(game=game)
            .select_related("user")
            .order_by("pk")
        )
    running = game.status == Game.Status.RUNNING
    mover = move.seat if move is not None else None
    changed: list[Seat] = []
    for seat in seats:
        before = (seat.clock_remaining_seconds, seat.clock_started_at, seat.deadline)
        if move is None:
            seat.clock_remaining_seconds = float(game.clock_initial_seconds)
            seat.clock_started_at = None
            seat.deadline = None
        due = running and seat.seat in to_act
        acted = seat.seat == mover
        if seat.clock_started_at is not None and (not due or acted):
            seat.clock_remaining_seconds = clocks.bank_after_move(
                seat.clock_remaining_seconds,
                _elapsed(seat, game, now),
                increment=game.clock_increment_seconds,
                cap=game.clock_max_seconds,
                acted=acted,
            )
            seat.clock_started_at = None
            seat.deadline = None
        if due and seat.clock_started_at is None:
            seat.clock_started_at = now
            seat.deadline = _deadline(seat, game, now)
        if not due:
            seat.deadline = None
        if (seat.clock_remaining_seconds, seat.clock_started_at, seat.deadline) != before:
            changed.append(seat)
    for seat in changed:  # usually one or two seats: plain UPDATEs beat a CASE bulk update
        rows.update(seat, CLOCK_FIELDS)
    if move is not None and move.actor == Move.Actor.PLAYER and move.user_id is not None:
        mover_user = next((s.user for s in seats if s.user_id == move.user_id), None)
        if mover_user is not None:
            _accrue_vacation(user=mover_user, now=now)


def _accrue_vacation(*, user: User, now: datetime) -> None:
    """The first move a person makes themselves on a day (their time zone) earns 1/8 day of
    vacation, up to 30. One conditional UPDATE: of two first moves at once, the second finds
    the day already recorded once the first commits (PostgreSQL re-checks the row)."""
    if user.is_bot:
        return
    today = now.astimezone(_tz(user)).date()
    if user.vacation_accrued_on == today:
        return  # already earned today (as read with the seats)
    user.vacation_accrued_on = today
    User.objects.filter(pk=user.pk).exclude(vacation_accrued_on=today).update(
        vacation_accrued_on=today,
        vacation_days=Least(
            F("vacation_days") + clocks.VACATION_DAYS_PER_DAY_PLAYED,
            Value(clocks.VACATION_DAYS_MAX),
        ),
    )


def on_game_advanced(
    sender: Any,
    *,
    game: Game,
    move: Move | None,
    previous_to_act: frozenset[int],
    to_act: frozenset[int],
    **kwargs: Any,
) -> None:
    clocks_advance(game=game, move=move, previous_to_act=previous_to_act, to_act=to_act)


# --- the sweep ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    seat_id: int
    deadline: datetime  # the deadline that passed
    token: datetime  # the deadline the claim wrote (now + lease): proof of ownership


def deadlines_claim(*, now: datetime, limit: int = SWEEP_LIMIT) -> list[Claim]:
    """Find due seats with one query on the ``seat_due_deadline`` index and claim each with
    a conditional UPDATE (the deadline must still be the one read): of two sweeps racing,
    exactly one claims a seat. A claim pushes the deadline by ``CLAIM_LEASE``."""
    due = list(
        Seat.objects.filter(deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "deadline")[:limit]
    )
    claims = []
    for seat_id, deadline in due:
        token = now + CLAIM_LEASE
        if Seat.objects.filter(pk=seat_id, deadline=deadline).update(deadline=token):
            claims.append(Claim(seat_id, deadline, token))
    return claims


def deadline_handle(*, claim: Claim, now: datetime) -> str:
    """Deal with one claimed seat whose deadline passed. ONE transaction (game, seat, user
    locked in that order); returns what happened:

    * ``stale``: the claim is no longer ours (the seat moved, or another sweep took over);
    * ``cleared``: the seat is not due any more (game over, aborted, step passed);
    * ``away``: its player is away; the deadline moves to their return;
    * ``vacation``: a day of vacation (or what is left) moved the deadline;
    * ``bot_moved``: the greedy bot made the move for the seat (``actor="timeout"``, in the
      same transaction: no half move), or for a bot seat whose task got lost;
    * ``waiting``: the table waits; the others are told, and after the second miss may vote;
    * ``refused``: the bot's move was refused; the seat is due again after the lease.
    """
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=claim.seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return "stale"
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = Seat.objects.select_for_update().select_related("user").get(pk=claim.seat_id)
        if seat.deadline != claim.token:
            return "stale"
        if game.status != Game.Status.RUNNING or seat.seat not in (game.to_act or []):
            seat.deadline = None
            seat.clock_started_at = None
            seat.save(update_fields=["deadline", "clock_started_at"])
            return "cleared"
        person = _counts_as_person(seat)
        user = seat.user
        if person and user.away_until is not None and user.away_until > now:
            seat.deadline = user.away_until
            seat.save(update_fields=["deadline"])
            return "away"
        if person:
            locked_user = User.objects.select_for_update().get(pk=user.pk)
            spent = clocks.spend_vacation(
                claim.deadline,
                locked_user.vacation_days,
                tz=_tz(locked_user),
                skip_weekends=game.skip_weekends,
            )
            if spent is not None:
                locked_user.vacation_days = spent.days_left
                locked_user.save(update_fields=["vacation_days"])
                seat.deadline = spent.deadline
                seat.save(update_fields=["deadline"])
                log.info("seat %s of game %s: a vacation day used", seat.pk, game.pk)
                _tell_vacation_used(seat.pk, spent.deadline)
                return "vacation"
            seat.missed_deadlines += 1
        # The bank is used up, whatever the clock's history: the move (the bot's now, or
        # the player's later on a waiting table) leaves only the increment.
        seat.clock_remaining_seconds = 0.0
        seat.save(update_fields=["missed_deadlines", "clock_remaining_seconds"])
        if not person or game.on_timeout == Game.OnTimeout.BOT:
            return _bot_stands_in(game, seat, person=person)
        return _table_waits(game, seat, now=now)


def _tell_vacation_used(seat_id: int, deadline: datetime) -> None:
    def tell() -> None:
        from games.tasks_mail import send_vacation_email

        send_vacation_email.delay(seat_id, deadline.isoformat())

    transaction.on_commit(tell, robust=True)


def _bot_stands_in(game: Game, seat: Seat, *, person: bool) -> str:
    from games.bots import bot_choose, bot_rng
    from games.errors import GameError
    from games.services import action_submit
    from games.snapshots import engine_for, load_state

    number = int(seat.seat)  # type: ignore[arg-type]
    engine = engine_for(game)
    state = load_state(game)
    legal = engine.legal_actions(state, number)
    if not legal:
        log.warning("seat %s of game %s is due but has no legal action", seat.pk, game.pk)
        return "refused"
    action = bot_choose(
        kind=seat.bot_kind or "greedy",
        engine=engine,
        view=engine.view(state, number),
        legal_actions=legal,
        rng=bot_rng(seed=game.seed, version=game.version, seat=number),
    )
    try:
        action_submit(
            game_id=game.pk,
            seat=number,
            action=action,
            version=game.version,
            client_id=f"timeout:{game.version}:{number}",
            actor="timeout" if person else "bot",
        )
    except GameError as exc:
        log.warning("timeout move for seat %s of game %s refused: %r", seat.pk, game.pk, exc)
        return "refused"
    return "bot_moved"


def _table_waits(game: Game, seat: Seat, *, now: datetime) -> str:
    """The table waits: the seat gets another period (the increment, or the initial time if
    there is none) and the other players hear about it."""
    grace = game.clock_increment_seconds or game.clock_initial_seconds
    seat.deadline = clocks.deadline_after(
        now, grace, tz=_tz(seat.user), skip_weekends=game.skip_weekends
    )
    seat.save(update_fields=["deadline"])
    others = list(
        Seat.objects.filter(game=game, bot_kind="", user__is_bot=False)
        .exclude(pk=seat.pk)
        .values_list("pk", flat=True)
    )
    late_id, misses = seat.pk, seat.missed_deadlines

    def tell() -> None:
        from games.tasks_mail import send_missed_email

        for other in others:
            send_missed_email.delay(other, late_id, misses)

    transaction.on_commit(tell, robust=True)
    return "waiting"


def deadlines_sweep(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> dict[str, int]:
    """Claim every due seat and handle each (one transaction per seat). Returns counts per
    outcome. A failing seat is logged and left claimed: it is due again after the lease."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {}
    for claim in deadlines_claim(now=now, limit=limit):
        try:
            outcome = deadline_handle(claim=claim, now=now)
        except Exception:
            log.exception("deadline of seat %s could not be handled", claim.seat_id)
            outcome = "error"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


# --- vacation taken in advance ------------------------------------------------------------


def _lock_running_seats(user: User) -> tuple[list[Seat], User]:
    """Lock the user's running games (by id), their seats, then the user row."""
    game_ids = list(
        Seat.objects.filter(user=user, game__status=Game.Status.RUNNING)
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    games = {
        g.pk: g for g in Game.objects.select_for_update().filter(pk__in=game_ids).order_by("pk")
    }
    seats = list(
        Seat.objects.select_for_update()
        .filter(user=user, game_id__in=list(games))
        .select_related("user")
        .order_by("pk")
    )
    for seat in seats:
        seat.game = games[seat.game_id]
    return seats, User.objects.select_for_update().get(pk=user.pk)


def _checkpoint(seat: Seat, now: datetime, old_away: datetime | None) -> None:
    """Charge a running clock for the time so far and restart it from ``now``."""
    if seat.clock_started_at is None:
        return
    game = seat.game
    elapsed = clocks.counted_seconds(
        seat.clock_started_at,
        now,
        tz=_tz(seat.user),
        skip_weekends=game.skip_weekends,
        paused_until=old_away if _counts_as_person(seat) else None,
    )
    seat.clock_remaining_seconds = max(0.0, seat.clock_remaining_seconds - elapsed)
    seat.clock_started_at = now


class VacationError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def vacation_take(*, user: User, until: datetime, now: datetime | None = None) -> User:
    """Be away until ``until``: every clock of the player pauses until then, in all games.

    Costs the length of the absence in vacation days (rounded up to the minute); an absence
    already planned is replaced (its unused part refunded first). ONE transaction; raises
    ``VacationError`` (``code``, ``message``) when the days do not suffice or the date is not
    in the future. A deadline is never brought forward by taking vacation.
    """
    now = now or timezone.now()
    if until.tzinfo is None or until <= now:
        raise VacationError("bad_vacation", _("Choose a return date in the future."))
    if until > now + timedelta(days=clocks.VACATION_DAYS_MAX + 1):
        raise VacationError("bad_vacation", _("You can be away for at most 30 days at a time."))
    with transaction.atomic():
        seats, locked = _lock_running_seats(user)
        old_away = locked.away_until if locked.away_until and locked.away_until > now else None
        refund = clocks.away_cost_days(now, old_away) if old_away else 0.0
        cost = clocks.away_cost_days(now, until)
        if cost > locked.vacation_days + refund + 1e-9:
            raise VacationError(
                "not_enough_vacation",
                _("That needs %(cost).1f vacation days; you have %(left).1f.")
                % {"cost": cost, "left": locked.vacation_days + refund},
            )
        locked.vacation_days = max(0.0, locked.vacation_days + refund - cost)
        locked.away_until = until
        locked.save(update_fields=["vacation_days", "away_until"])
        for seat in seats:
            seat.user = locked
            old_deadline = seat.deadline
            _checkpoint(seat, now, old_away)
            if seat.clock_started_at is not None and _counts_as_person(seat):
                seat.deadline = _deadline(seat, seat.game, now)
                if old_deadline is not None and old_deadline > seat.deadline:
                    seat.deadline = old_deadline
        Seat.objects.bulk_update(seats, CLOCK_FIELDS)
    return locked


def vacation_cancel(*, user: User, now: datetime | None = None) -> User:
    """Come back early: the unused part of the absence is refunded and the clocks run again
    from now with the time each had left. ONE transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        seats, locked = _lock_running_seats(user)
        old_away = locked.away_until
        if old_away is None or old_away <= now:
            return locked
        locked.vacation_days += clocks.away_cost_days(now, old_away)
        locked.away_until = None
        locked.save(update_fields=["vacation_days", "away_until"])
        for seat in seats:
            seat.user = locked
            _checkpoint(seat, now, old_away)
            if seat.clock_started_at is not None and _counts_as_person(seat):
                seat.deadline = _deadline(seat, seat.game, now)
        Seat.objects.bulk_update(seats, CLOCK_FIELDS)
    return locked


# --- resigning and replacing a player -----------------------------------------------------


def _valid_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**62


@dataclass(frozen=True)
class VoteCount:
    votes: int
    needed: int
    replaced: bool


def seat_resign(*, game_id: int, user: User) -> Seat:
    """Resign: the bot plays the seat from now on (``seat_hand_to_bot``, reason ``resign``);
    the person is ranked last for rating. Errors are ``games.errors.GameError``."""
    from games.errors import Conflict, NotAllowed, NotFound
    from games.services import seat_hand_to_bot

    if not _valid_id(game_id):
        raise NotFound()
    seat = Seat.objects.filter(game_id=game_id, user=user).select_related("game", "user").first()
    if seat is None or seat.seat is None:
        raise NotAllowed(_("You are not a player at this table."), code="not_a_player")
    if seat.resigned:
        raise Conflict(_("You have already resigned."), code="already_resigned")
    if seat.is_out:
        raise Conflict(
            _("The other players replaced you by the bot; there is nothing to resign."),
            code="replaced",
        )
    if seat.game.status != Game.Status.RUNNING:
        raise Conflict(_("Only a running game can be resigned."), code="not_running")
    return seat_hand_to_bot(game_id=game_id, seat=seat.seat, bot_kind="greedy", reason="resign")


def _vote_refusal(game: Game, seats: list[Seat], voter: Any, target: Seat | None) -> Any:
    """Why ``voter`` may not vote to replace ``target`` now (a ``GameError``), or None.
    The one rule shared by casting a vote and by the page offering the button."""
    from games.errors import BadRequest, Conflict, NotAllowed, NotFound

    voter_id = getattr(voter, "pk", None) if getattr(voter, "is_authenticated", False) else None
    mine = next((s for s in seats if voter_id is not None and s.user_id == voter_id), None)
    if mine is None or mine.seat is None or not _counts_as_person(mine):
        return NotAllowed(_("Only the players at this table can vote."), code="not_a_player")
    if target is None:
        return NotFound(_("There is no such seat."), code="no_such_seat")
    if target.pk == mine.pk:
        return BadRequest(_("You cannot vote to replace yourself."), code="own_seat")
    if game.status != Game.Status.RUNNING:
        return Conflict(_("This game is not running."), code="not_running")
    if not _counts_as_person(target):
        return Conflict(_("A bot already plays that seat."), code="already_bot")
    if game.on_timeout != Game.OnTimeout.WAIT:
        return Conflict(
            _("At this table the bot moves for a late player; there is no vote."),
            code="not_replaceable",
        )
    if target.missed_deadlines < MISSES_BEFORE_VOTE:
        return Conflict(
            _("A player can be replaced only after missing two deadlines."),
            code="not_replaceable",
        )
    return None


def _electorate(seats: list[Seat], target: Seat) -> set[int]:
    """The people still playing at the table, the late player left out."""
    return {s.user_id for s in seats if s.pk != target.pk and _counts_as_person(s)}


def replace_vote_cast(*, game_id: int, voter: User, seat: Any) -> VoteCount:
    """``voter`` (a person playing at the table) votes to hand ``seat`` to the bot once its
    player has missed ``MISSES_BEFORE_VOTE`` deadlines at a table that waits
    (``on_timeout="wait"``). A strict majority of the other people still playing replaces
    the player (``seat_hand_to_bot``, reason ``vote``): they are out, like a player who
    resigned. Voting twice counts once. ONE transaction holding the game row lock."""
    from games.errors import BadRequest, NotFound
    from games.services import game_update_announce, seat_hand_to_bot
    from notifications.models import ReplaceVote

    if isinstance(seat, bool) or not isinstance(seat, int):
        raise BadRequest(_("The seat is a number."), code="bad_seat")
    if not _valid_id(game_id):
        raise NotFound()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise NotFound()
        seats = list(Seat.objects.filter(game=game).select_related("user"))
        target = next((s for s in seats if s.seat == seat), None)
        refusal = _vote_refusal(game, seats, voter, target)
        if refusal is not None or target is None:
            raise refusal or NotFound()
        ReplaceVote.objects.get_or_create(seat=target, voter=voter)
        electorate = _electorate(seats, target)
        votes = ReplaceVote.objects.filter(seat=target, voter_id__in=electorate).count()
        needed = len(electorate) // 2 + 1
        replaced = votes >= needed
        if replaced:
            seat_hand_to_bot(game_id=game.pk, seat=seat, bot_kind="greedy", reason="vote")
        else:  # the other players' pages show the new count
            game_update_announce(game_id=game.pk, version=int(game.version), refresh=True)
    return VoteCount(votes=votes, needed=needed, replaced=replaced)


@dataclass(frozen=True)
class OpenVote:
    """A vote ``viewer`` may take part in: replace the player of ``seat``."""

    seat: int
    username: str
    name: str
    voters: list[str]  # names of the players who voted so far
    needed: int
    i_voted: bool


def replace_votes_open(*, game: Game, viewer: Any) -> list[OpenVote]:
    """The replace votes ``viewer`` may cast at ``game`` now (same rule as
    ``replace_vote_cast``), with who voted so far and how many votes are needed. Empty for
    spectators, for the late player, for bots and when no vote is open. Names only: nothing
    hidden."""
    from notifications.models import ReplaceVote

    if game.status != Game.Status.RUNNING or game.on_timeout != Game.OnTimeout.WAIT:
        return []
    if not getattr(viewer, "is_authenticated", False):
        return []
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat", "pk"))
    out = []
    for target in seats:
        if target.seat is None or _vote_refusal(game, seats, viewer, target) is not None:
            continue
        electorate = _electorate(seats, target)
        voter_ids = set(
            ReplaceVote.objects.filter(seat=target, voter_id__in=electorate).values_list(
                "voter_id", flat=True
            )
        )
        out.append(
            OpenVote(
                seat=int(target.seat),
                username=target.user.username,
                name=target.user.shown_name,
                voters=[s.user.shown_name for s in seats if s.user_id in voter_ids],
                needed=len(electorate) // 2 + 1,
                i_voted=viewer.pk in voter_ids,
            )
        )
    return out
