"""The game page's private notepad (``games.tables.notes``): the form posts here; the page's
script (``static/js/notes.js``) posts the same form as one types, asking for JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError, NotSignedIn, TooManyRequests, page_error, wants_json
from games.tables import notes
from games.tables.limits import note_allowed


@require_POST
def save_note(request: HttpRequest, game_id: int) -> HttpResponse:
    back = reverse("games:game", args=[game_id]) + "#notes"
    if not request.user.is_authenticated:
        return page_error(request, NotSignedIn(_("Sign in to keep notes.")), back=back)
    if not note_allowed(request):
        return page_error(request, TooManyRequests(), back=back)
    try:
        saved = notes.note_write(
            game_id=game_id, user=request.user, text=request.POST.get("text", "")
        )
    except GameError as exc:
        return page_error(request, exc, back=back)
    if wants_json(request):
        return JsonResponse({"saved": True, "updated_at": saved["updated_at"]})
    return HttpResponse(status=303, headers={"Location": back})
