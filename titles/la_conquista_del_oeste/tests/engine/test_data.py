"""The component data (LC-1): this site's own map, prices and decks, validated at import."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

from titles.la_conquista_del_oeste.engine import data, routes
from titles.la_conquista_del_oeste.engine.data import ARRIVALS, CITIES, DATA, NB, distances

RAW: dict[str, Any] = json.loads(data.DATA_FILE.read_text(encoding="utf-8"))


def test_lc_1_map_size_zones_and_special_cities() -> None:
    assert 60 <= len([c for c in CITIES.values() if not c.camp]) <= 92
    starts = {c for c, city in CITIES.items() if city.start}
    assert starts == {"boston", "norfolk", "charleston"}
    assert all(not CITIES[c].west for c in starts)
    assert len(ARRIVALS) >= 4
    assert all(CITIES[a].west for a in ARRIVALS)
    assert DATA.rail_cities == ("norfolk", "st_louis")
    assert CITIES[DATA.indian_prison_city].name == "Liberty"
    assert CITIES[DATA.roy_bean_city].west
    for flag in ("work", "poker", "sheriff", "cardsharp", "prison", "incident"):
        assert any(getattr(c, flag) for c in CITIES.values()), flag
    assert any(c.bank for c in CITIES.values())
    for item in data.ITEMS:
        assert any(item in c.shops and not c.west for c in CITIES.values())
        assert any(item in c.shops and c.west for c in CITIES.values())


def test_lc_1_graph_connected_and_every_west_city_reaches_the_pacific() -> None:
    assert len(distances(NB, ["boston"])) == len(CITIES)
    west = {k: tuple(b for b in v if CITIES[b].west) for k, v in NB.items() if CITIES[k].west}
    reach = distances(west, ARRIVALS)
    assert {c for c in CITIES if CITIES[c].west} <= set(reach)
    assert all(0 <= c.x <= 1900 and 0 <= c.y <= 580 for c in CITIES.values())


def test_lc_31_camps_lengthen_the_journey_west() -> None:
    camps = [c for c in CITIES.values() if c.camp]
    assert len(camps) >= 80
    assert all(not c.name and not c.shops and not c.bank for c in camps)
    assert all(not any(getattr(c, f) for f in data.FLAGS) for c in camps)
    # every camp lies on its trail, between its two towns
    for c in camps:
        a, b = (CITIES[t] for t in c.trail)
        assert min(a.x, b.x) <= c.x <= max(a.x, b.x)
        assert c.west == (a.west and b.west)
    to_pacific = distances(NB, ARRIVALS)
    assert to_pacific["st_louis"] >= 15
    assert min(to_pacific[c] for c in ("boston", "norfolk", "charleston")) >= 20


def test_lc_32_a_camp_about_every_16_units_of_trail_touching_the_west() -> None:
    for edge in RAW["edges"]:
        a, b = CITIES[edge[0]], CITIES[edge[1]]
        length = math.dist((a.x, a.y), (b.x, b.y))
        want = max(0, round(length / 16) - 1) if a.west or b.west else 0
        assert (edge[2] if len(edge) == 3 else 0) == want, edge
        assert len([c for c in CITIES.values() if c.trail == (a.id, b.id)]) == want
    assert len([c for c in CITIES.values() if c.camp]) == 413
    # The West is a long journey: from the Missouri about forty lines to the Pacific,
    # some eighteen rolls of the medium bot's routes (LC-31's first camps: ten or eleven).
    to_pacific = distances(NB, ARRIVALS)
    assert to_pacific["independence"] >= 40
    assert to_pacific["st_louis"] >= 45
    assert routes.to_pacific("independence") >= 16
    assert routes.to_pacific("boston") >= 25


def test_lc_1_prices_west_dearer_and_sale_below_purchase() -> None:
    for item in data.ITEMS:
        east, west = DATA.prices[item]["east"], DATA.prices[item]["west"]
        assert east[1] < east[0] < west[0]
        assert west[1] < west[0]


def test_lc_1_every_card_effect_known_and_texts_written() -> None:
    assert {c.effect["kind"] for c in DATA.opportunity.values()} <= data.OPPORTUNITY_KINDS
    assert {c.effect["kind"] for c in DATA.incident.values()} <= data.INCIDENT_KINDS
    lily = [c for c in DATA.opportunity.values() if c.effect["kind"] == "lily_langtry"]
    assert len(lily) >= 1
    assert any(c.effect["kind"] == "indian_prison" for c in DATA.incident.values())
    assert all(len(c.text) > 20 for c in [*DATA.opportunity.values(), *DATA.incident.values()])


def _broken(edit: Any) -> str:
    raw = copy.deepcopy(RAW)
    edit(raw)
    with pytest.raises(data.ComponentDataError) as info:
        data.parse(raw)
    return str(info.value)


def test_lc_1_malformed_data_is_refused_at_load() -> None:
    assert "duplicate city" in _broken(lambda r: r["cities"].append(dict(r["cities"][0])))
    assert "connected" in _broken(
        lambda r: r.update(edges=[e for e in r["edges"] if "seattle" not in e])
    )
    assert "unknown effect" in _broken(
        lambda r: r["incident"][0].update(effect={"kind": "teleport"})
    )
    assert "bad edge" in _broken(lambda r: r["edges"].append(["boston", "atlantis"]))
    assert "duplicate card" in _broken(lambda r: r["opportunity"].append(r["opportunity"][0]))
    assert "2-12" in _broken(lambda r: r["starting_cities"].pop())

    def cut_west(r: dict[str, Any]) -> None:
        # A West city joined to the East only cannot reach the Pacific through the West.
        r["cities"].append({"id": "nowhere", "name": "Nowhere", "zone": "west", "x": 1, "y": 1})
        r["edges"].append(["nowhere", "boston"])

    assert "arrival point" in _broken(cut_west)
    assert "format" in _broken(lambda r: r.update(format=2))
