"""The lobby, a waiting table and the header's inbox count follow the site live in
Chromium: tables appear, fill and disappear without a reload; the creator of a waiting
table sees the join and lands on the board; the count of games waiting changes on its own
(issue 15: bug 5, the live lobby, the inbox)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def open_table(page: Any, base: str, *, players: int, invite: str = "") -> int:
    """Open a table through the new-table form (no bots); return its id."""
    page.goto(f"{base}/games/new/")
    page.select_option("#id_players", str(players))
    page.fill("#id_bots", "0")
    if invite:
        page.fill("#id_invite", invite)
        page.uncheck("#id_open_seats")
    page.click("form.form-grid button[type=submit]")
    page.wait_for_url(f"{base}/games/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def _live(page: Any) -> None:
    wait_js(page, "document.getElementById('inbox-link').dataset.live === '1'")


def test_lobby_waiting_table_and_inbox_count_update_without_reload(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Game
    from games.selectors.inbox import inbox_count
    from games.tables import lifecycle

    alice = player("alice")
    player("bob")
    player("carol")
    table = lifecycle.game_create(creator=alice, players=2, clock="fast", rated=False)

    creator = new_page()
    sign_in(creator, asgi_server, "alice", "pw-alice-2026")
    creator.goto(f"{asgi_server}/games/{table.pk}/")
    # Seated, not watching (the seat number is drawn only at the start).
    meta = creator.locator("#game-meta")
    assert "You have a seat at this table" in meta.inner_text()
    assert "You are watching" not in meta.inner_text()
    wait_js(creator, "document.getElementById('waiting-table').dataset.live === '1'")
    _live(creator)
    assert creator.locator("#inbox-count").inner_text() == "0"

    visitor = new_page()
    sign_in(visitor, asgi_server, "bob", "pw-bob-2026")
    _live(visitor)
    # Every clock choice of the lobby's form shows whole (bug 11: it was cut off).
    cut = visitor.eval_on_selector(
        "#id_clock",
        """sel => { const c = document.createElement('canvas').getContext('2d');
          const st = getComputedStyle(sel); c.font = st.font;
          const pad = parseFloat(st.paddingLeft) + parseFloat(st.paddingRight);
          const room = sel.clientWidth - pad - 16;
          return Array.from(sel.options).filter(o => c.measureText(o.text).width > room)
            .map(o => o.text); }""",
    )
    assert cut == []
    entry = visitor.locator(f"#open-tables [data-table='{table.pk}']")
    assert entry.count() == 1
    # Before joining: its clock, its rules at a deadline, rated or not, who is seated.
    text = entry.inner_text()
    assert "Clock: 1 day, +4 hours a move, at most 3 days" in text
    assert "unrated" in text
    assert "Seated: alice" in text

    # A table opened elsewhere appears in bob's lobby without a reload.
    watcher = new_page()
    sign_in(watcher, asgi_server, "carol", "pw-carol-2026")
    other = open_table(watcher, asgi_server, players=3)
    visitor.wait_for_selector(f"#open-tables [data-table='{other}']")
    assert "Seated: carol" in visitor.locator(f"[data-table='{other}']").inner_text()

    # bob joins alice's table: her page shows the board by itself, and the table leaves
    # carol's lobby (she has the page open) without a reload.
    watcher.goto(f"{asgi_server}/")
    _live(watcher)
    assert watcher.locator(f"#open-tables [data-table='{table.pk}']").count() == 1
    entry.get_by_role("button", name="Join").click()
    creator.wait_for_selector("#board", timeout=15000)
    assert "You play as alice" in creator.locator("#game-meta").inner_text()
    watcher.wait_for_selector(f"#open-tables [data-table='{table.pk}']", state="detached")

    # The header's count follows whose turn it is, on every page, without a reload.
    table.refresh_from_db()
    assert table.status == Game.Status.RUNNING
    _live(creator)
    expected = str(inbox_count(user=alice))
    wait_js(creator, "n => document.getElementById('inbox-count').textContent === n", arg=expected)
    assert (
        creator.locator("#inbox-link")
        .inner_text()
        .endswith("game waiting for you" if expected == "1" else "games waiting for you")
    )
    watcher.goto(f"{asgi_server}/games/inbox/")
    _live(watcher)
    # carol is invited to a rematch-like table by bob: her count goes up by itself.
    before = watcher.locator("#inbox-count").inner_text()
    invited = open_table(visitor, asgi_server, players=2, invite="carol")
    wait_js(
        watcher,
        "n => document.getElementById('inbox-count').textContent === n",
        arg=str(int(before) + 1),
    )
    watcher.reload()
    row = watcher.locator(f".inbox-list [data-game='{invited}']")
    assert "invited by bob" in row.inner_text()
    if SHOTS:
        from accounts.models import User

        carol = User.objects.get(username="carol")
        for clock in ("fast", "normal"):  # two games due for carol, for the picture
            due = lifecycle.game_create(creator=carol, players=2, clock=clock)
            lifecycle.game_join(game_id=due.pk, user=User.objects.get(username="bob"))
        watcher.reload()
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        visitor.goto(f"{asgi_server}/")
        visitor.screenshot(path=f"{SHOTS}/lobby-desktop.png", full_page=True)
        watcher.screenshot(path=f"{SHOTS}/inbox-desktop.png", full_page=True)
        phone = watcher.context.browser.new_context(
            viewport={"width": 390, "height": 844},
            storage_state=watcher.context.storage_state(),
            device_scale_factor=2,
        )
        p = phone.new_page()
        p.goto(f"{asgi_server}/games/inbox/")
        p.screenshot(path=f"{SHOTS}/inbox-phone.png", full_page=True)
        phone.close()
