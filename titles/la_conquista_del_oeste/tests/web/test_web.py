"""La Conquista del Oeste's web side: the map as SVG, the log words, the move forms and
the turn mail's words, from random playouts of the engine."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from django import forms
from django.http import QueryDict

from games import engine, titles
from titles.la_conquista_del_oeste.board_svg import (
    FLAGS,
    LABELS,
    _label_box,
    render_board,
    symbols,
)
from titles.la_conquista_del_oeste.engine import RULES
from titles.la_conquista_del_oeste.engine.data import DATA
from titles.la_conquista_del_oeste.log_words import KNOWN, describe
from titles.la_conquista_del_oeste.web import TITLE

NAMES = ["Ann", "Bob", "<Cleo & co>", "Dan", "Eve", "Fay"]


@pytest.fixture
def registered() -> Iterator[None]:
    try:
        engine.get_rules(RULES.slug)
        had = True
    except KeyError:
        had = False
        engine.register(RULES)
    titles.register(TITLE)
    yield
    titles.unregister(TITLE.slug)
    if not had:
        engine.unregister(RULES.slug)


def playout(
    n: int, seed: int, steps: int
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """Random legal moves; returns the state, every event, and every action taken."""
    rng = random.Random(seed)  # noqa: S311 - a test playout
    state, events = RULES.setup_events(n, seed)
    taken: list[dict[str, Any]] = []
    for _ in range(steps):
        if RULES.is_over(state):
            break
        seat = rng.choice(sorted(RULES.to_act(state)))
        legal = RULES.legal_actions(state, seat)
        action = rng.choice(legal)
        state, new = RULES.apply(state, seat, action)
        events += new
        taken.append(action)
    return state, events, taken


def test_the_six_player_map_is_well_formed_with_every_city_and_six_pawns() -> None:
    state, _events, _ = playout(6, 3, 300)
    view = RULES.view(state, 0)
    svg = str(render_board(view, NAMES, RULES.legal_actions(state, 0)))
    root = ET.fromstring(  # noqa: S314 - our own markup
        svg
    )
    ns = "{http://www.w3.org/2000/svg}"
    cities = [
        str(g.get("data-city"))
        for g in root.iter(f"{ns}g")
        if (g.get("class") or "").startswith("city ")
    ]
    assert sorted(cities) == sorted(DATA.cities)
    pawns = {
        g.get("data-seat")
        for g in root.iter(f"{ns}g")
        if (g.get("class") or "").startswith("pawn ")
    }
    assert pawns == {str(s) for s in range(6)}
    assert "&lt;Cleo &amp; co&gt;" in svg
    assert "<Cleo" not in svg
    assert 'class="railway"' in svg
    assert 'class="zone west"' in svg
    assert 'class="zone east"' in svg


def test_names_are_drawn_over_the_camps_with_a_halo_and_clear_of_their_dots() -> None:
    """LC-32's camps: camps are drawn first (small), then the towns, then every name in
    its own layer with the background's halo; by the placement's own measure no name
    covers a camp's dot or another town (Chromium checks the drawn boxes)."""
    svg = str(render_board({"players": []}))
    camps, towns = (svg.index(f'class="city {k}') for k in ("camp", "east"))
    assert camps < towns < svg.index('<g class="names">') < svg.index('<text class="name')
    assert tuple(flag for flag, _glyph, _words in symbols()) == FLAGS
    for cid, spot in LABELS.items():
        box = _label_box(DATA.cities[cid].name, *spot)
        under = [
            o
            for o, c in DATA.cities.items()
            if o != cid and box[0] < c.x < box[2] and box[1] < c.y < box[3]
        ]
        assert under == [], cid


def test_legal_destinations_are_lit_and_are_buttons_that_post_the_move() -> None:
    state, _ = RULES.setup_events(3, 11)
    for _ in range(200):
        seat = next(iter(RULES.to_act(state)))
        legal = RULES.legal_actions(state, seat)
        if any(a["type"] == "move" for a in legal):
            break
        roll = [a for a in legal if a["type"] in ("roll", "end_turn")] or legal
        state, _ = RULES.apply(state, seat, roll[0])
    dests = sorted(a["to"] for a in legal if a["type"] == "move")
    assert dests
    svg = str(render_board(RULES.view(state, seat), NAMES, legal))
    ET.fromstring(  # noqa: S314 - our own markup
        svg
    )
    for cid in dests:
        assert (
            f'class="city {"camp " if DATA.cities[cid].camp else ""}'
            f'{"west" if DATA.cities[cid].west else "east"} dest" data-city="{cid}"' in svg
        )
        assert f'name="to" value="{cid}" tabindex="0" role="button"' in svg
    assert svg.count('class="dest-button"') == len(dests)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_event_of_a_long_playout_has_words(seed: int) -> None:
    _state, events, _ = playout(4, seed, 2500)
    seen = {e["type"] for e in events}
    assert seen <= KNOWN, seen - KNOWN
    for e in events:
        for me in (None, 0, e.get("seat")):
            line = describe(e, NAMES, me)
            assert line
            assert line != e["type"].replace("_", " ").capitalize() + "."


