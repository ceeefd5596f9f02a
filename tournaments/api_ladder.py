"""The ladders in the JSON API (docs/api.md, "Ladders"; tournaments.ladder)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema

from colorado.throttling import caller
from games.api.kit import errors, optional_auth, signed_in
from tournaments import ladder

router = Router(tags=["ladders"])

Json = dict[str, Any]


class ChallengeIn(Schema):
    username: str = Field(max_length=150)


@router.get("/ladders/{title}", auth=optional_auth, response=Json, summary="A title's ladder")
def read_ladder(request: HttpRequest, title: str) -> Json:
    return ladder.ladder_document(title)


@router.post(
    "/ladders/{title}/join",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Join a ladder at the bottom",
)
def join_ladder(request: HttpRequest, title: str) -> Json:
    ladder.ladder_join(title=title, user=caller(request))
    return ladder.ladder_document(title)


@router.post(
    "/ladders/{title}/leave",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Leave a ladder",
)
def leave_ladder(request: HttpRequest, title: str) -> Json:
    ladder.ladder_leave(title=title, user=caller(request))
    return ladder.ladder_document(title)


@router.post(
    "/ladders/{title}/challenge",
    auth=signed_in,
    response=Json,
    openapi_extra=errors(409),
    summary="Challenge a player up to three places above",
)
def challenge(request: HttpRequest, title: str, payload: ChallengeIn) -> Json:
    made = ladder.ladder_challenge(title=title, user=caller(request), username=payload.username)
    return {**ladder.ladder_document(title), "game": made.game_id}
