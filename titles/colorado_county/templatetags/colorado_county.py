"""Template tags of Colorado County's templates: the board, land cards (board_svg)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from titles.colorado_county import board_svg
from titles.colorado_county.log_words import card_words

register = template.Library()


@register.simple_tag
def board(view: Mapping[str, Any], names: Sequence[str] = ()) -> SafeString:
    return board_svg.render_board(view, names)


@register.simple_tag
def card(card: Mapping[str, Any]) -> SafeString:
    return board_svg.render_card(card)


@register.filter
def card_name(card: Mapping[str, Any] | str) -> str:
    return card_words(card)
