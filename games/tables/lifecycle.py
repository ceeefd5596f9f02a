"""A table's life: opened, joined, left, started, aborted, asked for a rematch. A move is
``games.moves``; the chat ``games.tables.chat``; a seat handed to a bot ``games.tables.handover``; a
seen mark ``games.live.seen_marks``.

Each function is keyword-only and runs as ONE database transaction that starts by locking
the game row (``select_for_update``), so two requests for the same table are serialised:
nothing is lost or applied twice. Anything that leaves the database (socket broadcast, bot
task) is deferred with ``transaction.on_commit`` and so only happens for committed changes.
Errors are ``games.errors.GameError`` subclasses and leave the database unchanged.

Versions: ``Game.version`` is 0 while a table is open, 1 once started (the setup), and grows
by one per accepted action (``Move.version`` is the version after the move). Each seat keeps
``decision_version``, the version at which its legal actions last changed; an action sent
with an older version is refused with ``stale_version``, a newer one is fine even if other
seats moved meanwhile (simultaneous bids never collide).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.bots import players as bot_players
from games.clocks.arithmetic import InvalidClock, resolve_clock
from games.engine import Rules, get_rules, validate_options
from games.errors import BadRequest, Conflict, NotAllowed
from games.models import Game, Invitation, Seat
from games.moves import effects
from games.moves.result import Advance, MoveResult
from games.records import reliability
from games.store.backends import locked
from games.store.state_cache import engine_for
from games.tables.capacity import table_open_check
from games.tables.invitations import invitations_check
from games.titles import default_title

__all__ = [
    "game_abort",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_start",
]


def clock_seconds(clock: Any) -> tuple[int, int, int]:
    """A preset name, ``None`` or hours, as seconds (rules in ``games.clocks``)."""
    try:
        settings = resolve_clock(clock)
    except InvalidClock as exc:
        raise BadRequest(exc.message, code=exc.code) from None
    except (OverflowError, ValueError):  # e.g. 1e308 hours overflows the seconds
        raise BadRequest(_("The clock's hours are out of range."), code=InvalidClock.code) from None
    return settings.initial_seconds, settings.increment_seconds, settings.max_seconds


# --- tables ------------------------------------------------------------------------------


def seats_and_options_check(engine: Rules, players: Any, options: Any) -> dict[str, Any]:
    """The options as the title takes them, for a table of ``players``; 400 ``bad_players``
    or ``bad_options`` (the codes of ``POST /api/games``) otherwise: a player's table
    (``game_create``) and a tournament's (``games.tables.seated``) alike."""
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not engine.min_players <= players <= engine.max_players
    ):
        raise BadRequest(
            _("This game is played by %(min)d to %(max)d players.")
            % {"min": engine.min_players, "max": engine.max_players},
            code="bad_players",
        )
    try:
        return dict(validate_options(engine.slug, options))
    except ValueError:
        # The engine's message quotes the names and values sent: ours names only the
        # title's own options.
        raise BadRequest(
            _("These options are not offered; this game's options are %(names)s.")
            % {"names": ", ".join(sorted(engine.options_schema)) or "-"},
            code="bad_options",
        ) from None


