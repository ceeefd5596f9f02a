"""``manage.py bot_ladder --games N --title SLUG [--seconds S] [--iterations K]``: the bot
levels play each other, so the leaderboard shows where they stand.

Every pair of the title's levels (``games.bots.players.bot_levels``: easy and medium, easy and hard,
medium and hard) plays two-player games until the pair has ``N`` finished games, each a real
rated table between the two levels' bot accounts (``bot-<kind>``): opened with
``games.tables.lifecycle.game_create``, played move by move by the bot task (run in this process,
one move after another: no worker needed) and rated when it ends by the site's rating
service (``games.records.ratings``), like any game. So the games show in the bots' profiles and
the ratings on the leaderboard and the Bots page.

Safe to re-run: ``N`` is the number of games a pair should have in all, so a second run
with the same ``N`` plays nothing, a larger ``N`` plays the difference, and a run stopped
half way first finishes the table it left. The search bot thinks ``--seconds`` a move
(default ``BOT_SEARCH_SECONDS``), at most ``--iterations`` iterations if given.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Count, Q, QuerySet
from django.test.utils import override_settings

from accounts.models import Rating, User
from colorado.celery import app
from games.bots.players import BotLevel, bot_account, bot_levels
from games.bots.wakeup import queue_bot_move
from games.engine import get_rules, title_slugs
from games.models import Game, Seat
from games.tables import lifecycle
from games.titles import default_title

#: Bot moves tried on a table that did not move on by itself (a refused move) before the
#: ladder gives up on it.
STUCK_TRIES = 3


class Command(BaseCommand):
    help = "Play N rated games between every pair of bot levels of a title and show the table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=10, help="Games per pair, in all.")
        parser.add_argument("--title", default=None, help="The title (default: the site's).")
        parser.add_argument(
            "--seconds", type=float, default=None, help="The search bot's time per move."
        )
        parser.add_argument(
            "--iterations", type=int, default=None, help="The search bot's iterations per move."
        )

    def handle(
        self,
        *args: Any,
        games: int,
        title: str | None,
        seconds: float | None,
        iterations: int | None,
        **options: Any,
    ) -> None:
        self.verbosity = int(options.get("verbosity", 1))
        slug = title or default_title()
        if slug not in title_slugs():
            raise CommandError(f"There is no title {slug!r}; titles: {', '.join(title_slugs())}.")
        if games < 0:
            raise CommandError("--games is a number of games, 0 or more.")
        if seconds is not None and not 0 < seconds <= 30:
            raise CommandError("--seconds is more than 0 and at most 30.")
        if iterations is not None and iterations < 1:
            raise CommandError("--iterations is at least 1.")
        if get_rules(slug).min_players > 2:
            raise CommandError(f"{slug} is not played by two; the ladder plays pairs.")
        levels = bot_levels(slug)
        overrides: dict[str, Any] = {}
        if seconds is not None:
            overrides["BOT_SEARCH_SECONDS"] = seconds
        if iterations is not None:
            overrides["BOT_SEARCH_ITERATIONS"] = iterations
        accounts = {lv.kind: bot_account(kind=lv.kind) for lv in levels}
        rows = []
        with override_settings(**overrides), _bots_in_this_process():
            for a, b in itertools.combinations(levels, 2):
                pair = (accounts[a.kind], accounts[b.kind])
                played, spent = self._pair(slug, pair, games)
                rows.append((a, b, played, spent, _tally(slug, pair)))
        self._print(slug, levels, accounts, rows)

    def _pair(self, slug: str, pair: tuple[User, User], wanted: int) -> tuple[int, float]:
        """Finish the pair's unfinished table, then play until it has ``wanted`` games."""
        started = time.perf_counter()
        played = 0
        for game in _pair_games(slug, pair).filter(status=Game.Status.RUNNING):
            _play_out(game)
        while _pair_games(slug, pair).filter(status=Game.Status.FINISHED).count() < wanted:
            creator, other = pair if played % 2 == 0 else pair[::-1]
            game = lifecycle.game_create(
                creator=creator,
                title=slug,
                players=2,
                bots=[other.bot_kind],
                rated=True,
                open_seats=False,
                bot_level=other.bot_kind,
            )
            _play_out(game)
            played += 1
            if self.verbosity >= 2:
                seats = Seat.objects.filter(game=game).select_related("user").order_by("seat")
                self.stdout.write(
                    f"  game {game.pk}: "
                    + ", ".join(
                        f"{s.user.username} {s.final_score} (#{s.final_rank})" for s in seats
                    )
                )
        return played, time.perf_counter() - started

    def _print(
        self,
        slug: str,
        levels: list[BotLevel],
        accounts: dict[str, User],
        rows: list[tuple[BotLevel, BotLevel, int, float, dict[str, int]]],
    ) -> None:
        out = self.stdout
        out.write(f"Bot ladder of {get_rules(slug).name} ({slug})")
        out.write(f"{'pair':<40}{'games':>6}{'wins A':>8}{'wins B':>8}{'draws':>7}{'new':>5}")
        for a, b, played, spent, tally in rows:
            name = f"A {a.level} ({a.kind}) v B {b.level} ({b.kind})"
            out.write(
                f"{name:<40}{tally['games']:>6}{tally['a']:>8}{tally['b']:>8}"
                f"{tally['draws']:>7}{played:>5}"
                + (f"   {spent / played:.1f} s a game" if played else "")
            )
        out.write(f"{'level':<10}{'account':<16}{'rating':>8}{'mu':>8}{'sigma':>7}{'games':>7}")
        ratings = {
            r.user_id: r for r in Rating.objects.filter(game=slug, user__in=list(accounts.values()))
        }
        for lv in levels:
            user = accounts[lv.kind]
            rating = ratings.get(user.pk)
            if rating is None:
                out.write(f"{lv.level:<10}{user.username:<16}{'-':>8}")
                continue
            out.write(
                f"{lv.level:<10}{user.username:<16}{rating.display:>8.1f}{rating.mu:>8.2f}"
                f"{rating.sigma:>7.2f}{rating.games:>7}"
            )


