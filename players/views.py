"""Pages of the accounts app: settings (and API tokens), leaderboard, profiles. Thin: forms
and selectors. (A finished game's verify, rematch and replay pages are in
``games.web.finished``.)"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import get_language_from_request
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import services
from accounts.http import AuthenticatedHttpRequest
from accounts.models import Rating, RatingChange, User
from games.engine import get_rules, title_slugs
from games.records.ratings import leaderboard_rows
from games.tables.invitations import is_muted
from games.titles import default_title
from players import selectors
from players.charts import rating_chart
from players.forms import SettingsForm


def _title_or_404(slug: str) -> str:
    if slug not in title_slugs():
        raise Http404(_("There is no such game."))
    return slug


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    if request.method == "POST":
        form = SettingsForm(request.POST, user=user)
        if form.is_valid():
            form.save()
            # Confirmed in the language just chosen (the request still speaks the old one).
            chosen = user.language or get_language_from_request(request)
            with translation.override(chosen):
                messages.success(request, _("Your settings are saved."))
            return redirect("settings")
    else:
        form = SettingsForm(user=user)
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "tokens": services.token_list(user=user),
            "token_days": settings.API_TOKEN_DAYS,
            "now": timezone.now(),
            # Whole days: days accrue by eighths as one plays, and "10.1 days" reads oddly.
            "vacation_days": math.floor(user.vacation_days + 1e-9),
        },
    )


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of my API tokens from the settings page (a form post with CSRF); another
    player's token id is a 404 like an unknown one."""
    row = services.token_revoke(user=request.user, token_id=token_id)
    if row is None:
        raise Http404(_("You have no such token."))
    messages.success(
        request,
        _("The token “%(name)s” is revoked: it no longer works.") % {"name": row.name or row.pk},
    )
    return redirect("settings")


def leaderboard(request: HttpRequest, game: str | None = None) -> HttpResponse:
    slug = _title_or_404(game or default_title())
    board = leaderboard_rows(game=slug)
    return render(
        request,
        "accounts/leaderboard.html",
        {
            "game_slug": slug,
            "game_name": get_rules(slug).name,
            "ratings": board.players,
            "bots": board.bots,
            "provisional": board.provisional,
            "needed": Rating.PROVISIONAL_GAMES,
            "games": [(s, get_rules(s).name) for s in title_slugs()],
        },
    )


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    # Everything listed is of the games the visitor may watch (players.selectors).
    viewer = request.user
    blocks = []
    changes_by_game: dict[int, RatingChange] = {}
    for rating in selectors.user_ratings(user=player):
        history = selectors.rating_history(user=player, game=rating.game, viewer=viewer)
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
        for slug, row in selectors.user_stats(user=player, viewer=viewer).items()
    ]
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
            "opponents": selectors.recent_opponents(user=player, viewer=viewer),
            "may_mute": viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot,
            "muted": viewer.is_authenticated and is_muted(user=viewer, muted=player),
        },
    )


def _game_name(slug: str) -> str:
    try:
        return get_rules(slug).name
    except KeyError:
        return slug
