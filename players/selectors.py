"""Reads for accounts: settings, ratings, leaderboards, profiles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Avg, Count, F, Max, Prefetch, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from accounts.models import Rating, RatingChange, User
from games.models import Game, Seat
from games.records.reliability import record_of
from games.selectors.documents import watchable_games


def user_settings(*, user: User) -> dict[str, Any]:
    """The settings document of ``GET /api/me/settings``."""
    return {
        "email_notifications": user.email_notifications,
        "reminder_hours": user.reminder_hours,
        "vacation_days": user.vacation_days,
        "away_until": user.away_until,
        "display_name": user.display_name,
        "time_zone": user.time_zone,
        "language": user.language,
    }


def leaderboard(*, game: str, limit: int = 100) -> QuerySet[Rating]:
    """Ratings for ``game``, best shown rating (``mu - 3 sigma``) first; bots included."""
    return (
        Rating.objects.filter(game=game, games__gt=0, user__is_active=True)
        .select_related("user")
        .alias(shown=F("mu") - 3 * F("sigma"))
        .order_by("-shown", "-games", "user__username")[:limit]
    )


# --- Profiles ------------------------------------------------------------------------------


def _forfeited_q() -> Q:
    """Seats whose player resigned or was replaced by a bot (not a bot's own seat)."""
    return Q(resigned=True) | (~Q(bot_kind="") & Q(user__is_bot=False))


def user_ratings(*, user: User) -> list[Rating]:
    return list(Rating.objects.filter(user=user).order_by("game"))


def _visible_ids(viewer: Any) -> QuerySet[Game, Mapping[str, object]]:
    """The ids of the games ``viewer`` may watch (``games.selectors.documents.can_watch`` as a
    subquery): what a profile, its statistics, its rating history and its recent
    opponents may be built from. An invitation-only table is its players' and invitees'
    business on every channel (docs/api.md, "Who may watch")."""
    return Game.objects.filter(watchable_games(user=viewer)).values("pk")


def rating_history(*, user: User, game: str, viewer: Any) -> list[RatingChange]:
    """The user's rated games for ``game`` that ``viewer`` may watch, oldest first."""
    return list(
        RatingChange.objects.filter(user=user, game=game, game_obj__in=_visible_ids(viewer))
        .select_related("game_obj")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class GameStats:
    game: str
    games: int
    wins: int
    average_score: float | None
    best_score: int | None
    missed_deadlines: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "average_score": (
                round(self.average_score, 2) if self.average_score is not None else None
            ),
            "best_score": self.best_score,
            "missed_deadlines": self.missed_deadlines,
        }


def user_stats(*, user: User, viewer: Any) -> dict[str, GameStats]:
    """Per game slug: finished games, wins (rank 1, not resigned or replaced), average and
    best final score, and deadlines missed in any of the user's games — of the games
    ``viewer`` may watch."""

    seats = Seat.objects.filter(user=user, game__in=_visible_ids(viewer))
    finished = seats.filter(game__status=Game.Status.FINISHED)
    rows = (
        finished.values("game__title")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(final_rank=1) & ~_forfeited_q()),
            average_score=Avg("final_score"),
            best_score=Max("final_score"),
        )
        .order_by("game__title")
    )
    missed = dict(
        seats.exclude(game__status=Game.Status.ABORTED)
        .values("game__title")
        .annotate(missed=Sum("missed_deadlines"))
        .values_list("game__title", "missed")
    )
    stats = {
        row["game__title"]: GameStats(
            game=row["game__title"],
            games=row["games"],
            wins=row["wins"],
            average_score=row["average_score"],
            best_score=row["best_score"],
            missed_deadlines=int(missed.get(row["game__title"]) or 0),
        )
        for row in rows
    }
    for slug, count in missed.items():
        if slug not in stats:
            stats[slug] = GameStats(slug, 0, 0, None, None, int(count or 0))
    return stats


USER_GAME_STATUSES = ("open", "running", "finished")


