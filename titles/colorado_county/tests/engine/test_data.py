"""Component data (CC-1.9, CC-1.10, CC-2.3): the JSON file is validated when loaded."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from titles.colorado_county.engine import data

RAW = json.loads(data.DATA_FILE.read_text(encoding="utf-8"))


def broken(change: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("cards"), "missing or malformed"),
        (lambda r: r["cards"].pop(), "48 land cards"),
        (lambda r: r["cards"][0].update(colour="purple"), "unknown colour"),
        (lambda r: r["cards"][1].update(id=r["cards"][0]["id"]), "distinct ids"),
        (lambda r: r["cards"][2].update(offset=[0, 0]), "bad offset"),
        (lambda r: r["cards"][2].update(offset=["1", 0]), "must be an integer"),
        (lambda r: r["lakes"][0].update(shape=[[0, 0]]), "sizes 2, 3, 4, 4, 4, 5"),
        (lambda r: r["first_game_layout"].update({"lake-2": ["F4", "F5"]}), "adjacent"),
        (lambda r: r["first_game_layout"].update({"lake-2": ["A4", "A5"]}), "border"),
        (lambda r: r["first_game_layout"].update({"lake-3": ["A1", "B1", "C1"]}), "corner"),
        (
            lambda r: r["first_game_layout"].update({"lake-5": ["G5", "H5", "G6", "H6", "H7"]}),
            "shape",
        ),
        (lambda r: r["first_game_layout"].update({"lake-2": ["Z4", "Z5"]}), "unknown cell"),
        (lambda r: r["valuation"]["double"].pop(), "one entry per round"),
        (lambda r: r.update(board={"columns": 8, "rows": 8}), "15 columns"),
    ],
)
def test_malformed_component_data_is_refused_clearly(change: Any, message: str) -> None:
    with pytest.raises(data.ComponentDataError, match=message):
        data.parse(broken(change))


def test_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "components.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(data.ComponentDataError, match="cannot read"):
        data.load(bad)


def test_the_shipped_file_is_valid() -> None:
    comps = data.parse(RAW)
    assert len(comps.cards) == 48
    assert comps.border_points[0] == (6, 2)
    assert comps.lake_points[3] is None  # round 4: each lake's printed value
