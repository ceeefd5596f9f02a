"""Template tags for the game page: the board, land cards and player tokens (board_svg)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from games import board_svg
from games.log_words import card_words

register = template.Library()


@register.simple_tag
def board(view: Mapping[str, Any], names: Sequence[str] = ()) -> SafeString:
    return board_svg.render_board(view, names)


@register.simple_tag
def card(card: Mapping[str, Any]) -> SafeString:
    return board_svg.render_card(card)


@register.simple_tag
def token(seat: int, size: int = 18) -> SafeString:
    return board_svg.token_svg(int(seat), size)


@register.filter
def card_name(card: Mapping[str, Any] | str) -> str:
    return card_words(card)


@register.filter
def seat_name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    if isinstance(mapping, Mapping):
        return mapping.get(key, mapping.get(str(key)))
    if isinstance(mapping, Sequence) and isinstance(key, int) and 0 <= key < len(mapping):
        return mapping[key]
    return None
