"""Claim preview: how each legal placement of a card would change this round's valuation.

Computed on the server with the engine itself: the claim is applied to a copy of the state
(``apply`` never changes the state it is given) and the CC-8 valuation of the current round
is taken before and after, so lake take-overs (CC-7) are exactly the engine's. The answer
holds only public information (scores of a board everyone can see), and only the seat that
may claim the card gets it.
"""

from __future__ import annotations

from typing import Any

from games.engine import get_game
from games.engine.colorado_county.scoring import score_round
from games.models import Game, Seat

ITEMS = ("border", "lakes", "doubles", "area", "total")


def round_scores(state: Any, round_no: int) -> list[dict[str, int]]:
    markers = dict(enumerate(state.markers))
    lake_ids = [lid for lid, _cells in state.lakes]
    full = score_round(markers, list(state.lake_owners), lake_ids, state.layout.border, round_no)
    return [{k: int(full[seat][k]) for k in ITEMS} for seat in range(len(state.markers))]


def claim_previews(*, game: Game, user: Any, card: str) -> list[dict[str, Any]] | None:
    """``[{"flag", "second", "before": [per seat], "after": [per seat]}]`` for ``card``, or
    None when ``user`` may not claim it now."""
    if game.state is None or game.status != Game.Status.RUNNING or game.title != "colorado-county":
        return None
    seat = Seat.objects.filter(game=game, user=user).values_list("seat", flat=True).first()
    if seat is None:
        return None
    engine = get_game(game.title)
    state = engine.load(game.state)
    actions = [
        a for a in engine.legal_actions(state, seat) if a["type"] == "claim" and a["card"] == card
    ]
    if not actions:
        return None
    round_no = max(1, min(4, state.round))
    before = round_scores(state, round_no)
    out = []
    for action in actions:
        after_state, _events = engine.apply(state, seat, action)
        out.append(
            {
                "flag": action["flag"],
                "second": action["second"],
                "before": before,
                "after": round_scores(after_state, round_no),
            }
        )
    return out
