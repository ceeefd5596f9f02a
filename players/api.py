"""Auth and user endpoints of the JSON API."""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from accounts import services
from accounts.http import AuthenticatedHttpRequest
from accounts.models import ApiToken, User
from colorado.throttling import AddressRateThrottle
from games.api.kit import ApiError, errors, optional_auth
from games.tables.invitations import mute_set, mutes_of
from players import selectors
from players.settings import settings_update

router = Router(tags=["users"])


class TokenRequest(Schema):
    username: str
    password: str


class TokenResponse(Schema):
    token: str
    expires_at: datetime.datetime


@router.post(
    "/auth/token",
    auth=None,
    response={200: TokenResponse},
    throttle=[AddressRateThrottle("20/min", scope="token")],
    summary="Exchange a username and password for an API token",
)
def token_create(request: HttpRequest, payload: TokenRequest) -> dict[str, Any]:
    """The sign-in form's rules, so the API is no way around them: failures lock the
    account for a while (``services.password_check``) and an account needs a verified
    e-mail address, as signing in does."""
    try:
        user = services.password_check(
            request=request, username=payload.username, password=payload.password
        )
    except services.TooManyAttempts:
        raise ApiError(
            429,
            "too_many_attempts",
            _("Too many failed attempts for this account. Wait a few minutes, then try again."),
        ) from None
    if user is None:
        raise ApiError(401, "bad_credentials", _("That username and password did not match."))
    if not services.email_verified(user=user):
        raise ApiError(
            403,
            "email_unverified",
            _("Confirm your e-mail address first (follow the link we e-mailed you)."),
        )
    token, row = services.token_issue(user=user, name="api")
    return {"token": token, "expires_at": row.expires_at}


# --- /api/me/tokens ------------------------------------------------------------------------


class TokenOut(Schema):
    """A token as its owner sees it: never the secret (only its digest is kept anyway)."""

    id: int
    name: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None
    expires_at: datetime.datetime


@router.get("/me/tokens", response=list[TokenOut], summary="My API tokens (without secrets)")
def me_tokens(request: AuthenticatedHttpRequest) -> list[ApiToken]:
    return services.token_list(user=request.user)


@router.delete(
    "/me/tokens/{token_id}",
    response={204: None},
    summary="Revoke one of my API tokens; it stops working at once",
)
def me_token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> Status[None]:
    if services.token_revoke(user=request.user, token_id=token_id) is None:
        raise ApiError(404, "unknown_token", _("You have no such token."))
    return Status(204, None)


class SocketTicketResponse(Schema):
    ticket: str
    expires_in: int


@router.post(
    "/socket-ticket",
    response={200: SocketTicketResponse},
    summary="A single-use ticket to open a game socket (/ws/games/{id}/?ticket=…)",
)
def socket_ticket(request: AuthenticatedHttpRequest) -> dict[str, Any]:
    """Sockets cannot carry a long-lived token in the URL (access logs keep URLs): the
    client trades its session or bearer token here for a ticket good for one handshake."""
    ticket = services.socket_ticket_create(user=request.user)
    return {"ticket": ticket, "expires_in": services.SOCKET_TICKET_SECONDS}


# --- /api/me/settings ------------------------------------------------------------------


class SettingsOut(Schema):
    email_notifications: str
    reminder_hours: int
    vacation_days: float
    away_until: datetime.datetime | None
    display_name: str
    time_zone: str
    language: str


class SettingsIn(Schema):
    """Any subset of the settings; fields not sent stay as they are. ``vacation_days`` is
    read-only (accepted only unchanged, so a client may send back what it read)."""

    model_config = ConfigDict(extra="forbid")

    email_notifications: str | None = None
    reminder_hours: int | None = None
    vacation_days: float | None = None
    away_until: datetime.datetime | None = None
    display_name: str | None = None
    time_zone: str | None = None
    language: str | None = None


@router.get("/me/settings", response=SettingsOut, summary="My profile and notification settings")
def me_settings(request: AuthenticatedHttpRequest) -> dict[str, Any]:
    return selectors.user_settings(user=request.user)


