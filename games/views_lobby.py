"""The inbox (my games by time left, my invitations and rematch offers) and the lobby's
list of open tables as a fragment, which the lobby's script swaps in when the live socket
says the open tables changed (``notifications.consumers``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import selectors_inbox as selectors


@login_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    """``/games/inbox/``: the games waiting for my move, the nearest deadline first, then
    the invitations (rematch offers marked) and my other running games."""
    return render(request, "games/inbox.html", selectors.inbox(user=request.user))


@require_GET
def inbox_count(request: HttpRequest) -> JsonResponse:
    """``{"count": n}``: the header's figure, for a page without a live socket."""
    return JsonResponse({"count": selectors.inbox_count(user=request.user)})


@require_GET
def open_tables(request: HttpRequest) -> HttpResponse:
    """The lobby's open tables, as the lobby renders them (a fragment)."""
    tables = selectors.lobby_open_tables(user=request.user)
    return render(request, "games/_open_tables.html", {"open_tables": tables})
