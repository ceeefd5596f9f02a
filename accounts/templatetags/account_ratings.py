"""Template tags for rating information on other apps' pages."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import RatingChange

register = template.Library()


@register.simple_tag
def game_rating_changes(game: Any) -> list[RatingChange]:
    """The rating changes a finished game caused, best rank first (empty if unrated)."""
    return list(
        RatingChange.objects.filter(game_obj=game).select_related("user").order_by("rank", "id")
    )
