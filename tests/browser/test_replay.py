"""The replay panel of a finished game in Chromium: the arrow keys, Home and End step through
the game, the step label follows and the board is redrawn by board.js's renderer."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def drawn(board: Any) -> str:
    """The board's markup without the "changed" highlight of the last step."""
    return str(board.inner_html()).replace(" changed", "")


def test_step_through_a_finished_game_with_the_keyboard(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from colorado.celery import app as celery_app
    from games.models import Game
    from games.tables import lifecycle
    from tests.play import play_randomly

    alice = player("alice")
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        game = lifecycle.game_create(
            creator=alice, players=2, bots=["random"], options={"flags": "random"}
        )
        game = play_randomly(game, [alice], seed=3)
    finally:
        celery_app.conf.task_always_eager = before
    assert game.status == Game.Status.FINISHED
    moves = game.version - 1

    page = new_page()
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    label = page.locator("#replay-step")
    board = page.locator("#replay-board")
    assert label.get_attribute("aria-live") == "polite"
    wait_js(page, "() => document.getElementById('replay-step').textContent.startsWith('Step')")
    assert label.inner_text() == f"Step {moves} of {moves}"
    final_board = drawn(board)
    assert "<svg" in final_board
    assert "data-cell" in final_board
    # The last step is the finished board the page shows (drawn by the same renderer).
    assert final_board == drawn(page.locator("#board"))

    page.keyboard.press("Home")
    assert label.inner_text() == f"Step 0 of {moves}"
    start_board = drawn(board)
    assert start_board != final_board
    assert page.locator("#replay-move").inner_text() == "Start"

    page.keyboard.press("ArrowLeft")  # already at the start: stays
    assert label.inner_text() == f"Step 0 of {moves}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert label.inner_text() == f"Step 2 of {moves}"
    assert re.search(r": \w+", page.locator("#replay-move").inner_text())
    page.keyboard.press("ArrowLeft")
    assert label.inner_text() == f"Step 1 of {moves}"

    page.keyboard.press("End")
    assert label.inner_text() == f"Step {moves} of {moves}"
    assert drawn(board) == final_board
    page.get_by_role("button", name="First").click()
    assert label.inner_text() == f"Step 0 of {moves}"
    assert drawn(board) == start_board
    page.get_by_role("button", name="Forward").click()
    assert label.inner_text() == f"Step 1 of {moves}"
    if os.environ.get("SCREENSHOT_DIR"):
        page.locator("#after-game").screenshot(path=f"{os.environ['SCREENSHOT_DIR']}/replay.png")
