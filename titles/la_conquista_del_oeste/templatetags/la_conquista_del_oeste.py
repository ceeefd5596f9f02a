"""Template tags of La Conquista del Oeste's templates: city names, counts by key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from titles.la_conquista_del_oeste import log_words
from titles.la_conquista_del_oeste.engine.data import DATA, ITEMS

register = template.Library()


@register.filter
def lc_city(city: Any) -> str:
    return log_words.city_name(city)


@register.filter
def lc_get(mapping: Any, key: Any) -> Any:
    return mapping.get(key, 0) if isinstance(mapping, Mapping) else 0


@register.simple_tag
def lc_price_rows() -> list[dict[str, Any]]:
    """The price table of the rules page: per item, buy and sale in each zone."""
    return [
        {
            "item": log_words.item_words(item),
            "east_buy": DATA.prices[item]["east"][0],
            "east_sell": DATA.prices[item]["east"][1],
            "west_buy": DATA.prices[item]["west"][0],
            "west_sell": DATA.prices[item]["west"][1],
        }
        for item in ITEMS
    ]


@register.simple_tag
def lc_card_lists() -> dict[str, list[dict[str, str]]]:
    """Every card of both decks, once per distinct title and text, in the reader's
    language."""

    def deck(ids: Any) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for cid in ids:
            card = {"title": log_words.card_title(cid), "text": log_words.card_text(cid)}
            if card not in out:
                out.append(card)
        return out

    return {"opportunity": deck(DATA.opportunity), "incident": deck(DATA.incident)}
