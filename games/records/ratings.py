"""OpenSkill ratings (Plackett-Luce) per game, updated once when a game finishes.

* Model: ``openskill.models.PlackettLuce`` with its defaults (mu 25, sigma 25/3, beta 25/6,
  kappa 0.0001, tau 25/300), one player per team, ranks of 2-4 players, ties allowed.
* Ranks come from ``game.result["ranks"]`` (seat order, 1 best). A player who resigned, or
  whose seat passed to a bot while they were not a bot themselves, is ranked last for rating
  purposes, below everyone who finished; several such players tie among themselves. The bot
  that stood in earns nothing: the seat's rating change belongs to the seat's user.
* Shown rating: ``1500 + 40 (mu - 3 sigma)`` (``accounts.models.display_rating``): the
  conservative estimate on a scale players know, a newcomer at 1500; provisional until
  ``Rating.PROVISIONAL_GAMES`` games. The leaderboard ranks people with at least that many
  rated games; bots are listed apart, and newcomers are counted, not ranked
  (``leaderboard_rows``).
* Exactly once: ``RatingChange`` is unique per (user, game); a game that already has rating
  changes is not rated again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from openskill.models import PlackettLuce

from accounts.models import Rating, RatingChange
from games.models import Game

MODEL = PlackettLuce()
INITIAL_MU = MODEL.mu
INITIAL_SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


def rated_ranks(*, ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """Ranks used for rating, by seat: 1 best, equal numbers for ties, no gaps.

    Players who finished keep their order (``ranks``, lower is better); every forfeited
    player (resigned, or replaced by a bot) shares the rank after the last finisher.

    >>> rated_ranks(ranks=[1, 2, 2, 4], forfeited=[True, False, False, False])
    [3, 1, 1, 2]
    """
    if len(ranks) != len(forfeited):
        raise ValueError("ranks and forfeited must have one entry per seat")
    finished = sorted({rank for rank, lost in zip(ranks, forfeited, strict=True) if not lost})
    dense = {rank: place for place, rank in enumerate(finished, start=1)}
    last = len(finished) + 1
    return [last if lost else dense[rank] for rank, lost in zip(ranks, forfeited, strict=True)]


def skills_update(*, skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills after one game, by seat (pure: no database)."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def _is_forfeited(seat: Any) -> bool:
    """Resigned, or replaced by the bot by vote: the seat's person is out (``Seat.is_out``,
    the same rule that stops them acting)."""
    return bool(seat.is_out)


def ratings_apply(*, game: Any) -> list[RatingChange]:
    """Rate a finished game once; return the new ``RatingChange`` rows (empty if nothing).

    Caller duty: call inside the transaction that finishes the game, holding the game's row
    lock (``ratings_on_finish``, a durable effect of the finishing move, does). Aborted and
    unrated games are skipped, and so is a game already rated. Ratings rows are locked in
    user order, so games finishing at the same moment with a common player serialise
    instead of losing an update.
    """

    if game.status != Game.Status.FINISHED or not game.rated:
        return []
    result = game.result or {}
    ranks = result.get("ranks")
    seats = sorted(
        game.seats.select_related("user").filter(seat__isnull=False), key=lambda s: s.seat
    )
    if not isinstance(ranks, list) or len(ranks) != len(seats) or len(seats) < 2:
        return []
    with transaction.atomic():
        if RatingChange.objects.filter(game_obj=game).exists():
            return []
        effective = rated_ranks(
            ranks=[int(rank) for rank in ranks], forfeited=[_is_forfeited(s) for s in seats]
        )
        user_ids = [seat.user_id for seat in seats]
        Rating.objects.bulk_create(
            [
                Rating(user_id=uid, game=game.title, mu=INITIAL_MU, sigma=INITIAL_SIGMA)
                for uid in user_ids
            ],
            ignore_conflicts=True,
        )
        locked = {
            rating.user_id: rating
            for rating in Rating.objects.select_for_update()
            .filter(game=game.title, user_id__in=user_ids)
            .order_by("user_id")
        }
        before = [locked[uid] for uid in user_ids]
        after = skills_update(
            skills=[Skill(mu=r.mu, sigma=r.sigma) for r in before], ranks=effective
        )
        changes = [
            RatingChange(
                user_id=uid,
                game=game.title,
                game_obj=game,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                rank=rank,
            )
            for uid, old, new, rank in zip(user_ids, before, after, effective, strict=True)
        ]
        RatingChange.objects.bulk_create(changes)
        for rating, new in zip(before, after, strict=True):
            rating.mu = new.mu
            rating.sigma = new.sigma
            rating.games += 1
            rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        return changes


def ratings_on_finish(result: Any) -> None:
    """The durable effect of a move that ends a game (``games.moves.effects.DURABLE_FINISH``,
    a ``MoveResult``), inside its transaction."""
    ratings_apply(game=result.game)


@dataclass(frozen=True)
class Leaderboard:
    players: list[Rating]  # people with enough rated games, best first
    bots: list[Rating]  # the site's bots, best first
    provisional: int  # people still provisional (fewer games), not ranked


def leaderboard_rows(*, game: str, limit: int = 100) -> Leaderboard:
    """The leaderboard of ``game``: ranked people (``Rating.PROVISIONAL_GAMES`` rated games
    or more), the bots apart, and how many people are still provisional."""
    base = (
        Rating.objects.filter(game=game, games__gt=0, user__is_active=True)
        .select_related("user")
        .alias(shown=F("mu") - 3 * F("sigma"))
        .order_by("-shown", "-games", "user__username")
    )
    people = base.filter(user__is_bot=False)
    return Leaderboard(
        players=list(people.filter(games__gte=Rating.PROVISIONAL_GAMES)[:limit]),
        bots=list(base.filter(user__is_bot=True)[:limit]),
        provisional=people.filter(games__lt=Rating.PROVISIONAL_GAMES).count(),
    )
