"""The game page (players and spectators), its live panels, a title's read-only queries
and the rules pages. Reads go through ``games.selectors.documents``; a refused form answers as on
every surface (``games.errors``: ``page_error``, ``json_error``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.names import name_key
from games.bots import bot_only_tables
from games.clocks.seats import replace_votes_open
from games.engine import IllegalAction
from games.errors import (
    GameError,
    NotAllowed,
    NotFound,
    NotSignedIn,
    json_error,
    page_error,
)
from games.live.seen_marks import seat_mark_seen
from games.models import ChatMessage, Game, Seat
from games.selectors import documents
from games.selectors.inbox import next_waiting
from games.selectors.log_words import describe
from games.store.state_cache import engine_for, load_state
from games.tables import notes
from games.titles import WebTitle, web_title, web_titles
from games.web.forms import ChatForm

LOG_LIMIT = 200


def error_reply(
    request: HttpRequest, game_id: int, exc: GameError, *, current: dict[str, Any] | None = None
) -> HttpResponse:
    """A form of game ``game_id`` refused: JSON for the script, else back to the game page
    with the message (``games.errors.page_error``)."""
    return page_error(request, exc, back=reverse("games:game", args=[game_id]), current=current)


def game_or_404(game_id: int) -> Game:
    """The game row, or the site's 404 page (no check of who may see it)."""
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404(_("There is no such game.")) from None


def as_datetime(value: Any) -> Any:
    if isinstance(value, str):
        return parse_datetime(value)
    return value


def seat_names(doc: dict[str, Any]) -> list[str]:
    """The players' names by seat (``User.shown_name``: a bot its level, "Random bot", and a
    second bot account of that level a letter, "Random bot B"). Two names that still read
    the same (accounts named before names were checked) are told apart by their seat."""
    seats = sorted(
        (s for s in doc.get("seats", []) if s.get("seat") is not None), key=lambda s: s["seat"]
    )
    names = [str(s.get("display_name") or s.get("username", "")) for s in seats]
    counts = Counter(names)
    return [
        _("%(name)s (seat %(n)s)") % {"name": name, "n": s["seat"] + 1}
        if counts[name] > 1
        else name
        for name, s in zip(names, seats, strict=True)
    ]


def _seat_handles(doc: dict[str, Any]) -> dict[int, str]:
    """Each person's username by seat, where their display name reads differently, so that
    the page can show who is who (bots are their level; they have no handle)."""
    return {
        s["seat"]: str(s.get("username", ""))
        for s in doc.get("seats", [])
        if s.get("seat") is not None
        and not s.get("is_bot")
        and name_key(str(s.get("display_name") or "")) != name_key(str(s.get("username", "")))
    }


def log_lines(
    game: Game, user: Any, names: list[str], me: int | None, title: WebTitle
) -> list[dict[str, Any]]:
    lines = []
    for entry in documents.game_log(game=game, user=user, since=0, chat=False):
        text = describe(entry, names, me, title)
        if text:
            lines.append(
                {
                    "version": entry.get("version"),
                    "text": text,
                    "private": entry.get("visible_to") not in (None, "all"),
                }
            )
    return lines[-LOG_LIMIT:]


def _deadlines(doc: dict[str, Any]) -> dict[int, Any]:
    return {
        s["seat"]: as_datetime(s.get("clock_deadline"))
        for s in doc.get("seats", [])
        if s.get("seat") is not None
    }


def _away(seat_rows: Any) -> list[dict[str, Any]]:
    """The people at the table on vacation now (``User.away_until`` ahead): their clocks
    are paused until then, and the page shows it beside the table."""
    from django.utils import timezone

    now = timezone.now()
    return [
        {"name": s.user.shown_name, "until": s.user.away_until}
        for s in seat_rows
        if not s.bot_kind and s.user.away_until is not None and s.user.away_until > now
    ]


