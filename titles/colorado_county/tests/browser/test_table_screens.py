"""A three-player Colorado County table mid-game and during a land sale, desktop (1280) and
phone (390) wide: checks what a player sees, and with SCREENSHOT_DIR set saves the pictures
of docs/screenshots/ (table-*.png, sale-*.png)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.driver import sign_in
from titles.colorado_county.tests.web.tables import can_sell, human_table, move, play_until, seat_of

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def signed_page(new_page: Callable[..., Any], base: str, user: Any, size: tuple[int, int]) -> Any:
    page = new_page(*size)
    sign_in(page, base, user.username, f"pw-{user.username}-2026")
    return page


def save(page: Any, name: str, *, full: bool) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def card_with_choices(doc: dict[str, Any]) -> str | None:
    """A face-up card whose claims leave a choice on the board (two flags, or two places for
    the second star): a card with one claim only is chosen whole and lights no target. The
    deal is random, so the tests play on until there is one."""
    claims = [a for a in doc["legal_actions"] if a["type"] == "claim"]
    for card in dict.fromkeys(a["card"] for a in claims):
        if len({(a["flag"], a.get("second")) for a in claims if a["card"] == card}) > 1:
            return str(card)
    return None


def test_a_card_chosen_before_the_page_script_ran_lights_its_claims(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """The page's scripts are deferred: a player on a slow connection can choose a card
    before they run, and the board must then light that card's claims all the same."""
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    users = [alice, bob, carol]
    game = human_table(users)
    _user, doc = play_until(
        game,
        users,
        lambda u, d: (
            u == alice
            and d["view"]["phase"] == "claim"
            and d["my_seat"] in d["to_act"]
            and card_with_choices(d) is not None
        ),
        seed=5,
    )
    card = card_with_choices(doc)
    # The site's service worker would serve the script from its cache, out of the route's
    # reach: this page goes without it, as a first visit does.
    page = new_page(1280, 800, service_workers="block")
    sign_in(page, asgi_server, alice.username, f"pw-{alice.username}-2026")
    held: list[Any] = []
    # The page's script waits until the card is chosen.
    page.route("**/js/game.js*", lambda route: held.append(route))
    page.goto(f"{asgi_server}/games/{game.pk}/", wait_until="commit")
    page.wait_for_selector("#claim-form")
    page.locator(f'#claim-form .card-choice:has(input[value="{card}"])').click()
    assert held, "the page asked for its script"
    assert page.locator("#board .cell.target").count() == 0
    held[0].continue_()
    page.wait_for_selector("#board .cell.target")
    assert page.locator(f'#claim-form input[value="{card}"]').is_checked()


def test_a_table_and_a_land_sale_on_desktop_and_phone(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.selectors import documents

    alice, bob, carol = player("alice"), player("bob"), player("carol")
    bob.display_name = "Bobby"
    bob.save(update_fields=["display_name"])
    users = [alice, bob, carol]
    game = human_table(users)

    def claim_time(user: Any, doc: dict[str, Any]) -> bool:
        view = doc["view"]
        return (
            user == alice
            and view["phase"] == "claim"
            and view["round"] >= 2
            and doc["my_seat"] in doc["to_act"]
            and any(a["type"] == "sell" for a in doc["legal_actions"])
            and card_with_choices(doc) is not None
        )

    _user, doc = play_until(game, users, claim_time, seed=11)
    card = card_with_choices(doc)
    pages = {}
    for name, size in (("desktop", (1280, 800)), ("phone", (390, 844))):
        page = signed_page(new_page, asgi_server, alice, size)
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector("#claim-form")
        with page.expect_response(lambda r: "claim_preview" in r.url):  # the claim preview
            page.locator(f'#claim-form .card-choice:has(input[value="{card}"])').click()
        page.wait_for_selector("#board .cell.target")
        assert page.locator("#board .cell.target").count() >= 1
        assert "@bob" in page.locator(".players-table").inner_text()
        if name == "phone":
            page.locator("#claim-form").scroll_into_view_if_needed()
        save(page, f"table-{name}", full=name == "desktop")
        pages[name] = page
    # Alice makes her claim; then Bobby sells a field while the others still have to bid.
    doc = documents.game_document(game=game, user=alice)
    move(game, alice, next(a for a in doc["legal_actions"] if a["type"] == "claim"))
    seller, doc = play_until(
        game, users, lambda u, d: u == bob and can_sell(u, d) and d["view"]["phase"] == "bid"
    )
    cell = next(a["cell"] for a in doc["legal_actions"] if a["type"] == "sell")
    move(game, seller, {"type": "sell", "cell": cell})
    asked = documents.game_document(game=game, user=alice)["view"]["sale"]["asked"]
    assert seat_of(game, carol) in asked
    move(game, carol, {"type": "sale_interest", "interested": False})
    for name, page in pages.items():
        page.goto(f"{asgi_server}/games/{game.pk}/")
        page.wait_for_selector(f'#board [data-cell="{cell}"] .for-sale')
        status = page.locator("#sale-status").inner_text()
        assert "Still to say whether they want it: alice." in status
        assert "Are you interested?" in page.locator("#interest-form").inner_text()
        prompt = page.locator("#interest-form")
        assert prompt.count() == 1
        if name == "phone":
            prompt.scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, 120)")
        save(page, f"sale-{name}", full=name == "desktop")