@router.put("/me/settings", response=SettingsOut, summary="Change my settings")
def me_settings_update(request: AuthenticatedHttpRequest, payload: SettingsIn) -> dict[str, Any]:
    user = request.user
    changes = payload.model_dump(exclude_unset=True)
    vacation = changes.pop("vacation_days", None)
    if vacation is not None and vacation != user.vacation_days:
        raise ApiError(
            400,
            "read_only",
            _("vacation_days is read-only: it counts down while you are away."),
        )
    for field in ("email_notifications", "reminder_hours", "display_name", "time_zone"):
        if field in changes and changes[field] is None:
            raise ApiError(400, "bad_request", _("%(field)s cannot be null.") % {"field": field})
    try:
        settings_update(user=user, changes=changes)
    except services.SettingsError as exc:
        raise ApiError(400, "invalid_setting", exc.message, field=exc.field) from None
    return selectors.user_settings(user=user)


# --- /api/me/mutes: the inviters a player takes no invitations from ----------------------


class MuteIn(Schema):
    username: str = Field(max_length=150)


class MuteOut(Schema):
    username: str
    display_name: str


@router.get("/me/mutes", response=list[MuteOut], summary="The players I take no invitations from")
def me_mutes(request: AuthenticatedHttpRequest) -> list[dict[str, Any]]:
    return [
        {"username": u.username, "display_name": u.shown_name} for u in mutes_of(user=request.user)
    ]


@router.post(
    "/me/mutes",
    response={201: MuteOut},
    openapi_extra=errors(404),
    summary="Take no more invitations from a player",
)
def me_mute(request: AuthenticatedHttpRequest, payload: MuteIn) -> Status[dict[str, Any]]:
    player = _user_or_404(payload.username)
    mute_set(user=request.user, muted=player, on=True)
    return Status(201, {"username": player.username, "display_name": player.shown_name})


@router.delete(
    "/me/mutes/{username}",
    response={204: None},
    openapi_extra=errors(404),
    summary="Take invitations from a player again",
)
def me_unmute(request: AuthenticatedHttpRequest, username: str) -> Status[None]:
    mute_set(user=request.user, muted=_user_or_404(username), on=False)
    return Status(204, None)


# --- /api/users ----------------------------------------------------------------------------


class RatingOut(Schema):
    mu: float
    sigma: float
    rating: float  # mu - 3 sigma, the number shown
    games: int
    provisional: bool


class StatsOut(Schema):
    games: int
    wins: int
    average_score: float | None
    best_score: int | None
    missed_deadlines: int


class RecordOut(Schema):
    finished: int
    abandoned: int
    resigned: int
    replaced: int
    finish_rate: float | None
    timeouts: int
    current_timeouts: int
    median_move_seconds: float | None


class UserOut(Schema):
    username: str
    display_name: str
    is_bot: bool
    date_joined: datetime.datetime
    ratings: dict[str, RatingOut]
    stats: dict[str, StatsOut]
    record: RecordOut


class HistorySeatOut(Schema):
    seat: int | None
    username: str
    is_bot: bool
    replaced_by_bot: bool
    resigned: bool
    score: int | None
    rank: int | None


class HistoryGameOut(Schema):
    id: int
    game: str
    status: str
    rated: bool
    players: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    seat: int | None
    score: int | None
    rank: int | None
    seats: list[HistorySeatOut]


class UserGamesOut(Schema):
    username: str
    games: list[HistoryGameOut]


def _user_or_404(username: str) -> User:
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise ApiError(404, "unknown_user", _("There is no player of that name."))
    return user


@router.get(
    "/users/{username}",
    auth=optional_auth,
    response=UserOut,
    summary="A player's ratings and statistics",
)
def user_detail(request: HttpRequest, username: str) -> dict[str, Any]:
    viewer = request.user if getattr(request.user, "is_authenticated", False) else None
    return selectors.user_document(user=_user_or_404(username), viewer=viewer)


@router.get(
    "/users/{username}/games",
    auth=optional_auth,
    response=UserGamesOut,
    summary="A player's games, newest first, with final scores and ranks",
)
def user_games(
    request: HttpRequest,
    username: str,
    status: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> dict[str, Any]:
    user = _user_or_404(username)
    statuses: tuple[str, ...] = selectors.USER_GAME_STATUSES
    if status is not None:
        if status not in statuses:
            raise ApiError(
                400,
                "bad_status",
                _("status must be one of %(choices)s.") % {"choices": ", ".join(statuses)},
            )
        statuses = (status,)
    if not 1 <= limit <= 100 or offset < 0:
        raise ApiError(400, "bad_page", _("limit must be between 1 and 100 and offset at least 0."))
    viewer = request.user if getattr(request.user, "is_authenticated", False) else None
    games = selectors.user_games(
        user=user, viewer=viewer, statuses=statuses, limit=limit, offset=offset
    )
    return {
        "username": user.username,
        "games": [selectors.game_history_entry(game=game, user=user) for game in games],
    }