def page_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game page's context: the generic part (document, seats, log, chat, clocks) and
    the title's own (``WebTitle.page_context``) for its board and panels."""
    user = request.user
    title = web_title(game.title)
    doc = documents.game_document(game=game, user=user)
    names = seat_names(doc)
    view = doc.get("view")
    me = doc.get("my_seat")
    legal = doc.get("legal_actions") or []
    to_act = doc.get("to_act") or []
    seat_rows = Seat.objects.filter(game=game).select_related("user").order_by("seat", "pk")
    my_seat_row = next(
        (s for s in seat_rows if user.is_authenticated and s.user_id == user.pk), None
    )
    # Seats a person no longer plays (resigned, or replaced by vote): the bot moves there,
    # so neither that person nor the table is told it is their turn or shown their deadline,
    # and that person is offered no move.
    out_seats = {s.seat for s in seat_rows if s.seat is not None and s.is_out}
    if me is not None and me in out_seats:
        legal = []
    my_turn = me is not None and me in to_act and me not in out_seats
    ctx: dict[str, Any] = {
        "web_title": title,
        "replace_votes": replace_votes_open(game=game, viewer=user),
        "game": game,
        "doc": doc,
        "view": view,
        "names": names,
        "me": me,
        "legal": legal,
        "kinds": {a["type"] for a in legal},
        "seat_rows": seat_rows,
        "my_seat_row": my_seat_row,
        "to_act": to_act,
        "my_turn": my_turn,
        "status_line": title.status_line(view) if game.status == Game.Status.RUNNING else "",
        "log": log_lines(game, user, names, me, title) if game.status != Game.Status.OPEN else [],
        "chat": ChatMessage.objects.filter(game=game).select_related("user").order_by("-id")[:50],
        "chat_form": ChatForm(),
        "away_players": _away(seat_rows),
        "may_abort": bot_only_tables.may_abort(game=game, user=user),
        # The player's own notepad (games.tables.notes); None for anyone without a seat here.
        "my_note": None
        if my_seat_row is None
        else notes.note_read(game_id=game.pk, user=user)["text"],
        "note_max": notes.NOTE_MAX,
    }
    if view:
        deadlines_by_seat = _deadlines(doc)
        handles = _seat_handles(doc)
        by_seat = {p.get("seat"): p for p in view.get("players", []) if isinstance(p, dict)}
        ctx["players"] = [
            {
                **by_seat.get(seat, {}),
                "seat": seat,
                "name": name,
                "deadline": None if seat in out_seats else deadlines_by_seat.get(seat),
                "to_act": seat in to_act and seat not in out_seats,
                "out": seat in out_seats,
                "handle": handles.get(seat, ""),
            }
            for seat, name in enumerate(names)
        ]
    # A seat its person left is shown to them as to a spectator (documents.viewing_seat).
    ctx.update(
        title.page_context(doc=doc, legal=legal, names=names, me=None if me in out_seats else me)
    )
    client: dict[str, Any] = {
        "id": game.pk,
        "version": doc.get("version", 0),
        "status": doc.get("status"),
        "my_seat": me,
        "my_seat_out": me is not None and me in out_seats,
        "names": names,
        "view": view,
        "legal_actions": legal,
        "to_act": to_act,
        "urls": {
            "ws": f"/ws/games/{game.pk}/",
            "panels": reverse("games:panels", args=[game.pk]),
            "act": reverse("games:act", args=[game.pk]),
            "query": reverse("games:query", args=[game.pk, "-"]).removesuffix("-/"),
        },
        "strings": {
            "your_turn": _("Your turn"),
            "offline": _("Live updates are off; reload the page to see new moves."),
            "live": _("Live"),
        },
    }
    extra = title.client_strings()
    client["strings"].update(extra.pop("strings", {}))
    client.update(extra)
    ctx["client"] = client
    # After a move here, the next table waiting for this player (the inbox's order).
    if me is not None and not my_turn and game.status == Game.Status.RUNNING:
        ctx["next_game"], ctx["next_count"] = next_waiting(user=user, exclude=game.pk)
    return ctx


def watch_refused_page(request: HttpRequest, game: Game) -> HttpResponse:
    """A table the visitor may not see (``documents.can_watch``): sign in first when
    anonymous (they may be one of its players), else a page saying whose table it is."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    return render(request, "games/private_table.html", {"game": game}, status=403)


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_or_404(game_id)
    if not documents.can_watch(game=game, user=request.user):
        return watch_refused_page(request, game)
    ctx = page_context(request, game)
    if ctx["me"] is not None and request.user.is_authenticated:
        seat_mark_seen(game_id=game.pk, user=request.user, version=ctx["doc"]["version"])
    return render(request, "games/game.html", ctx)


@require_GET
def panels(request: HttpRequest, game_id: int) -> HttpResponse:
    """The side panels alone, for the page's script to swap in after a live update."""
    game = game_or_404(game_id)
    if not documents.can_watch(game=game, user=request.user):
        return HttpResponse(status=403)
    ctx = page_context(request, game)
    if ctx["me"] is not None and request.user.is_authenticated:
        seat_mark_seen(game_id=game.pk, user=request.user, version=ctx["doc"]["version"])
    return render(request, "games/_panels.html", ctx)


@require_GET
def query(request: HttpRequest, game_id: int, name: str) -> JsonResponse:
    """A title's read-only extra for the signed-in player's seat (``Rules.query``), e.g. a
    preview of what a move would score: ``GET /games/<id>/query/<name>/?…``. The
    arguments are the query string; the answer is the engine's, as JSON. 403 with the
    engine's code when this seat may not ask now (404 ``unknown_query``)."""
    game = game_or_404(game_id)
    if not request.user.is_authenticated:
        return json_error(NotSignedIn(_("Sign in to play.")))
    row = Seat.objects.filter(game=game, user=request.user).select_related("user").first()
    # A seat its person left (resigned, replaced) is the bot's: its queries are not theirs.
    seat = row.seat if row is not None and not row.is_out else None
    if seat is None or game.state is None or game.status != Game.Status.RUNNING:
        return json_error(
            NotAllowed(_("Only a player of a running game may ask."), code="not_a_player")
        )
    args = {key: request.GET.get(key, "") for key in request.GET}
    try:
        answer = engine_for(game).query(load_state(game), seat, name, args)
    except IllegalAction as exc:
        if exc.code == "unknown_query":
            return json_error(NotFound(exc.message, code=exc.code))
        return json_error(NotAllowed(exc.message, code=exc.code))
    return JsonResponse({"query": name, "answer": answer})


@require_GET
def how_to_play(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """A title's rules in our words (``WebTitle.how_to_play_template``); without a slug,
    the list of every title with a rules page (the header's link)."""
    if slug is None:
        titles = [t for t in web_titles() if t.how_to_play_template]
        return render(request, "games/how_to_play_index.html", {"rule_titles": titles})
    try:
        title = web_title(slug)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    if title.how_to_play_template is None:
        raise Http404(_("There is no rules page for this game."))
    return render(request, title.how_to_play_template, {"web_title": title})
