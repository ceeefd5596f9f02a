"""Game endpoints of the JSON API (paths and shapes: docs/api.md). Thin: parse, call a service
or selector, answer. A ``GameError`` from the services answers as on every surface
(``games.errors.error_body``, through ``colorado.api.on_game_error``); a move goes the one
move path (``games.moves.queue`` → ``games.moves.answer``), whose answer (a stale version's
``current`` document too) is the socket's. Each operation's own error statuses are declared
for the schema with ``errors(...)``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status

from colorado.throttling import AnonymousRateThrottle, UserRateThrottle
from games.api.kit import ApiError, errors, optional_auth, signed_in
from games.bots import bot_only_tables
from games.bots.players import level_rows
from games.engine import title_slugs
from games.errors import BadRequest, Conflict, NotFound, watch_refused
from games.live.seen_marks import seat_mark_seen
from games.models import Game
from games.moves import answer as move_answer
from games.moves import queue as move_queue
from games.records import export_replay
from games.selectors import documents
from games.store import jsontext
from games.tables import lifecycle
from games.tables.chat import chat_post
from games.tables.limits import chat_throttle

router = Router(tags=["games"])
MAX_ID = 2**62

Json = dict[str, Any]


class CreateGame(Schema):
    game: str | None = None  # the default title when absent
    players: int
    options: dict[str, Any] | None = None
    clock: dict[str, Any] | str | None = None
    on_timeout: str = "bot"
    rated: bool = True
    invite: list[str] = Field(default_factory=list, max_length=8)
    # Each a level (easy, medium, hard) or a bot kind; bot_level: who stands in for a late
    # player (default: the bots' level when they are all one, else the title's stand-in).
    bots: list[str] = Field(default_factory=list, max_length=8)
    bot_level: str | None = Field(default=None, max_length=32)
    open_seats: bool = True
    skip_weekends: bool = False
    # Only players who finish at least this share of their games (games.records.reliability).
    min_finish_rate: int = 0


class SubmitAction(Schema):
    action: dict[str, Any]
    version: int | None = None
    client_id: str | None = Field(default=None, max_length=64)


class ChatIn(Schema):
    text: str = Field(max_length=2000)


class ListFilter(Schema):
    status: Game.Status | None = None
    player: str | None = Field(default=None, max_length=150)
    limit: int = Field(default=50, ge=1, le=200)
    offset: int = Field(default=0, ge=0, le=100_000)


def _user(request: HttpRequest) -> Any:
    user = getattr(request, "auth", None)
    if user is None or user is True or not getattr(user, "is_authenticated", False):
        user = getattr(request, "user", None)
    return user if getattr(user, "is_authenticated", False) else None


def _game_to_watch(game_id: int, request: HttpRequest) -> Game:
    """The game, if the caller may watch it (``documents.can_watch``): 404 unknown; an
    invitation-only table: 401 signed out, 403 ``not_a_player`` signed in."""
    game = (
        Game.objects.select_related("created_by").filter(pk=game_id).first()
        if (0 < game_id < MAX_ID)
        else None
    )
    if game is None:
        raise NotFound()
    user = _user(request)
    if not documents.can_watch(game=game, user=user):
        raise watch_refused(signed_in=user is not None)
    return game


@router.post(
    "/games",
    auth=signed_in,
    response={201: Json},
    summary="Open a table (starts when full)",
)
def create_game(request: HttpRequest, payload: CreateGame) -> Status[Json]:
    user = _user(request)
    game = lifecycle.game_create(
        creator=user,
        title=payload.game,
        players=payload.players,
        options=payload.options,
        clock=payload.clock,
        on_timeout=payload.on_timeout,
        rated=payload.rated,
        invite=payload.invite,
        bots=payload.bots,
        open_seats=payload.open_seats,
        skip_weekends=payload.skip_weekends,
        bot_level=payload.bot_level,
        min_finish_rate=payload.min_finish_rate,
    )
    return Status(201, documents.game_document(game=game, user=user))


@router.get("/games", auth=optional_auth, response=list[Json], summary="List tables")
def list_games(request: HttpRequest, filters: Query[ListFilter]) -> list[Json]:
    games = documents.games_list(user=_user(request), status=filters.status, player=filters.player)
    page = games[filters.offset : filters.offset + filters.limit]
    return [documents.game_summary(game=g, seats=documents.seats_of(g)) for g in page]


@router.get(
    "/games/{game_id}",
    auth=optional_auth,
    response=Json,
    openapi_extra=errors(401, 403),
    summary="The table for me",
)
def read_game(request: HttpRequest, game_id: int) -> Json:
    game = _game_to_watch(game_id, request)
    user = _user(request)
    doc = documents.game_document(game=game, user=user)
    if doc["my_seat"] is not None:
        seat_mark_seen(game_id=game.pk, user=user, version=game.version)
    return doc


@router.post(
    "/games/{game_id}/join",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Take a seat",
)
def join_game(request: HttpRequest, game_id: int) -> Json:
    user = _user(request)
    game = lifecycle.game_join(game_id=game_id, user=user)
    return documents.game_document(game=game, user=user)


@router.post(
    "/games/{game_id}/abort",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Abort a table that only bots play (its creator) or any table (an admin)",
)
def abort_game(request: HttpRequest, game_id: int) -> Json:
    """Nothing more is played and the game is not rated (docs/bots.md, "Tables with no
    person left")."""
    user = _user(request)
    game = bot_only_tables.table_abort(game_id=game_id, user=user)
    return documents.game_document(game=game, user=user)


@router.post(
    "/games/{game_id}/leave",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Leave an open table",
)
def leave_game(request: HttpRequest, game_id: int) -> Json:
    user = _user(request)
    game = lifecycle.game_leave(game_id=game_id, user=user)
    return documents.game_document(game=game, user=user)


@router.post(
    "/games/{game_id}/actions",
    auth=signed_in,
    response=Json,
    # Moves counted apart: a burst of moves does not stop a player reading the table.
    throttle=[UserRateThrottle("1200/min", scope="moves")],
    openapi_extra=errors(409, 422),
    summary="Submit an action of my seat",
)
def submit_action(request: HttpRequest, game_id: int, payload: SubmitAction) -> HttpResponse:
    """The caller's document after the action, with ``applied_version`` (the version the
    action made) and ``replayed``: a ``client_id`` this seat already used applies nothing
    and answers 200 again with the first time's ``applied_version`` and ``replayed: true``
    (only accepted moves are kept, so a refused one is simply tried again). The game's
    socket takes the same action as ``{"type": "action", "action", "version",
    "client_id"}`` and answers the same (docs/api.md, "Moves over the socket")."""
    status, body = move_queue.call(
        game_id,
        move_answer.Sent(
            user=_user(request),
            action=payload.action,
            version=payload.version,
            client_id=payload.client_id,
        ),
    )
    if status != 200:
        raise ApiError(status, **body)
    # The document as JSON text here, as ninja's renderer would write it: ninja would first
    # pass the ~10 kB document through a pydantic model of ``Json`` (a copy of every value)
    # for nothing — the document is plain JSON values already.
    return HttpResponse(jsontext.dumps(body), content_type="application/json; charset=utf-8")


@router.get(
    "/games/{game_id}/log",
    auth=optional_auth,
    response=list[Json],
    openapi_extra=errors(401, 403),
    summary="Log",
)
def game_log(request: HttpRequest, game_id: int, since: int = 0) -> list[Json]:
    game = _game_to_watch(game_id, request)
    if not 0 <= since < MAX_ID:
        raise BadRequest(_("since must be a version number."))
    return documents.game_log(game=game, user=_user(request), since=since, between_at_since=True)


@router.get(
    "/games/{game_id}/export",
    auth=optional_auth,
    response=Json,
    throttle=[
        AnonymousRateThrottle("20/min", scope="export"),
        UserRateThrottle("120/min", scope="export"),
    ],
    openapi_extra=errors(401, 403, 409),
    summary="The replayable record of a finished game",
)
def export_game(request: HttpRequest, game_id: int) -> Json:
    game = _game_to_watch(game_id, request)
    if game.status != Game.Status.FINISHED:
        raise Conflict(
            _("The record (with the seed) is published when the game ends."),
            code="not_finished",
            seed_hash=game.seed_hash,
        )
    return export_replay.game_export(game=game)


@router.post(
    "/games/{game_id}/chat",
    auth=signed_in,
    response={201: Json},
    throttle=[chat_throttle],
    summary="Say something at the table",
)
def post_chat(request: HttpRequest, game_id: int, payload: ChatIn) -> Status[Json]:
    user = _user(request)
    message = chat_post(game_id=game_id, user=user, text=payload.text)
    return Status(201, documents.chat_entry(message))


@router.get(
    "/bots",
    auth=optional_auth,
    response=list[Json],
    openapi_extra=errors(404),
    summary="The bot levels of each title",
)
def list_bots(request: HttpRequest, game: str | None = None) -> list[Json]:
    """Every level a title offers (easiest first; ``game`` for one title): its bot kind,
    account, rating and finished games, as on the Bots page. The level or the kind goes in
    ``bots`` / ``bot_level`` of ``POST /api/games``."""
    slugs = title_slugs()
    if game is not None:
        if game not in slugs:
            raise NotFound(code="unknown_game")
        slugs = [game]
    out = []
    for slug in slugs:
        for row in level_rows(slug):
            rating = row.rating
            out.append(
                {
                    "game": slug,
                    "level": row.level.level,
                    "label": row.level.label,
                    "kind": row.level.kind,
                    "description": row.level.description,
                    "username": row.account.username if row.account else f"bot-{row.level.kind}",
                    "display_name": row.account.shown_name if row.account else None,
                    "seconds": row.seconds,
                    "games": row.games,
                    "rating": None
                    if rating is None
                    else {
                        "mu": rating.mu,
                        "sigma": rating.sigma,
                        "rating": rating.display,
                        "games": rating.games,
                        "provisional": rating.provisional,
                    },
                }
            )
    return out
