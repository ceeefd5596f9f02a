"""Reads for the inbox and the lobby: the games waiting for a player (the header's count,
``/games/inbox/``), the open tables the lobby lists, the public tables anyone may watch.
The same rules as ``games.selectors.documents`` (``can_watch``): an invitation-only table is listed
only for the people seated at it or invited to it."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games.engine import get_rules
from games.models import Game, Invitation, Seat
from games.selectors.documents import seats_of, seats_read


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


# --- the inbox (games waiting for me) and the lobby's open tables -----------------------


def _waiting_seats(user: Any) -> QuerySet[Seat]:
    """The caller's seats at running games where the game waits for them (their seat is in
    ``to_act``, a person plays it)."""
    return (
        Seat.objects.filter(
            user=user,
            game__status=Game.Status.RUNNING,
            seat__isnull=False,
            bot_kind="",
            resigned=False,
        )
        .select_related("game")
        .order_by("deadline", "game_id")
    )


def _pending_invitations(user: Any) -> QuerySet[Invitation]:
    """Invitations to open tables the caller has neither taken up nor declined."""
    return (
        Invitation.objects.filter(
            user=user,
            accepted_at__isnull=True,
            declined_at__isnull=True,
            game__status=Game.Status.OPEN,
        )
        .exclude(game__seats__user=user)
        .select_related("game", "invited_by", "game__rematch_of")
        .order_by("-created_at")
    )


def inbox_count(*, user: Any) -> int:
    """ "N games waiting for you": the running games due for the caller's move plus the
    invitations (rematch offers among them) they have not answered. Two indexed queries."""
    if not _signed_in(user):
        return 0
    due = sum(
        1
        for seat, to_act in _waiting_seats(user).values_list("seat", "game__to_act")
        if seat in (to_act or [])
    )
    return due + _pending_invitations(user).count()


def inbox(*, user: Any) -> dict[str, Any]:
    """The inbox page: the caller's running games, the ones waiting for their move first,
    sorted by time left (the nearest deadline first; a game without a deadline after those
    with one), then the others; and their pending invitations, each with who invited them
    and whether it is a rematch offer."""
    due: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for seat in _waiting_seats(user):
        game = seat.game
        entry = {"game": game, "seat": seat, "deadline": seat.deadline}
        (due if seat.seat in (game.to_act or []) else others).append(entry)

    def left(entry: dict[str, Any]) -> tuple[bool, float]:
        when = entry["deadline"]
        return (when is None, when.timestamp() if when is not None else 0.0)

    due.sort(key=left)
    others.sort(key=lambda e: -e["game"].updated_at.timestamp())
    invitations = list(_pending_invitations(user))
    for invitation in invitations:
        # Marks for the page's template, on this page's copies of the rows.
        invitation.seats = seats_read(invitation.game)  # type: ignore[attr-defined]
    return {
        "due": due,
        "others": others,
        "invitations": invitations,
        "count": len(due) + len(invitations),
    }


def next_waiting(*, user: Any, exclude: int) -> tuple[int | None, int]:
    """The game the caller should play next (issue 43: "Next game waiting (N)"): the first
    of the inbox's games waiting for their move, in the inbox's order (nearest deadline
    first), other than ``exclude``; and how many there are. One query."""
    if not _signed_in(user):
        return None, 0
    due = [
        s for s in _waiting_seats(user).exclude(game_id=exclude) if s.seat in (s.game.to_act or [])
    ]
    due.sort(key=lambda s: (s.deadline is None, s.deadline.timestamp() if s.deadline else 0.0))
    return (due[0].game_id if due else None), len(due)


def lobby_open_tables(*, user: Any, limit: int = 30) -> list[Game]:
    """The open tables the lobby lists for the caller: the ones anyone may join and the
    ones they are invited to, without the ones they already sit at, newest first; each
    with its seats (``prefetch``) and, for an invitation, who invited them
    (``invited_by``)."""
    qs = Game.objects.filter(status=Game.Status.OPEN)
    if _signed_in(user):
        qs = qs.filter(Q(open_seats=True) | Q(invitations__user=user)).exclude(seats__user=user)
    else:
        qs = qs.filter(open_seats=True)
    games = list(
        qs.select_related("created_by")
        .prefetch_related("seats__user")
        .distinct()
        .order_by("-created_at")[:limit]
    )
    invited: dict[int, Any] = {}
    if _signed_in(user) and games:
        for inv in Invitation.objects.filter(
            user=user, game__in=[g.pk for g in games]
        ).select_related("invited_by"):
            invited[inv.game_id] = inv.invited_by
    for game in games:
        # Marks for the page's template, on this page's copies of the rows.
        game.invited_by = invited.get(game.pk)  # type: ignore[attr-defined]
        game.seat_list = seats_of(game)  # type: ignore[attr-defined]
        game.title_name = str(get_rules(game.title).name)  # type: ignore[attr-defined]
    return games


def games_to_watch(*, limit: int = 8) -> list[Game]:
    """Running tables anyone may watch, signed in or not (``can_watch``: the public ones),
    the most recently moved first; each with its seats (``seat_list``)."""
    games = list(
        Game.objects.filter(status=Game.Status.RUNNING, open_seats=True)
        .prefetch_related("seats__user")
        .order_by("-updated_at")[:limit]
    )
    for game in games:
        # Marks for the page's template, on this page's copies of the rows.
        game.seat_list = seats_of(game)  # type: ignore[attr-defined]
        game.title_name = str(get_rules(game.title).name)  # type: ignore[attr-defined]
    return games
