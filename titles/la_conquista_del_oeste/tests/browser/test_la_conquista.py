"""La Conquista del Oeste in the browser: a person opens a table against the greedy bot from
the lobby and plays it to the end on the page, by keyboard-reachable buttons (the lit
destinations on the map, the action panel's forms)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.driver import act_version, play_until_over, sign_in, wait_for_change
from tests.browser.test_play import DESKTOP, shoot

pytestmark = [pytest.mark.browser, pytest.mark.postgres]
SHOTS = os.environ.get("SCREENSHOT_DIR")


def _play_one(page: Any) -> bool:
    """Press one of the page's move buttons if it is my turn; whether a move was made."""
    if (
        page.locator("#act-panel .your-turn").count() == 0
        and page.locator("#act-panel form.prompt").count() == 0
    ):
        return False
    before = act_version(page)
    targets = page.locator("#board .dest-button:visible")
    buttons = page.locator("#act-panel form button[type=submit]:visible")
    if targets.count():
        targets.first.focus()
        page.keyboard.press("Enter")
    elif buttons.count():
        buttons.first.click()
    else:
        return False
    wait_for_change(page, before)
    return True


def test_a_whole_game_of_la_conquista_in_the_browser(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any], tmp_path: Path
) -> None:
    from games.models import Game

    player("alice")
    page = new_page(*DESKTOP)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/?title=la-conquista-del-oeste")
    page.select_option("#id_players", "2")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot_kind", "greedy")
    page.select_option("#id_clock", "fast")
    page.click("text=Open the table")
    page.wait_for_selector("#board svg")
    game = Game.objects.get(created_by__username="alice", title="la-conquista-del-oeste")
    assert game.status == Game.Status.RUNNING
    moves, shot = 0, False

    def play() -> bool:
        nonlocal moves, shot
        moves += 1
        if not shot and moves >= 4:
            shoot(page, "la-conquista")
            shot = True
        return _play_one(page)

    try:
        play_until_over(page, play, stall=60, max_moves=1500)
    except Exception:
        page.screenshot(path=str(tmp_path / "stuck.png"), full_page=True)
        game.refresh_from_db()
        raise AssertionError(
            f"DB {game.status} v{game.version} to_act {game.to_act}; see {tmp_path}/stuck.png"
        ) from None
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert page.locator(".final-scores li").count() == 2
