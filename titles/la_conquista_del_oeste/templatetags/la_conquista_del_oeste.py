"""Template tags of La Conquista del Oeste's templates: the map (board_svg), names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.safestring import SafeString

from titles.la_conquista_del_oeste import board_svg, log_words

register = template.Library()


@register.simple_tag
def lc_board(
    view: Mapping[str, Any], names: Sequence[str] = (), legal: Sequence[Mapping[str, Any]] = ()
) -> SafeString:
    return board_svg.render_board(view, names, legal)


@register.filter
def lc_city(city: Any) -> str:
    return log_words.city_name(city)


@register.filter
def lc_item(item: Any) -> str:
    return log_words.item_words(str(item))


@register.filter
def lc_get(mapping: Any, key: Any) -> Any:
    return mapping.get(key, 0) if isinstance(mapping, Mapping) else 0
