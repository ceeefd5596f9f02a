"""The replay in Chromium shows, beside each step's board, what happened at that step and
the step's public facts; La Conquista del Oeste's replay shows its map at every step
(issue 15: a replay worth watching)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _finished(user: Any, title: str, seed: int) -> Any:
    from colorado.celery import app as celery_app
    from games.models import Game
    from games.tables import lifecycle
    from tests.play import play_randomly

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        options = {"flags": "random"} if title == "colorado-county" else None
        game = lifecycle.game_create(
            creator=user, title=title, players=2, bots=["random"], options=options
        )
        game = play_randomly(game, [user], seed=seed)
    finally:
        celery_app.conf.task_always_eager = before
    assert game.status == Game.Status.FINISHED
    return game


def test_each_replay_step_shows_its_log_lines_and_facts_for_both_titles(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    alice = player("alice")
    county = _finished(alice, "colorado-county", seed=3)
    west = _finished(alice, "la-conquista-del-oeste", seed=1)

    page = new_page()
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{county.pk}/")
    wait_js(page, "document.getElementById('replay-step').textContent.startsWith('Step')")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    log = page.locator("#replay-log li")
    assert log.count() >= 1
    first_line = log.first.inner_text()
    assert first_line
    facts = page.locator("#replay-facts").inner_text()
    assert "Round 1 of 4" in facts
    assert "Scores: " in facts
    page.keyboard.press("End")
    assert "Scores: " in page.locator("#replay-facts").inner_text()
    assert "<svg" in page.locator("#replay-board").inner_html()

    page.goto(f"{asgi_server}/games/{west.pk}/")
    wait_js(page, "document.getElementById('replay-step').textContent.startsWith('Step')")
    page.wait_for_selector("#replay-board svg.lc-map")
    last = page.locator("#replay-board").inner_html()
    page.keyboard.press("Home")
    wait_js(
        page,
        "html => { const b = document.querySelector('#replay-board svg.lc-map');"
        " return b && document.getElementById('replay-board').innerHTML !== html; }",
        arg=last,
    )
    assert "<dl" not in page.locator("#replay-board").inner_html()  # not the plain list
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay-log li").count() >= 1
    assert "$" in page.locator("#replay-facts").inner_text()
