"""Read-only extras behind ``RULES.query`` (never change the state they are given).

``claim_preview`` with ``{"card": <card id>}``: for each legal claim of that face-up card
by the asking seat, this round's CC-8 valuation of every seat before and after the claim
(the claim is applied to a copy, so lake take-overs under CC-7 are exactly the engine's).
The answer is computed from the board alone, which every seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from games.engine import IllegalAction

from . import actions, views
from .scoring import score_round
from .state import State

ITEMS: Final = ("border", "lakes", "doubles", "area", "total")


def round_scores(s: State, round_no: int) -> list[dict[str, int]]:
    """Round ``round_no``'s valuation of the board in ``s``, per seat (ITEMS only)."""
    lake_ids = [lid for lid, _cells in s.lakes]
    full = score_round(
        dict(enumerate(s.markers)), list(s.lake_owners), lake_ids, s.layout.border, round_no
    )
    return [{k: int(full[seat][k]) for k in ITEMS} for seat in range(s.n)]


def claim_preview(s: State, seat: int, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``[{"flag", "second", "before": [per seat], "after": [per seat]}]`` for the card in
    ``args["card"]``; ``IllegalAction("not_your_claim")`` if ``seat`` cannot claim it now."""
    if not isinstance(args, Mapping) or set(args) != {"card"} or not isinstance(args["card"], str):
        raise IllegalAction("bad_query", 'claim_preview takes {"card": <card id>}.')
    card = args["card"]
    claims = [a for a in views.legal_actions(s, seat) if a["type"] == "claim" and a["card"] == card]
    if not claims:
        raise IllegalAction("not_your_claim", "You cannot claim that card now.")
    round_no = max(1, min(4, s.round))
    before = round_scores(s, round_no)
    out = []
    for claim in claims:
        after, _events = actions.apply_action(s, seat, claim)
        out.append(
            {
                "flag": claim["flag"],
                "second": claim["second"],
                "before": [dict(item) for item in before],
                "after": round_scores(after, round_no),
            }
        )
    return out


QUERIES: Final = {"claim_preview": claim_preview}


def query(s: State, seat: Any, name: Any, args: Any) -> Any:
    """The named query's answer; the arguments come from a client as they are (typed
    ``Any``: the compiled engine checks declared types at the call)."""
    handler = QUERIES.get(name) if isinstance(name, str) else None
    if handler is None:
        raise IllegalAction(
            "unknown_query", f"Unknown query; known queries: {', '.join(sorted(QUERIES))}."
        )
    if type(seat) is not int or not 0 <= seat < s.n:
        raise IllegalAction("not_a_player", "Only a seated player may ask this.")
    return handler(s, seat, args)