def game_create(
    *,
    creator: User,
    title: str | None = None,
    players: int,
    options: Mapping[str, Any] | None = None,
    clock: Mapping[str, Any] | str | None = None,
    on_timeout: str = "bot",
    rated: bool = True,
    invite: Iterable[str] = (),
    bots: Iterable[str] = (),
    open_seats: bool = True,
    skip_weekends: bool = False,
    bot_level: str | None = None,
    min_finish_rate: int = 0,
) -> Game:
    """Open a table; the creator takes a seat, each bot in ``bots`` (a level such as
    ``hard`` or a bot kind) another, and each username in ``invite`` gets an invitation.
    ``bot_level`` (a level or kind; default: the bots' own when they are all one, else the
    title's stand-in) plays for late players (``games.bots.players.stand_in_kind``). Starts the game
    at once if every seat is filled. One transaction."""
    try:
        if title is None:
            title = default_title()
        engine = get_rules(title) if isinstance(title, str) else None
    except KeyError:
        engine = None
    if engine is None:
        raise BadRequest(_("Unknown game."), code="unknown_game")
    clean_options = seats_and_options_check(engine, players, options)
    initial, increment, maximum = clock_seconds(clock)
    if on_timeout not in Game.OnTimeout.values:
        raise BadRequest(_("on_timeout must be bot or wait."), code="bad_on_timeout")
    bot_list = [bots] if isinstance(bots, str) else list(bots)
    invite_list = [invite] if isinstance(invite, str) else list(invite)
    bot_list, table_kind = _bots_chosen(engine.slug, bot_list, bot_level)
    if len(bot_list) > players - 1:
        raise BadRequest(_("There are more bots than free seats."), code="too_many_bots")
    names: list[str] = []
    for name in invite_list:
        if not isinstance(name, str) or not 0 < len(name) <= 150:
            raise BadRequest(_("Invite people by their usernames."), code="unknown_user")
        if name not in names and name != creator.username:
            names.append(name)
    if len(names) > players - 1 - len(bot_list):
        raise BadRequest(_("More invitations than free seats."), code="too_many_invitations")
    if not isinstance(rated, bool) or not isinstance(open_seats, bool):
        raise BadRequest(_("rated and open_seats are true or false."), code="bad_request")
    if (
        isinstance(min_finish_rate, bool)
        or not isinstance(min_finish_rate, int)
        or not 0 <= min_finish_rate <= 100
    ):
        raise BadRequest(
            _("min_finish_rate is a percentage from 0 to 100."), code="bad_min_finish_rate"
        )

    with transaction.atomic():
        table_open_check(creator=creator, with_bots=bool(bot_list))
        invitees = list(User.objects.filter(username__in=names, is_active=True, is_bot=False))
        if len(invitees) != len(names):
            raise BadRequest(
                _("One of the people invited is not a player of this site."),
                code="unknown_user",
            )
        invitations_check(inviter=creator, invitees=invitees)
        seed = secrets.token_hex(16)
        row = Game.objects.create(
            title=engine.slug,
            options=clean_options,
            num_players=players,
            created_by=creator,
            seed=seed,
            seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
            clock_initial_seconds=initial,
            clock_increment_seconds=increment,
            clock_max_seconds=maximum,
            skip_weekends=bool(skip_weekends),
            on_timeout=on_timeout,
            rated=rated,
            open_seats=open_seats,
            bot_kind=table_kind,
            min_finish_rate=min_finish_rate,
        )
        row = Game.objects.select_for_update().get(pk=row.pk)
        # A bot account opening a table (scripts, benchmarks) plays its own seat.
        Seat.objects.create(
            game=row, user=creator, bot_kind=creator.bot_kind if creator.is_bot else ""
        )
        taken = {creator.pk}
        for kind in bot_list:
            account = bot_players.bot_account(kind=kind, exclude=taken)
            taken.add(account.pk)
            Seat.objects.create(game=row, user=account, bot_kind=kind)
        Invitation.objects.bulk_create(
            [Invitation(game=row, user=u, invited_by=creator) for u in invitees]
        )
        if len(taken) == players:
            _start(row)
    return row


def _bots_chosen(title: str, bots: list[Any], level: Any) -> tuple[list[str], str]:
    """The bot kinds of ``bots`` (levels or kinds) and the table's level as a kind (blank:
    the title's stand-in). 400 ``unknown_bot`` / ``unknown_bot_level``."""
    names = ", ".join(
        [lv.level for lv in bot_players.bot_levels(title)] + list(bot_players.bot_kinds(title))
    )
    kinds = []
    for name in bots:
        kind = bot_players.kind_for(title, name) if isinstance(name, str) else None
        if kind is None:
            raise BadRequest(
                _("Unknown bot kind; choose one of %(kinds)s.") % {"kinds": names},
                code="unknown_bot",
            )
        kinds.append(kind)
    if level is None or level == "":
        return kinds, (kinds[0] if len(set(kinds)) == 1 else "")
    table_kind = bot_players.kind_for(title, level) if isinstance(level, str) else None
    if table_kind is None:
        raise BadRequest(
            _("Unknown bot level; choose one of %(kinds)s.") % {"kinds": names},
            code="unknown_bot_level",
        )
    return kinds, table_kind


def game_join(*, game_id: int, user: User) -> Game:
    """Take a free seat at an open table (idempotent for someone already seated); starts the
    game when the last seat fills. 409 ``not_open`` / ``table_full``, 403 ``not_invited``."""
    with transaction.atomic():
        game = locked(game_id)
        if Seat.objects.filter(game=game, user=user).exists():
            return game
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This table is no longer open."), code="not_open")
        invitation = Invitation.objects.filter(game=game, user=user).first()
        if not game.open_seats and invitation is None:
            raise NotAllowed(_("This table is by invitation only."), code="not_invited")
        if getattr(user, "is_bot", False):
            raise NotAllowed(_("Bots take seats only when a table is created."), code="bot")
        if Seat.objects.filter(game=game).count() >= game.num_players:
            raise Conflict(_("Every seat at this table is taken."), code="table_full")
        if not reliability.meets_minimum(user, game.min_finish_rate):
            raise NotAllowed(
                _("This table asks for players who finish %(n)d %% of their games.")
                % {"n": game.min_finish_rate},
                code="record_too_low",
            )
        Seat.objects.create(game=game, user=user)
        if invitation is not None and invitation.accepted_at is None:
            invitation.accepted_at = timezone.now()
            invitation.save(update_fields=["accepted_at"])
        if Seat.objects.filter(game=game).count() == game.num_players:
            _start(game)
        else:
            effects.after_change(game, bot_due=False)
    return game


