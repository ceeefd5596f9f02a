"""Colorado in the browser: a person opens a table against the greedy bot from the lobby
and plays it to the end on the page: the start town and the answers by buttons, the call
by its two choices, the legs by the lit buttons of the road map (keyboard: focus and
Enter), the rest by the action panel's buttons."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.driver import (
    act_version,
    play_until_over,
    sideways_spill,
    sign_in,
    wait_for_change,
)
from tests.browser.test_play import DESKTOP, shoot
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.postgres]
SHOTS = os.environ.get("SCREENSHOT_DIR")


def _play_one(page: Any) -> str:
    """Make one move if it is my turn; which control made it ("" if none)."""
    if page.locator("#act-panel .your-turn").count() == 0:
        return ""
    before = act_version(page)
    call = page.locator("#act-panel form.co-call button[type=submit]")
    lit = page.locator("#board .co-hit")
    buttons = page.locator("#act-panel form.prompt button[type=submit]:visible")
    if call.count():
        page.locator("#act-panel input[name=call_card]").nth(4).check()
        call.first.click()
        made = "call"
    elif lit.count():
        lit.first.focus()
        page.keyboard.press("Enter")
        made = "map"
    elif buttons.count():
        buttons.first.click()
        made = "button"
    else:
        return ""
    wait_for_change(page, before)
    return made


def test_a_whole_game_of_colorado_in_the_browser(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any], tmp_path: Path
) -> None:
    from games.models import Game

    player("alice")
    page = new_page(*DESKTOP)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/?title=colorado-2023")
    page.select_option("#id_players", "2")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot_kind", "greedy")
    page.select_option("#id_clock", "fast")
    page.click("text=Open the table")
    page.wait_for_selector("#board svg.co-sheet")
    game = Game.objects.get(created_by__username="alice", title="colorado-2023")
    assert game.status == Game.Status.RUNNING
    made: set[str] = set()
    shot = False

    def play() -> bool:
        nonlocal shot
        if not shot and "map" in made and page.locator("#board .co-hit").count():
            shoot(page, "colorado-2023")
            shot = True
        how = _play_one(page)
        if how:
            made.add(how)
        return bool(how)

    try:
        play_until_over(page, play, max_moves=3000)
    except AssertionError:
        page.screenshot(path=str(tmp_path / "stuck.png"), full_page=True)
        game.refresh_from_db()
        raise AssertionError(
            f"DB {game.status} v{game.version} to_act {game.to_act}; see {tmp_path}/stuck.png"
        ) from None
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {"call", "map", "button"} <= made
    assert page.locator(".final-scores li").count() == 2


SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def _advance(game_id: int, user: Any, moves_wanted: int) -> None:
    """Play ``moves_wanted`` of the user's moves as the greedy bot would (the bot seat
    answers at once: tasks run eagerly), polling with a deadline otherwise."""
    import random

    from games import moves
    from games.engine import get_rules
    from games.engine.bots import choose_action, get_bot
    from games.models import Game

    rules, greedy = get_rules("colorado-2023"), get_bot("colorado-2023", "greedy")
    rng = random.Random(7)  # noqa: S311
    for _ in range(moves_wanted):

        def my_turn() -> Game | None:
            game = Game.objects.get(pk=game_id)
            return game if game.seats.get(user=user).seat in game.to_act else None

        game = wait_until(my_turn, timeout=60, message="the bot did not move")
        seat = game.seats.get(user=user).seat
        action = choose_action(greedy, rules, rules.load(game.state), seat, rng)
        moves.action_submit(game_id=game_id, user=user, action=action, version=game.version)


@pytest.mark.usefixtures("eager_tasks")
@pytest.mark.parametrize("language", ["en", "fr", "de", "es", "ja"])
def test_the_colorado_page_reads_well_in_each_language(
    language: str, asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """Mid-game, in each language, at desktop and phone width: nothing spills sideways on
    a phone and no button's label is cut. With SCREENSHOT_DIR set, each is saved."""
    from games.tables import lifecycle

    user = player(f"co{language}")
    user.language = language
    user.save(update_fields=["language"])
    game = lifecycle.game_create(creator=user, title="colorado-2023", players=2, bots=["medium"])
    _advance(game.pk, user, 6)
    for size, (width, height) in SIZES.items():
        page = new_page(width, height)
        sign_in(page, asgi_server, user.username, f"pw-co{language}-2026")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector("#board svg.co-sheet")
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            name = f"colorado-2023-{language}-{size}.png"
            page.screenshot(path=str(Path(SHOTS) / name), full_page=False)
        assert page.get_attribute("html", "lang") == language
        overflow, wide = sideways_spill(page)
        assert overflow <= 1, f"{language} {size}: the page is {overflow}px too wide: {wide}"
        cut = page.evaluate(
            """() => [...document.querySelectorAll('button, .button')]
                .filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
                .map(b => b.textContent.trim())"""
        )
        assert cut == [], f"{language} {size}: labels cut: {cut}"
