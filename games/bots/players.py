"""Bot players: their accounts, and how a bot picks its action.

A bot is a user (``is_bot=True``, ``bot_kind``) named ``bot-<kind>``, ``bot-<kind>-2``, …;
one account per seat at a table, so two bots of one kind at a table are two users. A bot sees
only its own seat's view and legal actions, exactly like a person using the API; the move
itself goes through ``games.moves.action_submit`` (``games.bots.play.bot_play``, from the
``games.bots.tasks.bot_move`` Celery task and from the deadline sweep).

One rule says when a bot is due (``bot_to_act``; the same in SQL over every game:
``seats_bot_due``): the game is running and a seat a bot plays (``Seat.bot_kind`` set: a bot
account's seat, or a person's seat handed to the bot) is in ``Game.to_act``.

Levels (``bot_levels``): players choose a bot by level, easy, medium or hard, each played by
one bot kind, so each level has its own account (``bot-<kind>``) and rating. Each title
declares the kind of each level it offers (``Declaration.bot_levels``: usually easy the
generic ``random`` bot, medium its own heuristic, hard the generic ``search`` bot); a level
it does not declare is not offered. The table's level (``Game.bot_kind``) plays its bot
seats and stands in for its late players (``stand_in_kind``); its thinking time per move is
``bot_seconds``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Func, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from accounts.models import Rating, User
from games.engine import LEVELS, Rules, get_rules, title_slugs
from games.engine.bots import bot_names, choose_action, get_bot
from games.models import Game, Seat

#: The names the site gives the generic bots' accounts, marked for the catalogues (pages
#: show them in the reader's language: ``User.shown_name``); a title marks its own.
BOT_ACCOUNT_NAMES = (gettext_noop("Random bot"), gettext_noop("Search bot"))


def bot_kinds(title: str) -> tuple[str, ...]:
    """The bot kinds a table of ``title`` may seat (the generic bots and the title's own)."""
    return tuple(bot_names(title))


def every_bot_kind() -> set[str]:
    """Every bot kind of every title: their accounts' names are reserved (``accounts.names``)."""
    return {kind for title in title_slugs() for kind in bot_kinds(title)}


#: The generic searching bot (games.engine.bots.search): its thinking time is a setting.
SEARCH_KIND = "search"

LEVEL_LABELS: Mapping[str, Promise] = {
    "easy": _("Easy"),
    "medium": _("Medium"),
    "hard": _("Hard"),
}
LEVEL_DESCRIPTIONS: Mapping[str, Promise] = {
    "easy": _(
        "Plays a legal move at random. It knows the rules and nothing else: a gentle first "
        "opponent while you learn the game."
    ),
    "medium": _(
        "Plays the move that looks best right now by a rule of thumb written for this game. "
        "It does not look ahead, so it falls for plans that pay off later."
    ),
    "hard": _(
        "Thinks before each move: it imagines what it cannot see (the other hands, the order "
        "of what is still to come) in many ways, plays thousands of quick games to the end "
        "from each move it has, and keeps the one that won most often. It never sees your "
        "hidden hand or bids."
    ),
}


@dataclass(frozen=True)
class BotLevel:
    """One level a title offers: its name (``easy``…), the bot kind that plays it, and its
    label and description (translated)."""

    level: str
    kind: str

    @property
    def label(self) -> str:
        return str(LEVEL_LABELS[self.level])

    @property
    def description(self) -> str:
        return str(LEVEL_DESCRIPTIONS[self.level])


def bot_levels(title: str) -> list[BotLevel]:
    """The levels ``title`` offers, easiest first, as its rules declare them
    (``Declaration.bot_levels``)."""
    chosen = get_rules(title).declaration.bot_levels
    return [BotLevel(level, chosen[level]) for level in LEVELS if level in chosen]


def level_of(title: str, kind: str) -> BotLevel | None:
    """The level ``kind`` plays at ``title`` (None: a bot kind no level uses)."""
    return next((lv for lv in bot_levels(title) if lv.kind == kind), None)


def kind_for(title: str, name: str) -> str | None:
    """The bot kind a level name (``hard``) or a kind (``search``) stands for at ``title``
    (None: neither). Levels and kinds have different names, so one field takes both."""
    for lv in bot_levels(title):
        if name == lv.level:
            return lv.kind
    return name if name in bot_kinds(title) else None


def bot_seconds(kind: str) -> float | None:
    """The thinking time per move of ``kind`` (None: a bot that does not search): the
    search bot, which plays the hard level, thinks ``settings.BOT_SEARCH_SECONDS``."""
    if kind != SEARCH_KIND:
        return None
    return float(settings.BOT_SEARCH_SECONDS)


def stand_in_kind(game: Game) -> str:
    """The bot that plays for a person at ``game``: once for a late player (the deadline
    sweep), or for good after resigning or a replace vote: the level the table chose
    (``Game.bot_kind``), else the title's ``stand_in_bot``."""
    if game.bot_kind and game.bot_kind in bot_kinds(game.title):
        return game.bot_kind
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

    def as_sql(
        self,
        compiler: Any,
        connection: Any,
        function: str | None = None,
        template: str | None = None,
        arg_joiner: str | None = None,
        **extra_context: Any,
    ) -> NoReturn:
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
                        # The level alone; the second account of a kind is shown with
                        # a letter ("Random bot B", User.shown_name), never a number,
                        # which would read as a seat.
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
    state: Any,
    seat: int,
    rng: random.Random,
    seconds: float | None = None,
) -> dict[str, Any]:
    """The action the bot of ``kind`` plays for ``seat`` (which must have a legal action).
    A bot that does not search is given the seat's view and legal actions only; the search
    bot is given the state and reads what the seat cannot see only through the title's
    ``determinise`` hook (``games.engine.bots.choose_action``). ``seconds``: its thinking
    time (default ``bot_seconds(kind)``)."""
    budget = bot_seconds(kind) if seconds is None else seconds
    # A cap on iterations (setting BOT_SEARCH_ITERATIONS, unset by default: tests and the
    # ladder): the search stops at whichever of the two ends first.
    cap = getattr(settings, "BOT_SEARCH_ITERATIONS", None) if budget is not None else None
    bot = (
        get_bot(engine.slug, kind, seconds=budget, iterations=cap)
        if budget is not None
        else get_bot(engine.slug, kind)
    )
    action: dict[str, Any] = choose_action(bot, engine, state, seat, rng)
    return action


