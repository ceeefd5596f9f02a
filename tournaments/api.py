"""Tournaments in the JSON API (docs/api.md, "Tournaments"; docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from colorado.throttling import UserRateThrottle, caller
from games.api.kit import errors, optional_auth, signed_in
from games.errors import NotFound
from tournaments import services
from tournaments.models import Tournament
from tournaments.standings import tournament_document, tournament_summary

router = Router(tags=["tournaments"])

Json = dict[str, Any]


class TournamentIn(Schema):
    title: str = Field(max_length=40)
    format: str = Field(max_length=16)
    name: str = Field(default="", max_length=80)
    seats: int = 2
    rounds: int | None = None
    options: dict[str, Any] | None = None
    clock: dict[str, Any] | str | None = None
    rated: bool = True
    bots_allowed: bool = False
    min_entrants: int | None = None
    max_entrants: int | None = None
    starts: str = Field(default="when_full", max_length=40)
    round_days: int = 14


class BotIn(Schema):
    level: str = Field(max_length=32)


def _get(tournament_id: int) -> Tournament:
    t = Tournament.objects.filter(pk=tournament_id).first() if 0 < tournament_id < 2**62 else None
    if t is None:
        raise NotFound(code="unknown_tournament")
    return t


@router.post(
    "/tournaments",
    auth=signed_in,
    response={201: Json},
    throttle=[UserRateThrottle("20/h", scope="tournaments")],
    openapi_extra=errors(409),
    summary="Make a tournament",
)
def create_tournament(request: HttpRequest, payload: TournamentIn) -> Status[Json]:
    data = payload.model_dump(exclude_none=True)
    t = services.tournament_create(creator=caller(request), data=data)
    return Status(201, tournament_document(t))


@router.get("/tournaments", auth=optional_auth, response=list[Json], summary="Tournaments")
def list_tournaments(request: HttpRequest, status: str | None = None) -> list[Json]:
    rows = Tournament.objects.all()
    if status in Tournament.Status.values:
        rows = rows.filter(status=status)
    return [tournament_summary(t) for t in rows[:100]]


@router.get(
    "/tournaments/{tournament_id}",
    auth=optional_auth,
    response=Json,
    summary="A tournament: entrants, rounds, standings",
)
def read_tournament(request: HttpRequest, tournament_id: int) -> Json:
    return tournament_document(_get(tournament_id))


@router.post(
    "/tournaments/{tournament_id}/join",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Enter a tournament",
)
def join_tournament(request: HttpRequest, tournament_id: int) -> Json:
    t = services.tournament_join(tournament_id=tournament_id, user=caller(request))
    return tournament_document(_get(t.pk))


@router.post(
    "/tournaments/{tournament_id}/leave",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Leave a tournament (withdraw once it is under way)",
)
def leave_tournament(request: HttpRequest, tournament_id: int) -> Json:
    t = services.tournament_leave(tournament_id=tournament_id, user=caller(request))
    return tournament_document(_get(t.pk))


@router.post(
    "/tournaments/{tournament_id}/bots",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Enter a bot (the tournament's maker, where bots are allowed)",
)
def add_bot(request: HttpRequest, tournament_id: int, payload: BotIn) -> Json:
    t = services.tournament_add_bot(
        tournament_id=tournament_id, user=caller(request), level=payload.level
    )
    return tournament_document(_get(t.pk))
