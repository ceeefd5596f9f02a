"""The pages of a finished game: its fairness verdict, a rematch, and the step-by-step
replay. Refusals answer as on every surface (``games.errors``); an invitation-only table
is refused as the game page refuses it (``games.web.page.watch_refused_page``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from colorado.throttling import AnonymousRateThrottle, UserRateThrottle
from games.errors import (
    Conflict,
    GameError,
    NotFound,
    TooManyRequests,
    json_error,
    watch_refused,
)
from games.models import Game
from games.records.export_replay import game_export, replay_board, replay_document
from games.records.fairness import verify_export
from games.selectors.documents import can_watch
from games.tables import lifecycle
from games.web.page import error_reply, watch_refused_page

# A finished game's record is read (and, to verify it, replayed) on every call: the same
# limits as the API's export (``GET /api/games/<id>/export``) for the record, the verdict
# and the replay; a replay's steps are fetched one by one while a person watches, so more.
RECORD_THROTTLES = (
    AnonymousRateThrottle("20/min", scope="export"),
    UserRateThrottle("120/min", scope="export"),
)
STEP_THROTTLES = (
    AnonymousRateThrottle("300/min", scope="replay-step"),
    UserRateThrottle("600/min", scope="replay-step"),
)


def throttled(
    *throttles: AnonymousRateThrottle | UserRateThrottle,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """The view answers 429 ``throttled`` (JSON, with ``Retry-After``) past ``throttles``."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            for throttle in throttles:
                if not throttle.allow_request(request):
                    response = json_error(TooManyRequests())
                    wait = throttle.wait()
                    if wait is not None:
                        response["Retry-After"] = str(max(1, round(wait)))
                    return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def _watch_refused(request: HttpRequest, game: Game, *, wants_json: bool) -> HttpResponse:
    """A finished game's record refused by ``can_watch`` (an invitation-only table), with
    the API's codes: 401 ``not_signed_in``, 403 ``not_a_player``; as a page, the game
    page's answer (sign in, or whose table it is)."""
    if not wants_json:
        return watch_refused_page(request, game)
    return json_error(watch_refused(signed_in=request.user.is_authenticated))


@throttled(*RECORD_THROTTLES)
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """The fairness verdict of a finished game (HTML, or JSON with ``?format=json``): its
    published export replayed by ``games.records.fairness.verify_export``."""
    game = get_object_or_404(Game, pk=game_id)
    wants_json = request.GET.get("format") == "json"
    if not can_watch(game=game, user=request.user):
        return _watch_refused(request, game, wants_json=wants_json)
    if game.status != Game.Status.FINISHED:
        message = _("The seed is published when the game ends; this game has not finished.")
        if wants_json:
            return json_error(Conflict(message, code="not_finished"))
        return render(
            request,
            "games/verify.html",
            {"game": game, "verdict": None, "message": message},
            status=409,
        )
    verdict = verify_export(game_export(game=game))
    if wants_json:
        return JsonResponse({"game": game.pk, **verdict.as_dict()})
    return render(request, "games/verify.html", {"game": game, "verdict": verdict})


@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for a rematch of a finished game (a player only); go to the new table."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('games:game', args=[game_id])}")
    try:
        table = lifecycle.game_rematch(game_id=game_id, user=request.user)
    except GameError as exc:  # back to the game with the reason, like the game page's forms
        return error_reply(request, game_id, exc)
    return redirect("games:game", game_id=table.pk)


def _finished_or_refusal(request: HttpRequest, game_id: int, not_yet: str) -> Game | HttpResponse:
    """The finished game the caller may watch, or the JSON answer refusing it: the game
    page's refusal, or 409 ``not_finished`` with ``not_yet`` before the end."""
    game = get_object_or_404(Game, pk=game_id)
    if not can_watch(game=game, user=request.user):
        return _watch_refused(request, game, wants_json=True)
    if game.status != Game.Status.FINISHED:
        return json_error(Conflict(not_yet, code="not_finished"))
    return game


@require_GET
@throttled(*RECORD_THROTTLES)
def download(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game's record (the API's export) as a file to save, not a page:
    ``Content-Disposition: attachment`` with a name like ``<game slug>-table-12.json``.
    409 before the end (the seed is still secret), refused as the game page refuses."""
    game = _finished_or_refusal(
        request, game_id, _("The seed is published when the game ends; this game has not finished.")
    )
    if isinstance(game, HttpResponse):
        return game
    response = JsonResponse(game_export(game=game), json_dumps_params={"indent": 1})
    name = f"{game.title}-table-{game.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
@throttled(*RECORD_THROTTLES)
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The step-by-step replay of a finished game (public views only); 409 before the end."""
    game = _finished_or_refusal(request, game_id, _("The replay is published when the game ends."))
    if isinstance(game, HttpResponse):
        return game
    return JsonResponse(replay_document(game=game))


@require_GET
@throttled(*STEP_THROTTLES)
def replay_step_board(request: HttpRequest, game_id: int, step: int) -> HttpResponse:
    """One replay step's board as an HTML fragment, for titles that draw it on the server
    (``WebTitle.replay_board``): the public view of that step only. 404 for a step out of
    range or a title whose script draws the board."""
    game = _finished_or_refusal(request, game_id, _("The replay is published when the game ends."))
    if isinstance(game, HttpResponse):
        return game
    board = replay_board(game=game, step=step)
    if board is None:
        return json_error(NotFound(_("There is no such step."), code="no_such_step"))
    response = HttpResponse(board)
    response["Cache-Control"] = "private, max-age=3600"
    return response
