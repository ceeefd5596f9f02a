"""The table as players expect it (issue 15): one move per double-click and no false error,
a bid kept across someone else's land sale, a board the keyboard moves around with one Tab
stop and keeps its focus, a phone's board with cells a finger can hit, a long chat word that
does not widen the page, and the end of the game arriving without a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.tables.chat import chat_post
from tests.browser.driver import act_version, page_stays, sign_in, wait_for_change, wait_js
from tests.play import mover as first_to_act
from titles.colorado_county.tests.web.tables import can_sell, human_table, move, play_until, seat_of

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

PHONE = (390, 844)


def open_table(new_page: Callable[..., Any], base: str, user: Any, game: Any, **kw: Any) -> Any:
    page = new_page(*kw.pop("size", (1280, 800)))
    if kw.pop("no_socket", False):
        # No live updates: the page learns of other moves only from its own posts' answers,
        # as when a message is on its way while the player clicks.
        page.add_init_script("delete window.WebSocket;")
    sign_in(page, base, user.username, f"pw-{user.username}-2026")
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("#board svg")
    page.evaluate("window.__notReloaded = true")
    return page


def _first_mover_live(
    new_page: Callable[..., Any], base: str, player: Callable[[str], Any]
) -> tuple[Any, Any, Any]:
    """A table of alice and bob placing flags, the one to act and their page, live."""
    users = [player("alice"), player("bob")]
    game = human_table(users)
    mover, _doc = first_to_act(game, *users)
    page = open_table(new_page, base, mover, game)
    page.wait_for_selector(".live-status.on")
    return game, mover, page


def test_a_double_click_on_a_lit_cell_sends_one_move_and_shows_no_error(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Move

    game, mover, page = _first_mover_live(new_page, asgi_server, player)
    before = act_version(page)
    page.once("dialog", lambda d: d.accept())  # the first click's "Place your flag …?"
    page.locator("#board .cell.target").first.dblclick()
    wait_for_change(page, before)
    # A second post, if any, would come back within this: one move only, all along.
    page_stays(
        page, lambda: Move.objects.filter(game=game, seat=seat_of(game, mover)).count() == 1, 1.5
    )
    assert page.locator("#act-error").is_hidden()


def test_the_board_is_one_tab_stop_the_arrows_move_and_focus_stays_after_a_move(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    users = [player("alice"), player("bob")]
    game = human_table(users)
    mover, _doc = first_to_act(game, *users)
    page = open_table(new_page, asgi_server, mover, game)
    assert page.locator("#board .cell.target").count() > 20
    assert page.locator('#board [tabindex="0"]').count() == 1
    # The board is one Tab stop: the next Tab leaves it.
    stop = page.locator('#board [tabindex="0"]')
    stop.focus()
    start = stop.get_attribute("data-cell")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.getAttribute('data-cell')")
    assert moved != start
    assert moved[1:] == start[1:]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == start
    page.keyboard.press("Tab")
    assert page.evaluate("!document.getElementById('board').contains(document.activeElement)")
    # Back to the board and play the lit cell with Enter: the focus stays on that cell.
    stop.focus()
    before = act_version(page)
    page.once("dialog", lambda d: d.accept())
    page.keyboard.press("Enter")
    wait_for_change(page, before)
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == start
    assert page.locator(f'#board [data-cell="{start}"] .flag').count() == 1


def test_on_a_phone_zoomed_cells_are_big_enough_to_tap_and_the_button_stays_by_the_board(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    users = [player("alice"), player("bob")]
    game = human_table(users)
    mover, _doc = first_to_act(game, *users)
    page = open_table(new_page, asgi_server, mover, game, size=PHONE)
    # The board opens fitted to the screen (test_phone_board.py); zoomed in, a cell is a
    # finger wide.
    wait_js(page, "window.BoardZoom")
    page.click(".zoom-bar [data-zoom=in]")
    page.click(".zoom-bar [data-zoom=in]")
    wait_js(page, "window.BoardZoom.zoom() >= 2")
    box = page.locator('#board [data-cell="H5"] .ground').bounding_box()
    assert box
    assert box["width"] >= 40
    assert box["height"] >= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    button = page.locator("#flag-form button[type=submit]")
    button.focus()  # as the keyboard (or a finger scrolling down to it) brings it into view
    board = page.locator("#board").bounding_box()
    shown = button.bounding_box()
    assert board
    assert shown
    assert board["y"] < PHONE[1]
    assert board["y"] + board["height"] > 0, "the board is still on screen by the button"
    assert shown["y"] >= board["y"] + board["height"] - 1, "the button is not under the board"
    # The board pans sideways to reach the far columns.
    far = page.locator('#board [data-cell="O5"]')
    far.scroll_into_view_if_needed()
    far_box = far.bounding_box()
    assert far_box
    assert far_box["x"] + far_box["width"] <= PHONE[0] + 1


@pytest.mark.parametrize("size", [(1280, 800), PHONE])
def test_a_long_word_in_chat_or_a_long_name_does_not_widen_the_page(
    asgi_server: str,
    new_page: Callable[..., Any],
    player: Callable[[str], Any],
    size: tuple[int, int],
) -> None:

    users = [player("alice"), player("bob")]
    users[1].display_name = "W" * 60  # the longest display name, without a space
    users[1].save(update_fields=["display_name"])
    game = human_table(users)
    chat_post(game_id=game.pk, user=users[1], text="w" * 500)
    page = open_table(new_page, asgi_server, users[0], game, size=size)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # The word wraps in its line: the chat does not scroll sideways to show it.
    chat = page.eval_on_selector(".chat-list", "el => [el.scrollWidth, el.clientWidth]")
    assert chat[0] <= chat[1] + 1
    card = page.locator(".players").bounding_box()
    table = page.locator(".players-table").bounding_box()
    assert card
    assert table
    assert table["x"] + table["width"] <= card["x"] + card["width"] + 1


def bid_moment(game: Any, users: list[Any], me: Any, other: Any) -> str:
    """Play until the other player may sell while I still have my bid to make; the cell
    the other player may sell."""
    from games.selectors import documents

    def stop(user: Any, doc: dict[str, Any]) -> bool:
        if user != other or not can_sell(user, doc) or doc["view"]["phase"] != "bid":
            return False
        return not doc["view"]["players"][seat_of(game, me)]["has_bid"]

    play_until(game, users, stop, seed=3)
    return str(
        next(
            a["cell"]
            for a in documents.game_document(game=game, user=other)["legal_actions"]
            if a["type"] == "sell"
        )
    )


def test_ticked_cowboys_survive_a_sale_opened_mid_bid(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:

    me, other = player("alice"), player("bob")
    game = human_table([me, other])
    doc_cell = bid_moment(game, [me, other], me, other)
    page = open_table(new_page, asgi_server, me, game)
    page.wait_for_selector(".live-status.on")
    chips = page.locator("#bid-form .chip")
    ticked = [chips.nth(i).inner_text().strip() for i in range(2)]
    for i in range(2):
        chips.nth(i).click()
    move(game, other, {"type": "sell", "cell": doc_cell})
    # The sale comes in live: the bid form gives way to the sale's question.
    page.wait_for_selector("form.prompt button[value=no]")
    before = act_version(page)
    page.click("form.prompt button[value=no]")
    wait_for_change(page, before)
    page.wait_for_selector("#bid-form")
    kept = page.eval_on_selector_all(
        "#bid-form input[name=cowboys]:checked", "els => els.map(e => e.value)"
    )
    assert sorted(kept) == sorted(ticked)


def test_the_field_on_sale_is_drawn_live_as_for_sale(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:

    me, other = player("alice"), player("bob")
    game = human_table([me, other])
    cell = bid_moment(game, [me, other], me, other)
    page = open_table(new_page, asgi_server, me, game)
    page.wait_for_selector(".live-status.on")
    move(game, other, {"type": "sell", "cell": cell})
    drawn = page.locator(f'#board [data-cell="{cell}"]')
    drawn.locator(".for-sale").wait_for()
    assert "for sale by bob" in drawn.locator("title").first.text_content()
    assert page.evaluate("window.__notReloaded") is True


def test_a_bid_refused_because_a_sale_opened_is_sent_when_the_sale_is_settled(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Move

    me, other = player("alice"), player("bob")
    game = human_table([me, other])
    cell = bid_moment(game, [me, other], me, other)
    page = open_table(new_page, asgi_server, me, game, no_socket=True)
    chips = page.locator("#bid-form .chip")
    ticked = sorted(int(chips.nth(i).inner_text().strip()) for i in range(2))
    for i in range(2):
        chips.nth(i).click()
    move(game, other, {"type": "sell", "cell": cell})
    # My bid leaves just after the sale opened, before my page knew of it.
    page.click("#bid-submit")
    page.wait_for_selector("form.prompt button[value=no]")
    note = page.locator("#bid-kept")
    note.wait_for()
    assert "will be sent when the sale is settled" in note.inner_text()
    page.click("form.prompt button[value=no]")
    wait_js(
        page,
        "() => document.querySelector('#bid-form p.muted') !== null && !window.GameTable.busy()",
    )
    bids = [
        m.action["cowboys"]
        for m in Move.objects.filter(game=game, seat=seat_of(game, me), action__type="bid")
    ]
    assert sorted(bids[-1]) == ticked


def test_the_end_of_the_game_arrives_without_a_reload(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.models import Game
    from games.selectors import documents
    from games.store.state_cache import engine_for, load_state

    me, other = player("alice"), player("bob")
    game = human_table([me, other])
    ending: dict[str, Any] = {}

    def stop(user: Any, doc: dict[str, Any]) -> bool:
        if doc["my_seat"] not in doc["to_act"]:
            return False
        engine = engine_for(game)
        for action in doc["legal_actions"]:
            if action["type"] == "sell":
                continue
            after, _ = engine.apply(load_state(game), doc["my_seat"], action)
            if engine.is_over(after):
                ending["action"], ending["user"] = action, user
                return True
        return False

    play_until(game, [me, other], stop, seed=5)
    last = ending["user"]
    me = other if last == me else me  # the page is the other player's: the end comes live
    page = open_table(new_page, asgi_server, me, game)
    page.wait_for_selector(".live-status.on")
    move(game, last, ending["action"])
    page.wait_for_selector(".final-scores")
    page.wait_for_selector("#after-game")
    assert page.evaluate("window.__notReloaded") is True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert documents.game_document(game=game, user=me)["status"] == "finished"
    page.wait_for_selector("#replay-step >> text=/Step/")


def test_answering_a_sale_by_keyboard_keeps_the_focus_in_the_panel(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """The answer buttons have no id: after "No" the redrawn panel gives the focus to the
    same form's button ("Change to yes"), not to the page, so Tab goes on from there."""
    me, other, third = player("alice"), player("bob"), player("carol")
    game = human_table([me, other, third])
    cell = bid_moment(game, [me, other, third], me, other)
    page = open_table(new_page, asgi_server, me, game)
    page.wait_for_selector(".live-status.on")
    move(game, other, {"type": "sell", "cell": cell})
    page.wait_for_selector("#interest-form button[value=no]")
    before = act_version(page)
    page.focus("#interest-form button[value=no]")
    page.keyboard.press("Enter")
    wait_for_change(page, before)
    page.wait_for_selector("#interest-form[data-answered]")
    focused = page.evaluate(
        "() => { const el = document.activeElement;"
        " return el === document.body ? null : [el.closest('form')?.id, el.value]; }"
    )
    assert focused == ["interest-form", "yes"]


def test_a_flag_asks_before_it_is_placed(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    """Issue 43, trial item 8: one click placed a flag for good, while a sale asks first."""
    from games.models import Move

    game, _mover, page = _first_mover_live(new_page, asgi_server, player)
    cell = page.locator("#board .cell.target").first
    name = cell.get_attribute("data-cell")
    asked: list[str] = []

    def say_no(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", say_no)
    cell.click()
    wait_js(page, "() => true")  # the dialog's handler has run by the next evaluation
    assert asked == [f"Place your flag on {name}? It cannot be moved afterwards."]
    page_stays(page, lambda: not Move.objects.filter(game=game, actor="player").exists(), 1.0)
    assert page.locator(f'#board [data-cell="{name}"] .flag').count() == 0
    # Said yes, it is placed.
    before = act_version(page)
    page.once("dialog", lambda d: d.accept())
    page.locator(f'#board [data-cell="{name}"]').click()
    wait_for_change(page, before)
    assert page.locator(f'#board [data-cell="{name}"] .flag').count() == 1
    assert Move.objects.filter(game=game, actor="player").count() == 1
