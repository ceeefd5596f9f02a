"""Colorado County's board on a phone (issue 43), in Chromium with touch emulation at
390 px: the whole board fits at first, a tap (or a pinch, or a button) zooms until cells are
a finger wide, then a tap plays; the page never scrolls sideways and the move's controls
are reachable with the board in view. On a desktop the keyboard zooms too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.driver import act_version, sign_in, wait_js
from titles.colorado_county.tests.browser.test_table_screens import save
from titles.colorado_county.tests.web.tables import human_table

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


CELL = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return Math.min(r.width, r.height); }"""
FITS = """() => { const b = document.getElementById('board').getBoundingClientRect();
  const s = document.querySelector('#board svg').getBoundingClientRect();
  return s.left >= b.left - 1 && s.right <= b.right + 1 && s.top >= b.top - 1
    && s.bottom <= b.bottom + 1; }"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
IN_FRAME = """sel => { const b = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll(sel)].findIndex(e => {
    const r = e.getBoundingClientRect();
    return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;
  }); }"""


def phone_page(new_page: Callable[..., Any], base: str, user: Any) -> Any:
    page = new_page(390, 844, has_touch=True, is_mobile=True, device_scale_factor=2)
    sign_in(page, base, user.username, f"pw-{user.username}-2026")
    return page


def pinch(page: Any, x: float, y: float, start: float, end: float) -> None:
    """Two fingers at (x ± start, y) moving apart to (x ± end, y), through the browser's
    touch input (what a phone sends)."""
    cdp = page.context.new_cdp_session(page)

    def points(d: float) -> list[dict[str, float]]:
        return [{"x": x - d, "y": y, "id": 1}, {"x": x + d, "y": y, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for i in range(1, 9):
        d = start + (end - start) * i / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(d)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_the_board_fits_a_phone_then_zooms_to_a_finger_and_a_tap_plays(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.selectors import documents

    alice, bob = player("alice"), player("bob")
    game = human_table([alice, bob])
    due = next(
        u
        for u in (alice, bob)
        if documents.game_document(game=game, user=u)["my_seat"] in game.to_act
    )
    page = phone_page(new_page, asgi_server, due)
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.wait_for_selector("#board .cell.target")
    wait_js(page, "window.BoardZoom")
    # At first: the whole board in view, nothing sideways, cells smaller than a finger.
    assert page.evaluate(FITS)
    assert page.evaluate(SIDEWAYS) <= 0
    assert page.evaluate(CELL, "#board [data-cell]") < 40
    save(page, "phone-board-fitted", full=False)
    # The move's controls and the board are on screen together (the board stays on top).
    page.locator("#act-panel").scroll_into_view_if_needed()
    box = page.locator("#board").bounding_box()
    assert box is not None
    assert box["y"] >= -1
    assert box["y"] + box["height"] <= 844
    page.evaluate("window.scrollTo(0, 0)")
    # A tap on a lit cell zooms in there: no move yet, cells a finger wide.
    version = act_version(page)
    page.locator("#board .cell.target").first.tap()
    wait_js(page, "window.BoardZoom.zoom() > 1")
    assert page.evaluate(CELL, "#board [data-cell]") >= 40
    assert act_version(page) == version
    save(page, "phone-board-zoomed", full=False)
    assert page.evaluate(SIDEWAYS) <= 0, "zoomed, the board pans inside its frame"
    # The button shows the whole board again; a pinch zooms in.
    page.click(".zoom-bar [data-zoom=fit]")
    wait_js(page, "window.BoardZoom.zoom() === 1")
    box = page.locator("#board").bounding_box()
    assert box is not None
    pinch(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 30, 110)
    wait_js(page, "window.BoardZoom.zoom() > 2")
    page.click(".zoom-bar [data-zoom=fit]")
    page.click(".zoom-bar [data-zoom=in]")
    page.click(".zoom-bar [data-zoom=in]")
    wait_js(page, "window.BoardZoom.zoom() >= 2")
    assert page.evaluate(CELL, "#board [data-cell]") >= 40
    # Zoomed: a tap on a lit cell in view plays it.
    index = wait_js(page, f"() => ({IN_FRAME})('#board .cell.target') + 1") - 1
    page.once("dialog", lambda d: d.accept())  # "Place your flag on …?"
    page.locator("#board .cell.target").nth(index).tap()
    wait_js(page, "v => document.querySelector('.act').dataset.version !== v", arg=version)
    game.refresh_from_db()
    assert game.moves.filter(actor="player").count() == 1
    assert page.evaluate(SIDEWAYS) <= 0


def test_the_keyboard_zooms_the_board_on_a_desktop(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    alice, bob = player("alice"), player("bob")
    game = human_table([alice, bob])
    page = new_page(1280, 800)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    wait_js(page, "window.BoardZoom")
    assert page.evaluate(FITS)
    assert page.evaluate(CELL, "#board [data-cell]") >= 40, "a desktop plays at the fitted size"
    page.focus(".zoom-bar [data-zoom=in]")
    page.keyboard.press("Enter")
    wait_js(page, "window.BoardZoom.zoom() > 1")
    page.locator("#board [data-cell]").first.focus()
    page.keyboard.press("0")
    wait_js(page, "window.BoardZoom.zoom() === 1")
    page.keyboard.press("+")
    wait_js(page, "window.BoardZoom.zoom() > 1")
    assert page.evaluate(SIDEWAYS) <= 0