def test_private_events_are_worded_for_their_owner_only() -> None:
    card = next(iter(DATA.opportunity))
    event = {"type": "my_opportunity", "visible_to": [1], "seat": 1, "card": card}
    assert DATA.opportunity[card].title in (describe(event, NAMES, 1) or "")
    assert DATA.opportunity[card].title not in (describe(event, NAMES, 0) or "")
    assert DATA.opportunity[card].title not in (describe(event, NAMES, None) or "")


def post(**fields: Any) -> QueryDict:
    q = QueryDict(mutable=True)
    for k, v in fields.items():
        if isinstance(v, list):
            q.setlist(k, v)
        else:
            q[k] = str(v)
    return q


def fields_for(a: dict[str, Any]) -> QueryDict:
    """The form fields the page's templates post for the legal action ``a``."""
    kind = a["type"]
    if kind == "poker_answer":
        return post(kind=kind, join="yes" if a["join"] else "no")
    if kind == "duel":
        extra = {"item": a["item"]} if "item" in a else {}
        return post(kind=kind, duel=a["kind"], target=a["target"], **extra)
    if kind == "offer":
        q: dict[str, Any] = {"kind": "offer", "to": a["to"]}
        for side in ("give", "take"):
            b = a[side]
            if b.get("money"):
                q[f"{side}_money"] = b["money"]
            for item, n in (b.get("items") or {}).items():
                q[f"{side}_{item}"] = n
            if b.get("cards"):
                q[f"{side}_cards"] = list(b["cards"])
        return post(**q)
    return post(kind=kind, **{k: v for k, v in a.items() if k != "type"})


def test_action_from_post_builds_every_legal_kind_from_form_fields() -> None:
    kinds: set[str] = set()
    for seed in (1, 2, 3, 4):
        rng = random.Random(seed)  # noqa: S311 - a test playout
        state, _ = RULES.setup_events(4, seed)
        for _ in range(1500):
            if RULES.is_over(state):
                break
            for seat in range(4):
                for a in RULES.legal_actions(state, seat):
                    built = TITLE.action_from_post(fields_for(a))
                    if a["type"] == "offer":
                        norm = {
                            k: {x: y for x, y in v.items() if y}
                            for k, v in a.items()
                            if k in ("give", "take")
                        }
                        assert {k: built[k] for k in norm} == norm
                    else:
                        assert built == a
                    kinds.add(a["type"])
            seat = rng.choice(sorted(RULES.to_act(state)))
            state, _ = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    assert {"buy", "move", "roll", "end_turn", "work", "offer", "poker", "poker_answer"} <= kinds


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"kind": "fly"},
        {"kind": "buy", "item": "horse"},
        {"kind": "buy"},
        {"kind": "poker", "bet": "lots"},
        {"kind": "poker_answer", "join": "maybe"},
        {"kind": "move", "to": "<script>"},
        {"kind": "duel", "duel": "steal", "target": "1", "item": "gold"},
        {"kind": "offer", "to": "9"},
        {"kind": "offer", "to": "1", "give_money": "-5"},
        {"kind": "accept", "offer": "x"},
        {"action": "{nope"},
    ],
)
def test_action_from_post_refuses_garbage(fields: dict[str, str]) -> None:
    with pytest.raises(forms.ValidationError):
        TITLE.action_from_post(post(**fields))


def test_needed_words_name_the_decision_of_each_phase() -> None:
    base = RULES.view(RULES.setup(2, 5), None)
    words = {
        phase: TITLE.needed_words({**base, "phase": phase})
        for phase in ("town", "move", "after", "discard")
    }
    assert all(words.values())
    assert len(set(words.values())) == 4
    assert "escape" in str(TITLE.needed_words({**base, "must_flee": True}))
    assert "poker" in str(TITLE.needed_words({**base, "poker": {"host": 0, "bet": 100}}))
    assert TITLE.needed_words({**base, "phase": "over"}) is None


def test_status_line_token_and_options(registered: None) -> None:
    view = RULES.view(RULES.setup(3, 5), None)
    assert TITLE.status_line(view) == "Round 1 of 50"
    token = str(TITLE.token(4, 20))
    ET.fromstring(  # noqa: S314 - our own markup
        token
    )
    assert ">5</text>" in token
    assert "Player 5" in token
    field = TITLE.option_fields()["round_limit"]
    assert [c for c, _label in field.choices] == ["30", "50", "80"]  # type: ignore[attr-defined]
    assert TITLE.bot_label("greedy") != "greedy bot"
