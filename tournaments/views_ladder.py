"""A title's ladder page: the places, a button to challenge each player in reach, and the
challenges' history (tournaments.ladder)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError
from games.titles import web_title
from tournaments import ladder


def ladder_page(request: HttpRequest, title: str) -> HttpResponse:
    try:
        doc = ladder.ladder_document(title)
    except GameError:
        raise Http404(_("There is no such ladder.")) from None
    me = next(
        (
            r
            for r in doc["rungs"]
            if request.user.is_authenticated and r["username"] == request.user.get_username()
        ),
        None,
    )
    reach = range(me["position"] - doc["reach"], me["position"]) if me else range(0)
    return render(
        request,
        "tournaments/ladder.html",
        {"doc": doc, "me": me, "reach": reach, "title_name": web_title(doc["title"]).name},
    )


@login_required
@require_POST
def ladder_action(request: HttpRequest, title: str, action: str) -> HttpResponse:
    try:
        if action == "join":
            ladder.ladder_join(title=title, user=request.user)  # type: ignore[arg-type]
        elif action == "leave":
            ladder.ladder_leave(title=title, user=request.user)  # type: ignore[arg-type]
        elif action == "challenge":
            made = ladder.ladder_challenge(
                title=title,
                user=request.user,  # type: ignore[arg-type]
                username=request.POST.get("username"),
            )
            return redirect("games:game", made.game_id)
        else:
            raise Http404(_("There is nothing here."))
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:ladder", title)
