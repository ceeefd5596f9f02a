"""A title's ladder page in Chromium: join, see who is in reach, challenge and land on the
challenge's table. With SCREENSHOT_DIR set, the page is saved at desktop and phone
widths."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def test_a_player_joins_the_ladder_and_challenges_within_reach(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from tournaments.ladder import ladder_join

    for name in ("ada", "bea", "cy", "dee"):
        ladder_join(title="colorado-county", user=player(name))
    player("eve")
    page = new_page()
    sign_in(page, asgi_server, "eve", "pw-eve-2026")
    page.goto(f"{asgi_server}/tournaments/")
    page.click("a[href='/tournaments/ladder/colorado-county/']")
    page.click("button:has-text('Join the ladder')")
    rows = page.locator("table.ladder tbody tr")
    assert rows.count() == 5
    # eve (5th) may challenge bea, cy and dee (2nd to 4th), not ada.
    assert page.locator("table.ladder button:has-text('Challenge')").count() == 3
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/ladder-desktop.png", full_page=True)
    phone = new_page(390, 844)
    phone.goto(f"{asgi_server}/tournaments/ladder/colorado-county/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a phone"
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/ladder-phone.png", full_page=True)
    page.locator("table.ladder tr", has_text="dee").locator("button").click()
    page.wait_for_url(f"{asgi_server}/games/*/")
    assert "Table" in page.locator("h1").inner_text()
