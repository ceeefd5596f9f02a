"""The lobby pages: my running tables, the new-table form, my inbox and the open tables
(a fragment the lobby's script swaps in when the live socket says they changed,
``notifications.consumers``)."""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.errors import (
    GameError,
)
from games.models import Game, Seat
from games.selectors import inbox as inbox_reads
from games.selectors.inbox import lobby_open_tables
from games.tables import lifecycle
from games.web.forms import NewTableForm


class _MyTable(TypedDict):
    game: Game
    seats: list[Seat]
    my_turn: bool


def lobby_context(request: HttpRequest, user: User) -> dict[str, Any]:
    """The lobby of ``user``, signed in (the page's request: its form's title)."""
    mine = (
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )
    my_running: list[_MyTable] = []
    for game in mine.filter(status__in=[Game.Status.RUNNING, Game.Status.OPEN]):
        seats = sorted(game.seats.all(), key=lambda s: (s.seat is None, s.seat or 0, s.pk))
        my_seat = next((s for s in seats if s.user_id == user.pk), None)
        to_act = set(game.to_act or [])
        for s in seats:
            # A mark for the lobby's template, on this page's copy of the row.
            s.to_act = s.seat is not None and s.seat in to_act  # type: ignore[attr-defined]
        my_running.append(
            {
                "game": game,
                "seats": seats,
                "my_turn": my_seat is not None
                and my_seat.seat is not None
                and my_seat.seat in to_act,
            }
        )
    my_running.sort(key=lambda e: (not e["my_turn"], e["game"].status != Game.Status.RUNNING))
    finished = mine.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:20]
    open_tables = lobby_open_tables(user=user)
    return {
        "my_games": my_running,
        "finished": [
            {"game": g, "seats": sorted(g.seats.all(), key=lambda s: s.seat or 0)} for g in finished
        ],
        "open_tables": open_tables,
        "form": NewTableForm(title=request.GET.get("title")),
    }


@login_required
@require_GET
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", lobby_context(request, request.user))


@login_required
@require_http_methods(["GET", "POST"])
def new_table(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = NewTableForm(request.POST)
        if form.is_valid():
            try:
                game = lifecycle.game_create(creator=request.user, **form.service_kwargs())
            except GameError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("games:game", game_id=game.pk)
    else:
        form = NewTableForm(title=request.GET.get("title"))
    return render(request, "games/new_table.html", {"form": form})


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """``/games/inbox/``: the games waiting for my move, the nearest deadline first, then
    the invitations (rematch offers marked) and my other running games."""
    return render(request, "games/inbox.html", inbox_reads.inbox(user=request.user))


@require_GET
def inbox_count(request: HttpRequest) -> JsonResponse:
    """``{"count": n}``: the header's figure, for a page without a live socket."""
    return JsonResponse({"count": inbox_reads.inbox_count(user=request.user)})


@require_GET
def open_tables(request: HttpRequest) -> HttpResponse:
    """The lobby's open tables, as the lobby renders them (a fragment)."""
    tables = inbox_reads.lobby_open_tables(user=request.user)
    return render(request, "games/_open_tables.html", {"open_tables": tables})
