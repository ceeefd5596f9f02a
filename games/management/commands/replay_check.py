"""``manage.py replay_check [GAME_ID ...]``: rebuild games from their move logs.

Replays every move of each started game from its seed and compares the result with the
stored snapshot (``Game.state``) and version. Exits with status 1 if any game differs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.engine import get_rules
from games.engine.replay import replay
from games.models import Game, Move


def replay_problem(game: Game, *, attempts: int = 3) -> str | None:
    """What is wrong with ``game``'s log, or None when it replays to the snapshot.

    On a live site a move may land between reading the game and reading its log; when the
    game's version changed meanwhile it is read and checked again (a few times), so only a
    log that really disagrees with its snapshot is reported."""
    problem = _problem(game)
    for _ in range(attempts - 1):
        if problem is None:
            return None
        fresh = Game.objects.filter(pk=game.pk).first()
        if fresh is None or fresh.version == game.version:
            return problem
        game = fresh
        problem = _problem(game)
    return problem


def _problem(game: Game) -> str | None:
    engine = get_rules(game.title)
    jump: list[str] = []

    def log() -> Iterator[tuple[int, Any]]:
        expected = 1
        for move in Move.objects.filter(game=game).order_by("version").iterator():
            expected += 1
            if move.version != expected:
                jump.append(f"move versions jump from {expected - 1} to {move.version}")
                return
            yield move.seat, move.action

    try:
        replayed = replay(
            game.title,
            seed=game.seed,
            num_players=game.num_players,
            options=game.options,
            moves=log(),
        )
    except Exception as exc:
        return f"move {getattr(exc, 'index', 0) + 2} does not replay: {exc!r}"
    if jump:
        return jump[0]
    if replayed.moves + 1 != game.version:
        return f"log ends at version {replayed.moves + 1}, the game is at {game.version}"
    if engine.dump(replayed.state) != game.state:
        return "the replayed state differs from the snapshot"
    if engine.is_over(replayed.state) != (game.status == Game.Status.FINISHED):
        return "the replayed game and the stored status disagree about the end"
    return None


class Command(BaseCommand):
    help = "Replay games from their move logs and compare with the stored snapshots."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="games to check (default all)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = bad = 0
        for game in games.iterator():
            checked += 1
            problem = replay_problem(game)
            if problem is not None:
                bad += 1
                self.stderr.write(f"game {game.pk}: {problem}")
        self.stdout.write(f"{checked} game(s) checked, {bad} differ.")
        if bad:
            raise CommandError(f"{bad} game(s) do not replay to their snapshot.")
