"""The private notepad on the game page: saved as one types (no button pressed), kept on
reload, and absent from the other player's page (games.tables.notes)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _shots(tmp_path: Path) -> Path:
    """Where the screenshots go: ``SCREENSHOT_DIR`` when set (to look at them), else a
    scratch folder."""
    return Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)


def test_a_note_saves_as_one_types_and_only_its_writer_sees_it(
    asgi_server: str,
    new_page: Callable[..., Any],
    player: Callable[[str], Any],
    tmp_path: Path,
) -> None:
    from games.models import GameNote
    from games.tables import lifecycle

    shots = _shots(tmp_path)
    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(
        title="colorado-county", creator=alice, players=2, options={"flags": "random"}
    )
    lifecycle.game_join(game_id=game.pk, user=bob)

    page = new_page()
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    page.locator("#notes-text").type("Bob bids high on the river.")
    wait_js(page, "document.getElementById('notes-status').textContent === 'Saved'")
    assert GameNote.objects.get(game=game, user=alice).text == "Bob bids high on the river."
    page.locator("#notes").screenshot(path=str(shots / "notes-desktop.png"))
    page.reload()
    assert page.locator("#notes-text").input_value() == "Bob bids high on the river."

    phone = new_page(390, 844)
    sign_in(phone, asgi_server, "bob", "pw-bob-2026")
    phone.goto(f"{asgi_server}/games/{game.pk}/")
    phone.wait_for_selector("#board")
    assert "Bob bids high" not in phone.content()
    phone.locator("#notes").screenshot(path=str(shots / "notes-phone.png"))
    assert phone.locator("#notes-text").input_value() == ""
