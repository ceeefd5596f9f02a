"""The forms the game page posts: a move (when its socket is away), chat, taking or leaving
a seat, resigning, aborting, the vote to replace a late player. Every form works without
JavaScript (POST, then redirect); the page's script posts the same forms with ``Accept:
application/json`` and gets JSON back. A move goes the one move path
(``games.moves.queue``), the rest through the same services as the JSON API."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.bots import bot_only_tables
from games.clocks.seats import replace_vote_cast, seat_resign
from games.errors import (
    BadRequest,
    GameError,
    NotSignedIn,
    TooManyRequests,
    wants_json,
)
from games.models import Game, Seat
from games.moves import queue as move_queue
from games.moves.answer import Sent
from games.tables import lifecycle
from games.tables.chat import chat_post
from games.tables.limits import chat_allowed
from games.web.forms import ChatForm, MoveForm, ReplaceVoteForm
from games.web.page import error_reply


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """A move from the page's form when its socket is away: the one move path, as the
    socket's and the API's (``games.moves.queue`` → ``games.moves.answer``: the form read by
    the title's web side, the same refusals, a stale version's ``current`` document). JSON
    for the page's script, else back to the game page (with the refusal's message)."""
    if not request.user.is_authenticated:
        return error_reply(request, game_id, NotSignedIn(_("Sign in to play.")))
    form = MoveForm(request.POST)
    row = Game.objects.filter(pk=game_id).only("title").first()
    if not form.is_valid() or row is None:
        return error_reply(request, game_id, BadRequest(_("That move was not understood.")))
    status, body = move_queue.call(
        game_id,
        Sent(
            user=request.user,
            action=None,
            version=form.cleaned_data.get("version"),
            client_id=form.cleaned_data.get("client_id") or None,
            form={key: request.POST.getlist(key) for key in request.POST},
            title=row.title,
        ),
    )
    if wants_json(request):
        return JsonResponse(body, status=status)
    if status != 200:
        messages.error(request, body["message"])
    return redirect("games:game", game_id=game_id)


@require_POST
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return error_reply(request, game_id, NotSignedIn(_("Sign in to chat.")))
    if not chat_allowed(request):
        # The API's allowance, in the same bucket (games.tables.limits).
        return error_reply(request, game_id, TooManyRequests())
    form = ChatForm(request.POST)
    if not form.is_valid():
        return error_reply(request, game_id, BadRequest(_("A message has 1 to 500 characters.")))
    try:
        chat_post(game_id=game_id, user=request.user, text=form.cleaned_data["text"])
    except GameError as exc:
        return error_reply(request, game_id, exc)
    if wants_json(request):
        return JsonResponse({"ok": True})
    return redirect(reverse("games:game", args=[game_id]) + "#chat")


def _seat_service(request: HttpRequest, game_id: int, name: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('games:game', args=[game_id])}")
    try:
        if name == "join":
            lifecycle.game_join(game_id=game_id, user=request.user)
            messages.success(request, _("You took a seat."))
        elif name == "leave":
            lifecycle.game_leave(game_id=game_id, user=request.user)
            messages.success(request, _("You left the table."))
            return redirect("home")
        else:
            # The same service as POST /api/games/{id}/resign.
            seat_resign(game_id=game_id, user=request.user)
            messages.success(request, _("You resigned; a bot plays your seat from now on."))
    except GameError as exc:
        return error_reply(request, game_id, exc)
    return redirect("games:game", game_id=game_id)


@require_POST
def abort(request: HttpRequest, game_id: int) -> HttpResponse:
    """Abort a table that only bots play (its creator) or any table (an admin): the service
    behind ``POST /api/games/{id}/abort``."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('games:game', args=[game_id])}")
    try:
        bot_only_tables.table_abort(game_id=game_id, user=request.user)
    except GameError as exc:
        return error_reply(request, game_id, exc)
    messages.success(
        request, _("The table is aborted: nothing more is played, and it is not rated.")
    )
    return redirect("games:game", game_id=game_id)


@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    return _seat_service(request, game_id, "join")


@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _seat_service(request, game_id, "leave")


@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    return _seat_service(request, game_id, "resign")


@require_POST
def replace_vote(request: HttpRequest, game_id: int) -> HttpResponse:
    """Vote to replace a player who missed two deadlines by the bot (the service behind
    ``POST /api/games/{id}/replace_vote``), then back to the game with a message."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('games:game', args=[game_id])}")
    form = ReplaceVoteForm(request.POST)
    if not form.is_valid():
        return error_reply(
            request,
            game_id,
            BadRequest(_("Choose the player you vote to replace."), code="bad_seat"),
        )
    number = form.cleaned_data["seat"]
    try:
        count = replace_vote_cast(game_id=game_id, voter=request.user, seat=number)
    except GameError as exc:
        return error_reply(request, game_id, exc)
    if wants_json(request):
        return JsonResponse(
            {
                "seat": number,
                "votes": count.votes,
                "needed": count.needed,
                "replaced": count.replaced,
            }
        )
    late = Seat.objects.filter(game_id=game_id, seat=number).select_related("user").first()
    name = late.user.shown_name if late is not None else str(number)
    if count.replaced:
        messages.success(
            request,
            _("%(name)s is replaced: the bot plays their seat to the end.") % {"name": name},
        )
    else:
        messages.success(
            request,
            _("You voted to replace %(name)s by the bot (%(votes)d of %(needed)d votes).")
            % {"name": name, "votes": count.votes, "needed": count.needed},
        )
    return redirect("games:game", game_id=game_id)
