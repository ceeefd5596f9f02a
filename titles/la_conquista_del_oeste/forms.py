"""The move forms of La Conquista del Oeste's page: plain fields per action type, read
into an engine action (``action_from_post``). Only the shape is checked here; whether the
move is legal is the engine's business."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from .engine.data import ITEMS

#: Action types whose only field is their type.
BARE = frozenset({"work", "rob", "rail", "surrender", "roll", "end_turn"})
ID = re.compile(r"^[a-z0-9_-]{1,40}$")
MAX_MONEY = 1_000_000


def bad() -> forms.ValidationError:
    return forms.ValidationError(_("That move was not understood."))


def _text(data: Any, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not ID.match(value):
        raise bad()
    return value


def _int(data: Any, key: str, lo: int = 0, hi: int = MAX_MONEY, default: int | None = None) -> int:
    value = data.get(key)
    if value in (None, "") and default is not None:
        return default
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise bad() from None
    if not lo <= number <= hi:
        raise bad()
    return number


def _bundle(data: Any, side: str, cards: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    money = _int(data, f"{side}_money", default=0)
    if money:
        out["money"] = money
    items = {}
    for item in ITEMS:
        n = _int(data, f"{side}_{item}", hi=20, default=0)
        if n:
            items[item] = n
    if items:
        out["items"] = items
    if cards:
        picked = data.getlist(f"{side}_cards") if hasattr(data, "getlist") else []
        if any(not isinstance(c, str) or not ID.match(c) for c in picked):
            raise bad()
        if picked:
            out["cards"] = sorted(set(picked))
    return out


def action_from_fields(data: Any) -> dict[str, Any]:
    """The engine action named by the ``kind`` field and its own fields."""
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise bad()
    if kind in BARE:
        return {"type": kind}
    if kind in ("buy", "sell"):
        item = _text(data, "item")
        if item not in ITEMS:
            raise bad()
        return {"type": kind, "item": item}
    if kind == "poker":
        return {"type": "poker", "bet": _int(data, "bet", lo=1, hi=100_000)}
    if kind in ("play", "discard"):
        return {"type": kind, "card": _text(data, "card")}
    if kind == "move":
        return {"type": "move", "to": _text(data, "to")}
    if kind == "poker_answer":
        join = data.get("join")
        if join not in ("yes", "no"):
            raise bad()
        return {"type": "poker_answer", "join": join == "yes"}
    if kind in ("accept", "refuse", "withdraw"):
        return {"type": kind, "offer": _int(data, "offer", lo=1)}
    if kind == "duel":
        duel = data.get("duel")
        target = _int(data, "target", hi=5)
        if duel == "capture":
            return {"type": "duel", "kind": "capture", "target": target}
        item = _text(data, "item")
        if duel != "steal" or item not in ITEMS:
            raise bad()
        return {"type": "duel", "kind": "steal", "target": target, "item": item}
    if kind == "offer":
        return {
            "type": "offer",
            "to": _int(data, "to", hi=5),
            "give": _bundle(data, "give", cards=True),
            "take": _bundle(data, "take", cards=False),
        }
    raise bad()