def game_leave(*, game_id: int, user: User) -> Game:
    """Give up a seat at a table that has not started. The table is aborted when no person
    is left at it."""
    with transaction.atomic():
        game = locked(game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise NotAllowed(_("You are not seated at this table."), code="not_a_player")
        if game.status != Game.Status.OPEN:
            raise Conflict(_("Only a table that has not started can be left."), code="not_open")
        seat.delete()
        if not Seat.objects.filter(game=game, bot_kind="").exists():
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
        effects.after_change(game, bot_due=False)
    return game


def game_start(*, game_id: int) -> Game:
    """Start a full open table: draw the seat order from the seed, deal (engine setup)."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This game has already started."), code="not_open")
        if Seat.objects.filter(game=game).count() != game.num_players:
            raise Conflict(_("Not every seat is taken yet."), code="not_full")
        _start(game)
    return game


def _start(game: Game) -> None:
    """Start ``game`` (locked by the caller, every seat taken)."""
    engine = engine_for(game)
    seats = list(Seat.objects.filter(game=game).order_by("joined_at", "id"))
    order = list(range(len(seats)))
    random.Random(f"{game.seed}:seats").shuffle(order)  # noqa: S311 (fair draw from the seed)
    state, events = engine.setup_events(game.num_players, game.seed, game.options)
    colours = list(engine.seat_colours)
    for seat, number in zip(seats, order, strict=True):
        seat.seat = number
        seat.colour = colours[number] if number < len(colours) else ""
        seat.decision_version = 1
        seat.clock_remaining_seconds = float(game.clock_initial_seconds)
    Seat.objects.bulk_update(
        seats, ["seat", "colour", "decision_version", "clock_remaining_seconds"]
    )
    now = timezone.now()
    game.state = engine.dump(state)
    game.setup_events = events
    game.version = 1
    game.to_act = sorted(engine.to_act(state))
    game.status = Game.Status.RUNNING
    game.started_at = now
    game.save(
        update_fields=[
            "state",
            "setup_events",
            "version",
            "to_act",
            "status",
            "started_at",
            "updated_at",
        ]
    )
    # The start is a step like a move: the durable effects now (the clocks start, the
    # first seats are owed their "your turn"), the others after the commit.
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))
    advance = Advance(
        game=game,
        seats=seats,
        move=None,
        previous_to_act=frozenset(),
        to_act=frozenset(game.to_act),
    )
    effects.durable(advance)
    effects.after_commit(
        MoveResult(
            game=game,
            seats=seats,
            outcomes=[],
            state=state,
            advances=[advance],
            bot_due=bot_players.bot_to_act(game, seats) is not None,
        )
    )


def game_abort(*, game_id: int) -> Game:
    """Stop a table that is open or running; it is not rated and nothing more is played.
    Every clock stops and every deadline is cleared in the same transaction, so the deadline
    sweep never picks up a seat of an aborted game."""
    with transaction.atomic():
        game = locked(game_id)
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
            raise Conflict(_("This game is already over."), code="game_over")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.to_act = []
        game.save(update_fields=["status", "finished_at", "to_act", "updated_at"])
        Seat.objects.filter(game=game).update(deadline=None, clock_started_at=None)
        effects.after_change(game, bot_due=False)
    return game


def game_rematch(*, game_id: int, user: User) -> Game:
    """A new table like the finished game ``game_id``: same game, options, clock, timeout rule,
    rated setting and players. ``user`` (a player of that game) creates it and takes a seat, the
    other people are invited by username and bot seats come back as bots of the same kind.
    Asking again returns the rematch already made. 403 ``not_a_player``, 409 ``not_finished``."""
    with transaction.atomic():
        game = locked(game_id)
        seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat", "id"))
        if not any(s.user_id == user.pk for s in seats):
            raise NotAllowed(
                _("Only the players of this game can ask for a rematch."), code="not_a_player"
            )
        if game.status != Game.Status.FINISHED:
            raise Conflict(
                _("A rematch can be asked for once the game has ended."), code="not_finished"
            )
        existing = Game.objects.filter(rematch_of=game).order_by("pk").first()
        if existing is not None:
            return existing
        others = [s.user for s in seats if s.user_id != user.pk]
        rematch = game_create(
            creator=user,
            title=game.title,
            players=game.num_players,
            options=game.options,
            clock={
                "initial_hours": game.clock_initial_seconds / 3600,
                "increment_hours": game.clock_increment_seconds / 3600,
                "max_hours": game.clock_max_seconds / 3600,
            },
            on_timeout=game.on_timeout,
            rated=game.rated,
            invite=[u.username for u in others if not u.is_bot],
            bots=[u.bot_kind for u in others if u.is_bot],
            open_seats=False,
            skip_weekends=game.skip_weekends,
            bot_level=game.bot_kind or None,
        )
        rematch.rematch_of = game
        rematch.save(update_fields=["rematch_of", "updated_at"])
    return rematch