@dataclass(frozen=True)
class LevelRow:
    """A level as the Bots page and ``GET /api/bots`` show it: its bot account (None until
    it first plays), rating for the title (``Rating``; None: not rated yet) and games
    finished at the title."""

    title: str
    level: BotLevel
    account: User | None
    rating: Any
    games: int
    seconds: float | None


def level_rows(title: str) -> list[LevelRow]:
    """Every level ``title`` offers with its account, rating and finished games. Reads only:
    an account is made when the level first takes a seat (``bot_account``)."""

    levels = bot_levels(title)
    accounts = {
        u.username: u for u in User.objects.filter(username__in=[f"bot-{lv.kind}" for lv in levels])
    }
    ratings = {
        r.user_id: r for r in Rating.objects.filter(game=title, user__in=list(accounts.values()))
    }
    rows = []
    for lv in levels:
        account = accounts.get(f"bot-{lv.kind}")
        games = (
            Seat.objects.filter(
                user=account, game__title=title, game__status=Game.Status.FINISHED
            ).count()
            if account is not None
            else 0
        )
        rows.append(
            LevelRow(
                title=title,
                level=lv,
                account=account,
                rating=ratings.get(account.pk) if account is not None else None,
                games=games,
                seconds=bot_seconds(lv.kind),
            )
        )
    return rows
