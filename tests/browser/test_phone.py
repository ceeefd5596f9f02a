"""Every page at a phone's width (390 px) and at a desktop's (1280 px): nothing scrolls
sideways, what a finger taps is at least 44 px tall, and text stays readable (issue 43)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE = (390, 844)
DESKTOP = (1280, 800)

# What is wider than the viewport, which controls are too small to tap, and which text is
# too small: the test's message names them.
MEASURE = (Path(__file__).parent / "phone_measure.js").read_text()


def pages_of(base: str, game_ids: dict[str, int], username: str) -> list[str]:
    return [
        "/",
        "/games/",
        "/games/new/",
        "/games/inbox/",
        "/accounts/settings/",
        f"/users/{username}/",
        "/leaderboard/",
        "/bots/",
        "/how-to-play/",
        *(f"/how-to-play/{slug}/" for slug in game_ids),
        *(f"/games/{pk}/" for pk in game_ids.values()),
    ]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_scrolls_sideways_and_every_control_is_a_finger_wide(
    asgi_server: str,
    new_page: Callable[..., Any],
    tables: tuple[Any, dict[str, int]],
    size: tuple[int, int],
) -> None:
    alice, ids = tables
    page = new_page(*size)
    sign_in(page, asgi_server, alice.username, f"pw-{alice.username}-2026")
    problems = {}
    for path in pages_of(asgi_server, ids, alice.username):
        page.goto(asgi_server + path)
        page.wait_for_load_state("load")
        got = page.evaluate(MEASURE)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            name = path.strip("/").replace("/", "-") or "home"
            page.screenshot(path=f"{SHOTS}/page-{name}-{size[0]}.png")
        bad = {}
        if got["scroll"] > got["vw"]:
            bad["scroll"] = (got["scroll"], got["wide"])
        if size == PHONE and got["small"]:
            bad["small"] = got["small"]
        if got["tiny"]:
            bad["tiny"] = got["tiny"]
        if bad:
            problems[path] = bad
    assert not problems, json.dumps(problems, indent=1)