def user_games(
    *,
    user: User,
    viewer: Any,
    statuses: Iterable[str] = USER_GAME_STATUSES,
    limit: int = 50,
    offset: int = 0,
) -> list[Any]:
    """The user's games that ``viewer`` may see (``games.selectors.documents.can_watch``: an
    invitation-only table's game is listed to its players only), newest first, with their
    seats and users prefetched; finished games carry the final scores and ranks on their
    seats. Never the seed or the secret state."""

    visible = Game.objects.filter(watchable_games(user=viewer)).values("pk")
    return list(
        Game.objects.filter(seats__user=user, status__in=list(statuses), pk__in=visible)
        .defer("state", "seed")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("user").order_by("seat", "id"),
            )
        )
        .order_by(Coalesce("finished_at", "started_at", "created_at").desc(), "-id")[
            offset : offset + limit
        ]
    )


def game_history_entry(*, game: Any, user: User) -> dict[str, Any]:
    """One line of ``GET /api/users/{username}/games``."""
    mine = next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)
    finished = game.status == "finished"
    return {
        "id": game.pk,
        "game": game.title,
        "status": game.status,
        "rated": game.rated,
        "players": game.num_players,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "seat": mine.seat if mine else None,
        "score": mine.final_score if (mine and finished) else None,
        "rank": mine.final_rank if (mine and finished) else None,
        "seats": [
            {
                "seat": seat.seat,
                "username": seat.user.username,
                "display_name": seat.user.shown_name,
                "is_bot": seat.user.is_bot,
                "replaced_by_bot": bool(seat.bot_kind) and not seat.user.is_bot,
                "resigned": seat.resigned,
                "score": seat.final_score if finished else None,
                "rank": seat.final_rank if finished else None,
            }
            for seat in game.seats.all()
        ],
    }


def recent_opponents(
    *, user: User, viewer: Any, games: int = 20, limit: int = 10
) -> list[dict[str, Any]]:
    """People and bots the user met in their last ``games`` finished games that ``viewer``
    may watch, most often first."""

    recent_ids = list(
        Game.objects.filter(
            seats__user=user, status=Game.Status.FINISHED, pk__in=_visible_ids(viewer)
        )
        .order_by("-finished_at", "-id")
        .values_list("id", flat=True)[:games]
    )
    rows = (
        Seat.objects.filter(game_id__in=recent_ids)
        .exclude(user=user)
        .values("user_id", "user__username")
        .annotate(games=Count("game", distinct=True), last=Max("game__finished_at"))
        .order_by("-games", "-last", "user__username")[:limit]
    )
    users = User.objects.in_bulk([row["user_id"] for row in rows])
    return [
        {
            "username": users[row["user_id"]].username,
            # The name every page shows (a second bot of a level has its letter).
            "name": users[row["user_id"]].shown_name,
            "is_bot": users[row["user_id"]].is_bot,
            "badge": users[row["user_id"]].is_bot and not users[row["user_id"]].wears_bot_name,
            "games": row["games"],
        }
        for row in rows
    ]


def user_document(*, user: User, viewer: Any) -> dict[str, Any]:
    """``GET /api/users/{username}`` as ``viewer`` may see it: the ratings (one number per
    title, made from every rated game: it names no table) and the statistics of the games
    ``viewer`` may watch."""
    return {
        "username": user.username,
        "display_name": user.shown_name,
        "is_bot": user.is_bot,
        "date_joined": user.date_joined,
        "ratings": {
            rating.game: {
                "mu": rating.mu,
                "sigma": rating.sigma,
                "rating": rating.display,
                "games": rating.games,
                "provisional": rating.provisional,
            }
            for rating in user_ratings(user=user)
        },
        "stats": {
            slug: stats.as_dict() for slug, stats in user_stats(user=user, viewer=viewer).items()
        },
        # Totals from every table, like the ratings (games.records.reliability).
        "record": record_of(user).as_dict(),
    }
