"""``{% reliability_record player %}``: the player's reliability record on their profile
(games.records.reliability)."""

from __future__ import annotations

from typing import Any

from django import template

from games.records.reliability import record_of

register = template.Library()


def _duration(seconds: float | None) -> dict[str, Any] | None:
    if seconds is None:
        return None
    if seconds < 3600:
        return {"minutes": max(1, round(seconds / 60))}
    if seconds < 48 * 3600:
        return {"hours": round(seconds / 3600, 1)}
    return {"days": round(seconds / 86400, 1)}


@register.inclusion_tag("games/_reliability.html")
def reliability_record(player: Any) -> dict[str, Any]:
    record = record_of(player)
    return {"record": record, "wait": _duration(record.median_move_seconds)}
