"""The board drawn as SVG from an engine view (board_svg) and the log in words."""

from __future__ import annotations

import re

from games.engine import get_rules
from titles.colorado_county.board_svg import render_board, render_card, token_svg
from titles.colorado_county.log_words import describe

ENGINE = get_rules("colorado-county")


def view_with(cells: dict[str, dict[str, object]], owners: dict[str, int] | None = None) -> dict:
    view = ENGINE.view(ENGINE.setup(2, "board-test"), None)
    view["board"]["cells"] = cells
    for lake in view["board"]["lakes"]:
        lake["owner"] = (owners or {}).get(lake["id"])
    return view


def cell_markup(svg: str, name: str) -> str:
    m = re.search(
        rf'<g class="[^"]*" data-cell="{name}".*?</g>(?=<g class="cell|</g><g class="lake)', svg
    )
    assert m, name
    return m.group(0)


def test_every_cell_of_the_15_by_10_board_is_drawn_once() -> None:
    svg = str(render_board(view_with({})))
    names = re.findall(r'data-cell="([A-O](?:10|[1-9]))"', svg)
    assert len(names) == 150
    assert len(set(names)) == 150
    assert names[0] == "A1"
    assert names[14] == "O1"
    assert names[-1] == "O10"
    for col in "ABCDEFGHIJKLMNO":
        assert f">{col}</text>" in svg
    assert ">10</text>" in svg


def test_lakes_borders_and_values_are_marked() -> None:
    svg = str(render_board(view_with({}, owners={"lake-2": 1})))
    assert 'class="cell lake" data-cell="C4"' in svg  # first-game lake of value 2
    assert 'class="cell land border" data-cell="A1"' in svg
    assert 'class="cell land" data-cell="B2"' in svg
    label = re.search(r'data-lake="lake-2".*?</g></g>', svg)
    assert label
    assert ">2</text>" in label.group(0)
    assert "marker owner p1" in label.group(0)
    assert "owned by seat 2" in cell_markup(svg, "C4")


def test_markers_have_a_shape_and_number_as_well_as_a_colour() -> None:
    cells = {"B2": {"marker": 0}, "B3": {"marker": 1}, "B6": {"marker": 2}, "B7": {"marker": 3}}
    svg = str(render_board(view_with(cells), names=["Joe", "Daisy", "Nelly", "Bill"]))
    expected = {
        "B2": ("p0", "<circle"),
        "B3": ("p1", "<rect x"),
        "B6": ("p2", "<polygon"),
        "B7": ("p3", "<polygon"),
    }
    for cell, (cls, shape) in expected.items():
        markup = cell_markup(svg, cell)
        assert f"marker {cls}" in markup
        assert shape in markup
        assert f">{int(cls[1]) + 1}</text>" in markup
    assert "marker of Daisy" in cell_markup(svg, "B3")


def test_flags_carry_a_letter_and_names_are_escaped() -> None:
    svg = str(
        render_board(
            view_with({"E5": {"flag": "green"}, "F2": {"for_sale": 0}}), names=["<b>Joe</b>"]
        )
    )
    flag = cell_markup(svg, "E5")
    assert "f-green" in flag
    assert ">G</text>" in flag
    assert "green flag" in flag
    sale = cell_markup(svg, "F2")
    assert "for-sale" in sale
    assert "&lt;b&gt;Joe&lt;/b&gt;" in sale
    assert "<b>Joe</b>" not in svg


def test_cards_show_their_star_pattern() -> None:
    single = str(render_card({"id": "red-single-1", "colour": "red", "offset": None}))
    knight = str(render_card({"id": "blue-knight-1", "colour": "blue", "offset": [2, 1]}))
    assert single.count('class="star') == 1
    assert knight.count('class="star') == 2
    assert knight.count('class="card-cell"') == 6  # a 3 x 2 grid
    assert ">B</span>" in knight
    assert "c-blue" in knight
    assert ">3</text>" in str(token_svg(2))


def test_log_words_follow_the_rulebook_example() -> None:
    names = ["Nelly", "Joe", "Daisy", "Bill"]
    event = {
        "type": "bids_revealed",
        "bids": [
            {"seat": 1, "cowboys": [2, 7, 29, 32], "rank": 1, "claims": True},
            {"seat": 2, "cowboys": [4, 5, 55], "rank": 2, "claims": True},
            {"seat": 0, "cowboys": [16, 21, 43], "rank": 3, "claims": True},
            {"seat": 3, "cowboys": [62, 63], "rank": 4, "claims": False},
        ],
    }
    text = describe(event, names)
    assert text is not None
    assert "Joe bid 4 cowboys: 2, 7, 29, 32 — first choice" in text
    assert "Bill bid 2 cowboys: 62, 63 — no card" in text
    assert describe({"type": "my_bid", "seat": 1, "cowboys": [9]}, names) == "Your sealed bid: 9."
    assert describe({"type": "flags_removed"}, names) is None
