"""The Bots page (``/bots/``): each title's bot levels, who plays them, their rating and how
they play (``games.bots.players.level_rows``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import ngettext

from games.bots.players import level_rows
from games.titles import web_titles


def bots_page(request: HttpRequest) -> HttpResponse:
    titles = [
        {
            "web": web,
            "rows": [
                {"row": row, "plays": web.bot_label(row.level.kind), "thinks": _thinks(row.seconds)}
                for row in level_rows(web.slug)
            ],
        }
        for web in web_titles()
    ]
    return render(request, "games/bots.html", {"titles": titles})


def _thinks(seconds: float | None) -> str:
    if seconds is None:
        return ""
    shown = number_format(int(seconds) if seconds == int(seconds) else round(seconds, 2))
    return ngettext(
        "It thinks for about %(seconds)s second a move.",
        "It thinks for about %(seconds)s seconds a move.",
        1 if seconds == 1 else 2,
    ) % {"seconds": shown}
