"""A whole game in Chromium through the page, and live updates between two browsers."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import Tally, play_one, play_until_over, sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE = (390, 844)
DESKTOP = (1280, 800)


def shoot(page: Any, name: str) -> None:
    """Save a desktop and a phone screenshot of the page (only with SCREENSHOT_DIR set)."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"{name}-desktop.png"), full_page=True)
    phone = page.context.browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        storage_state=page.context.storage_state(),
        device_scale_factor=2,
    )
    p = phone.new_page()
    p.goto(page.url)
    p.wait_for_load_state("networkidle")  # the page's own requests (scripts, fonts) done
    p.screenshot(path=str(Path(SHOTS) / f"{name}-phone.png"), full_page=False)
    phone.close()


def rotated(action: dict[str, Any]) -> bool:
    """Whether a claim put its second star under a turned card (not the printed offset)."""
    from titles.colorado_county.engine.data import CARDS

    card = next(c for c in CARDS if c.id == action["card"])
    if card.offset is None or not action.get("second"):
        return False
    cols = "ABCDEFGHIJKLMNO"
    fx, fy = cols.index(action["flag"][0]), int(action["flag"][1:])
    sx, sy = cols.index(action["second"][0]), int(action["second"][1:])
    return (sx - fx, sy - fy) != tuple(card.offset)


def test_a_whole_game_against_the_greedy_bot(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any], tmp_path: Path
) -> None:
    from games.models import Game, Move
    from games.tables import lifecycle

    alice, bob, carol = player("alice"), player("bob"), player("carol")
    # Other tables, so that the lobby has something to show: an open one and a running one.
    lifecycle.game_create(creator=carol, players=3, rated=False)
    other = lifecycle.game_create(creator=bob, players=2, invite=["alice"], open_seats=False)
    lifecycle.game_join(game_id=other.pk, user=alice)
    page = new_page(*DESKTOP)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    # The lobby's form: a 2-player table with one greedy bot.
    page.select_option("#id_players", "2")
    page.fill("#id_bots", "1")
    page.select_option("#id_bot_kind", "greedy")
    page.select_option("#id_clock", "fast")
    page.click("text=Open the table")
    page.wait_for_selector("#board svg")
    game = Game.objects.get(created_by=alice)
    assert page.url.endswith(f"/games/{game.pk}/")
    assert game.status == Game.Status.RUNNING
    assert page.locator("#board [data-cell]").count() == 150
    tally = Tally()
    moves = 0
    shot = False

    def play() -> bool:
        nonlocal moves, shot
        moves += 1
        if SHOTS and not shot and moves >= 30 and page.locator("#claim-form").count():
            # Mid-game picture: a card chosen, its placements lit, the preview shown.
            with page.expect_response(lambda r: "claim_preview" in r.url):
                page.locator("#claim-form .card-choice").last.click()
            shoot(page, "game")
            shot = True
        return play_one(page, tally)

    try:
        # The game must keep moving: no new version on the page for a minute is a stall.
        play_until_over(page, play, stall=60, max_moves=2000)
    except Exception:
        page.screenshot(path=str(tmp_path / "stuck.png"), full_page=True)
        game.refresh_from_db()
        last = list(
            game.moves.order_by("-version").values("version", "seat", "actor", "action")[:3]
        )
        raise AssertionError(
            f"DB {game.status} v{game.version} to_act {game.to_act} last {last}; "
            f"stuck after {tally.actions[-8:]} {page.evaluate('GameTable.debug()')};"
            f" see {tmp_path / 'stuck.png'}"
        ) from None
    # Final scores on the page match the database.
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    text = page.locator(".final-scores").inner_text()
    for seat in game.seats.select_related("user"):
        assert f"{seat.user.shown_name} — {game.result['scores'][seat.seat]} points" in text
    assert page.locator("#after-game").count() == 1
    assert tally.bids >= 4
    assert tally.claims >= 4
    assert tally.sales == 1
    mine = game.seats.get(user=alice).seat
    claims = [
        m.action
        for m in Move.objects.filter(game=game, seat=mine, actor="player")
        if m.action["type"] == "claim"
    ]
    assert any(rotated(a) for a in claims), "at least one claim used a turned card"
    assert Move.objects.filter(game=game, seat=mine, action__type="sell").count() == 1
    page.wait_for_selector("#replay-step >> text=/Step/")  # the replay under the scores
    shoot(page, "final")
    page.goto(asgi_server + "/")
    shoot(page, "lobby")


def test_a_move_appears_on_the_other_players_page_without_reload(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Game
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game = Game.objects.get(pk=game.pk)
    pages = {}
    for user in (alice, bob):
        page = new_page(*DESKTOP)
        sign_in(page, asgi_server, user.username, f"pw-{user.username}-2026")
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector(".live-status.on")
        page.evaluate("window.__notReloaded = true")
        pages[user.username] = page
    first = game.seats.get(seat=game.to_act[0]).user.username
    other = "bob" if first == "alice" else "alice"
    mover, watcher = pages[first], pages[other]
    assert mover.title().startswith("Your turn")
    assert not watcher.title().startswith("Your turn")
    # The mover places a flag by clicking a lit cell (keyboard: Tab to it, press Enter).
    cell = mover.locator("#board .cell.target").first
    name = cell.get_attribute("data-cell")
    cell.focus()
    mover.once("dialog", lambda d: d.accept())  # "Place your flag on …?"
    mover.keyboard.press("Enter")
    watcher.wait_for_selector(f'#board [data-cell="{name}"] .flag')
    assert watcher.evaluate("window.__notReloaded") is True
    assert watcher.locator(f'#board [data-cell="{name}"].changed').count() == 1
    wait_js(watcher, "document.title.startsWith('Your turn')")
    watcher.wait_for_selector(".log-list li.fresh")  # the new log line is highlighted
    # Chat travels the same way.
    watcher.fill("#chat-text", "Nice spot")
    watcher.click(".chat-form button")
    mover.wait_for_selector("#chat-list >> text=Nice spot")
    assert mover.evaluate("window.__notReloaded") is True


def test_the_board_script_draws_what_the_server_draws(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """board.js and titles/colorado_county/board_svg.py give the same markup for the same views."""
    from games.engine import get_rules
    from games.tables import lifecycle
    from titles.colorado_county.board_svg import board_strings, render_board

    alice = player("alice")
    game = lifecycle.game_create(creator=alice, players=2, bots=["random"])
    page = new_page(*DESKTOP)
    page.goto(f"{asgi_server}/games/{game.pk}/")
    engine = get_rules("colorado-county")
    state = engine.setup(4, "parity", {"lakes": "random"})
    import random

    rng = random.Random(5)  # noqa: S311
    names = ["Joe <b>", "Daisy & co", 'Nelly "N"', "Bill's"]
    for step in range(120):
        seat = sorted(engine.to_act(state))[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        if step % 20 == 0:
            view = engine.view(state, None)
            script = page.evaluate(
                "([v, n, t]) => CCBoard.render(v, n, t)", [view, names, board_strings()]
            )
            assert script == str(render_board(view, names))