def _pair_games(slug: str, pair: tuple[User, User]) -> QuerySet[Game]:
    """The two-player tables of ``slug`` whose two seats are the pair's accounts."""
    ids = [u.pk for u in pair]
    return (
        Game.objects.filter(title=slug, num_players=2)
        .annotate(ours=Count("seats", filter=Q(seats__user_id__in=ids)))
        .filter(ours=2)
        .order_by("pk")
    )


def _tally(slug: str, pair: tuple[User, User]) -> dict[str, int]:
    """The pair's finished games: wins of each (rank 1 alone) and draws."""
    a, b = pair
    tally = {"games": 0, "a": 0, "b": 0, "draws": 0}
    finished = _pair_games(slug, pair).filter(status=Game.Status.FINISHED)
    seats = Seat.objects.filter(game__in=finished).values_list("game_id", "user_id", "final_rank")
    ranks: dict[int, dict[int, int | None]] = {}  # a seat has no rank until the end
    for game_id, user_id, rank in seats:
        ranks.setdefault(game_id, {})[user_id] = rank
    for by_user in ranks.values():
        tally["games"] += 1
        ra, rb = by_user.get(a.pk), by_user.get(b.pk)
        if ra == rb:
            tally["draws"] += 1
        elif ra == 1:
            tally["a"] += 1
        else:
            tally["b"] += 1
    return tally


def _play_out(game: Game) -> None:
    """Let the bots play ``game`` to its end, here and now (eager bot tasks)."""
    game.refresh_from_db()
    tries = 0
    while game.status == Game.Status.RUNNING:
        version = game.version
        queue_bot_move(game_id=game.pk, version=version)
        game.refresh_from_db()
        if game.version == version:
            tries += 1
            if tries >= STUCK_TRIES:
                raise CommandError(f"game {game.pk} does not move on at version {version}")


@contextmanager
def _bots_in_this_process() -> Iterator[None]:
    """Bot tasks run in this process, one after another (as in tests), not on a worker."""

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before
