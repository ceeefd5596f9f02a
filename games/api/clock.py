"""Clock endpoints of the JSON API: resigning and voting to replace a player who keeps
missing deadlines. Thin: the work is in ``games.clocks.seats``; its ``GameError``s answer as
on every surface (``colorado.api.on_game_error``)."""

from __future__ import annotations

from typing import Any

from ninja import Router, Schema

from accounts.http import AuthenticatedHttpRequest
from games.clocks.seats import replace_vote_cast, seat_resign

router = Router(tags=["clocks"])


class ReplaceVoteIn(Schema):
    seat: int


class ReplaceVoteOut(Schema):
    seat: int
    votes: int
    needed: int
    replaced: bool


class ResignOut(Schema):
    seat: int
    resigned: bool


@router.post("/games/{game_id}/replace_vote", response=ReplaceVoteOut)
def replace_vote(
    request: AuthenticatedHttpRequest, game_id: int, payload: ReplaceVoteIn
) -> dict[str, Any]:
    """Vote to hand a seat whose player missed two deadlines to the bot. A strict majority of
    the other players replaces them. Voting again changes nothing."""
    count = replace_vote_cast(game_id=game_id, voter=request.user, seat=payload.seat)
    return {
        "seat": payload.seat,
        "votes": count.votes,
        "needed": count.needed,
        "replaced": count.replaced,
    }


@router.post("/games/{game_id}/resign", response=ResignOut)
def resign(request: AuthenticatedHttpRequest, game_id: int) -> dict[str, Any]:
    """Give up: the bot plays your seat to the end; you are ranked last."""
    seat = seat_resign(game_id=game_id, user=request.user)
    return {"seat": seat.seat, "resigned": seat.resigned}
