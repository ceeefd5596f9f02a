"""Pages of the accounts app: settings, leaderboard, profiles. Thin: forms and selectors."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import selectors, services
from accounts.charts import rating_chart
from accounts.forms import SettingsForm
from accounts.models import RatingChange, User
from games.engine import game_slugs, get_game

DEFAULT_GAME = "colorado-county"


def _game_or_404(slug: str) -> str:
    if slug not in game_slugs():
        raise Http404(_("There is no game called %(slug)s.") % {"slug": slug})
    return slug


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    user = request.user
    if request.method == "POST":
        form = SettingsForm(request.POST, user=user)  # type: ignore[arg-type]
        if form.is_valid():
            form.save()
            messages.success(request, _("Your settings are saved."))
            return redirect("settings")
    else:
        form = SettingsForm(user=user)  # type: ignore[arg-type]
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "tokens": services.token_list(user=user),  # type: ignore[arg-type]
            "token_days": settings.API_TOKEN_DAYS,
            "now": timezone.now(),
        },
    )


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of my API tokens from the settings page (a form post with CSRF); another
    player's token id is a 404 like an unknown one."""
    row = services.token_revoke(user=request.user, token_id=token_id)  # type: ignore[arg-type]
    if row is None:
        raise Http404(_("You have no such token."))
    messages.success(
        request,
        _("The token “%(name)s” is revoked: it no longer works.") % {"name": row.name or row.pk},
    )
    return redirect("settings")


def leaderboard(request: HttpRequest, game: str = DEFAULT_GAME) -> HttpResponse:
    slug = _game_or_404(game)
    ratings = list(selectors.leaderboard(game=slug))
    return render(
        request,
        "accounts/leaderboard.html",
        {
            "game_slug": slug,
            "game_name": get_game(slug).name,
            "ratings": ratings,
            "games": [(s, get_game(s).name) for s in game_slugs()],
        },
    )


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    blocks = []
    changes_by_game: dict[int, RatingChange] = {}
    for rating in selectors.user_ratings(user=player):
        history = selectors.rating_history(user=player, game=rating.game)
        changes_by_game.update({change.game_obj_id: change for change in history})
        values = [history[0].display_before, *(c.display_after for c in history)] if history else []
        blocks.append(
            {
                "rating": rating,
                "name": _game_name(rating.game),
                "history": history,
                "chart": rating_chart(values),
            }
        )
    stats = [
        {"name": _game_name(slug), "stats": row}
        for slug, row in selectors.user_stats(user=player).items()
    ]
    viewer = request.user
    finished = selectors.user_games(user=player, viewer=viewer, statuses=("finished",), limit=20)
    finished_rows = [
        {
            "game": game,
            "entry": selectors.game_history_entry(game=game, user=player),
            "change": changes_by_game.get(game.pk),
        }
        for game in finished
    ]
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "is_me": request.user.is_authenticated and request.user.pk == player.pk,
            "ratings": blocks,
            "stats": stats,
            "running": selectors.user_games(
                user=player, viewer=viewer, statuses=("open", "running")
            ),
            "finished": finished_rows,
            "opponents": selectors.recent_opponents(user=player),
        },
    )


def _game_name(slug: str) -> str:
    try:
        return get_game(slug).name
    except KeyError:
        return slug


def _refused(request: HttpRequest, game: Any, *, wants_json: bool) -> HttpResponse:
    """A finished game's record refused by ``games.selectors.can_watch`` (an invitation-only
    table), with the API's codes: 401 ``not_signed_in``, 403 ``not_a_player``; as a page,
    the game page's answer (sign in, or whose table it is)."""
    from games.errors import json_error, watch_refused
    from games.views import refused

    if not wants_json:
        return refused(request, game)
    return json_error(watch_refused(signed_in=request.user.is_authenticated))


def game_verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """The fairness verdict of a finished game (HTML, or JSON with ``?format=json``): its
    published export replayed by ``games.fairness.verify_export``."""
    from games.errors import Conflict, json_error
    from games.fairness import verify_export
    from games.models import Game
    from games.selectors import can_watch, game_export

    game = get_object_or_404(Game, pk=game_id)
    wants_json = request.GET.get("format") == "json"
    if not can_watch(game=game, user=request.user):
        return _refused(request, game, wants_json=wants_json)
    if game.status != Game.Status.FINISHED:
        message = _("The seed is published when the game ends; this game has not finished.")
        if wants_json:
            return json_error(Conflict(message, code="not_finished"))
        return render(
            request,
            "accounts/verify.html",
            {"game": game, "verdict": None, "message": message},
            status=409,
        )
    verdict = verify_export(game_export(game=game))
    if wants_json:
        return JsonResponse({"game": game.pk, **verdict.as_dict()})
    return render(request, "accounts/verify.html", {"game": game, "verdict": verdict})


@require_POST
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for a rematch of a finished game (a player only); go to the new table."""
    from games import services
    from games.errors import GameError
    from games.views import error_reply

    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('games:game', args=[game_id])}")
    try:
        rematch = services.game_rematch(game_id=game_id, user=request.user)  # type: ignore[arg-type]
    except GameError as exc:  # back to the game with the reason, like the game page's forms
        return error_reply(request, game_id, exc)
    return redirect("games:game", game_id=rematch.pk)


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The step-by-step replay of a finished game (public views only); 409 before the end."""
    from games.errors import Conflict, json_error
    from games.models import Game
    from games.selectors import can_watch

    game = get_object_or_404(Game, pk=game_id)
    if not can_watch(game=game, user=request.user):
        return _refused(request, game, wants_json=True)
    if game.status != Game.Status.FINISHED:
        message = _("The replay is published when the game ends.")
        return json_error(Conflict(message, code="not_finished"))
    return JsonResponse(selectors.game_replay(game=game))
