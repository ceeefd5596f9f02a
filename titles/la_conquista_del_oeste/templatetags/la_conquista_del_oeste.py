"""Template tags of La Conquista del Oeste's templates: city names, counts by key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from titles.la_conquista_del_oeste import log_words

register = template.Library()


@register.filter
def lc_city(city: Any) -> str:
    return log_words.city_name(city)


@register.filter
def lc_get(mapping: Any, key: Any) -> Any:
    return mapping.get(key, 0) if isinstance(mapping, Mapping) else 0
