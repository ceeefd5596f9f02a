"""A tournament's page in Chromium at desktop and phone widths: its standings with the
tie-breaks and its rounds' tables; entering from the page. With SCREENSHOT_DIR set, the
page is saved (the README's pictures)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """The bots' tables play out in the test's own process."""


def test_a_swiss_tournament_page_shows_standings_and_rounds(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from tournaments import services
    from tournaments.models import Tournament

    people = [player(name) for name in ("ada", "bea", "cy", "dee", "eve")]
    t = services.tournament_create(
        creator=people[0],
        data={
            "title": "colorado-county",
            "format": "swiss",
            "rounds": 3,
            "name": "Autumn Swiss",
            "seats": 2,
            "min_entrants": 6,
            "max_entrants": 6,
            "bots_allowed": True,
            "rated": False,
        },
    )
    for user in people[:4]:
        services.tournament_join(tournament_id=t.pk, user=user)
    services.tournament_add_bot(tournament_id=t.pk, user=people[0], level="easy")

    page = new_page()
    sign_in(page, asgi_server, "eve", "pw-eve-2026")
    page.goto(f"{asgi_server}/tournaments/")
    page.click("text=Autumn Swiss")
    assert "5 entered" in page.locator("main").inner_text()
    page.click("button:has-text('Enter')")  # the sixth entrant: the tournament starts
    page.wait_for_selector("table.standings")
    assert Tournament.objects.get(pk=t.pk).status == "running"
    # ada and bea play their table out; the standings show it on the next refresh.
    from games.models import Game
    from tests.play import play_randomly

    game = Game.objects.filter(seats__user=people[0], status="running").get()
    assert play_randomly(game, people[:2], seed=4).status == "finished"
    page.reload()
    text = page.locator("main").inner_text()
    assert "round 1 of 3" in text
    assert "Buchholz" in text
    assert page.locator(".round a").count() == 3
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/tournament-desktop.png", full_page=True)
    phone = new_page(390, 844)
    phone.goto(f"{asgi_server}/tournaments/{t.pk}/")
    assert phone.locator("table.standings tbody tr").count() == 6
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a phone"
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/tournament-phone.png", full_page=True)
