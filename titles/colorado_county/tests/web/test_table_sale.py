"""A land sale on the game page: the field on sale stays on the board, each answer and sale
bid is acknowledged and can be changed while allowed, and everyone sees who the sale still
waits for (issue 15, bugs 1 and 2). Real services, engine and templates; no mocks."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.selectors import documents
from tests.accounts.factories import make_user

from .tables import human_table, move, open_a_sale, seat_of

pytestmark = [pytest.mark.django_db]


def page(user: User, game_id: int) -> str:
    c = Client()
    c.force_login(user)
    response = c.get(f"/games/{game_id}/")
    assert response.status_code == 200
    return response.content.decode()


def act_panel(html: str) -> str:
    m = re.search(r'<div id="act-panel" data-swap>(.*?)</section>\s*</div>', html, re.S)
    assert m
    return m.group(1)


def cell_markup(html: str, name: str) -> str:
    m = re.search(rf'<g class="[^"]*" data-cell="{name}".*?</g>(?=<g class="cell|</g><g)', html)
    assert m, name
    return m.group(0)


@pytest.fixture
def sale(eager_tasks: None) -> tuple:
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    game = human_table(users)
    seller, cell = open_a_sale(game, users)
    asked = documents.game_document(game=game, user=seller)["view"]["sale"]["asked"]
    others = sorted((u for u in users if u != seller), key=lambda u: asked.index(seat_of(game, u)))
    return game, seller, cell, others


def test_the_field_on_sale_stays_on_the_board_marked_for_sale_by_its_seller(sale: tuple) -> None:
    game, seller, cell, others = sale
    for viewer in [seller, *others]:
        markup = cell_markup(page(viewer, game.pk), cell)
        assert f"marker p{seat_of(game, seller)} for-sale" in markup
        assert f"for sale by {seller.username}" in markup
    doc = documents.game_document(game=game, user=others[0])
    assert doc["view"]["board"]["cells"][cell] == {"for_sale": seat_of(game, seller)}


def test_no_is_acknowledged_and_can_be_changed_and_the_seller_sees_who_is_left(
    sale: tuple,
) -> None:
    game, seller, cell, (first, second) = sale
    html = act_panel(page(seller, game.pk))
    assert "the other players are answering" not in html
    assert f"Still to say whether they want it: {first.username}, {second.username}" in html
    move(game, first, {"type": "sale_interest", "interested": False})
    mine = act_panel(page(first, game.pk))
    assert "Are you interested?" not in mine
    assert f"Your answer: no, you do not want {cell}." in mine
    assert 'value="yes"' in mine
    assert "Change to yes" in mine
    # The seller and the third player see who has not answered yet, not what was answered.
    for viewer in (seller, second):
        html = act_panel(page(viewer, game.pk))
        assert f"Still to say whether they want it: {second.username}." in html
        assert "do not want" not in html
    # Changing the answer while the other has not answered is taken into account.
    move(game, first, {"type": "sale_interest", "interested": True})
    assert f"Your answer: yes, you want {cell}." in act_panel(page(first, game.pk))


def test_a_sealed_sale_bid_is_shown_back_to_its_bidder_only_and_can_be_replaced(
    sale: tuple,
) -> None:
    game, seller, _cell, (first, second) = sale
    for user in (first, second):
        move(game, user, {"type": "sale_interest", "interested": True})
    html = act_panel(page(seller, game.pk))
    assert f"Wanted by {first.username}, {second.username}: sealed bids still to come from" in html
    doc = documents.game_document(game=game, user=first)
    cowboys = sorted(a["cowboys"][0] for a in doc["legal_actions"] if a["type"] == "sale_bid")
    bid = cowboys[:2]
    move(game, first, {"type": "sale_bid", "cowboys": bid})
    mine = act_panel(page(first, game.pk))
    assert f"Your sealed bid: {', '.join(map(str, bid))}." in mine
    assert "Replace my bid" in mine
    checked = re.findall(r'name="cowboys" value="(\d+)" checked', mine)
    assert sorted(map(int, checked)) == bid
    # The others learn only that the bid is in.
    for viewer in (seller, second):
        html = act_panel(page(viewer, game.pk))
        assert "Your sealed bid" not in html
        assert f"sealed bids still to come from {second.username}." in html
        view = documents.game_document(game=game, user=viewer)["view"]
        assert view["sale"]["my_sale_bid"] is None
    # A replaced bid is what the page shows.
    move(game, first, {"type": "sale_bid", "cowboys": bid[:1]})
    assert f"Your sealed bid: {bid[0]}." in act_panel(page(first, game.pk))
