"""The tournament pages: the list, a new tournament's form, and a tournament's page with
its standings (refreshed live by ``static/js/tournament.js``) and rounds."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError
from games.titles import web_title
from tournaments import services
from tournaments.forms import TournamentForm
from tournaments.ladder import ladder_titles
from tournaments.models import Entrant, Tournament
from tournaments.standings import tournament_document


def _tournament(tournament_id: int) -> Tournament:
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise Http404(_("There is no such tournament."))
    return t


def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = list(Tournament.objects.all()[:100])
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": [(t, web_title(t.title).name) for t in rows],
            "ladders": [(slug, web_title(slug).name) for slug in ladder_titles()],
        },
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data: dict[str, Any] = {k: v for k, v in form.cleaned_data.items() if v is not None}
        try:
            t = services.tournament_create(creator=request.user, data=data)  # type: ignore[arg-type]
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("tournaments:detail", t.pk)
    return render(
        request, "tournaments/new.html", {"form": form}, status=400 if form.errors else 200
    )


def _context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    doc = tournament_document(t)
    me = (
        Entrant.objects.filter(tournament=t, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    return {
        "t": t,
        "doc": doc,
        "title_name": web_title(t.title).name,
        "me": me,
        "rounds": list(reversed(doc["rounds"])),
    }


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _tournament(tournament_id)
    return render(request, "tournaments/detail.html", _context(request, t))


def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's live part (standings and rounds), fetched again every half minute."""
    t = _tournament(tournament_id)
    return render(request, "tournaments/_live.html", _context(request, t))


@login_required
@require_POST
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        services.tournament_join(tournament_id=tournament_id, user=request.user)  # type: ignore[arg-type]
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are entered."))
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        services.tournament_leave(tournament_id=tournament_id, user=request.user)  # type: ignore[arg-type]
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You have left the tournament."))
    return redirect("tournaments:detail", tournament_id)
