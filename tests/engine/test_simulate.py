"""``python -m games.engine simulate``: one JSON object with the documented keys,
reproducible from its seed, clear errors (greedy beating random is in
``colorado_county/test_bots.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.__main__ import seat_bots

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"games", "actions", "seconds", "games_per_second", "scores", "wins", "win_rate"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = run("simulate", *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1  # one JSON object, nothing else on stdout
    data: dict[str, Any] = json.loads(lines[0])
    return data


def test_simulate_prints_one_json_object_with_the_documented_keys() -> None:
    args = ("--game", "colorado-county", "--players", "3", "--games", "3")
    data = simulate_json(*args, "--bots", "random,greedy", "--seed", "7")
    assert set(data) >= KEYS
    assert data["games"] == 3
    assert data["actions"] > 3 * 100
    assert data["seconds"] > 0
    assert data["games_per_second"] > 0
    assert set(data["scores"]) == set(data["wins"]) == {"random", "greedy"}
    # three seats cycling over two bots: 9 seat-games split 5/4 over the rotation
    lengths = {name: len(stats["all"]) for name, stats in data["scores"].items()}
    assert sum(lengths.values()) == 9
    for stats in data["scores"].values():
        assert stats["mean"] == pytest.approx(sum(stats["all"]) / len(stats["all"]), abs=1e-3)
    assert sum(data["wins_by_seat"]) >= 3  # every game has at least one winner
    assert sum(data["wins"].values()) == sum(data["wins_by_seat"])


def test_simulate_is_reproducible_from_its_seed() -> None:
    args = ("--players", "2", "--games", "2", "--bots", "greedy,random")
    first = simulate_json(*args, "--seed", "abc")
    second = simulate_json(*args, "--seed", "abc")
    other = simulate_json(*args, "--seed", "xyz")
    assert first["scores"] == second["scores"]
    assert first["actions"] == second["actions"]
    assert (other["scores"], other["actions"]) != (first["scores"], first["actions"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess", "--players", "2"], "unknown game 'chess'"),
        (["--players", "2", "--bots", "random,clever"], "unknown bot(s) 'clever'"),
        (["--players", "5"], "--players must be between 2 and 4"),
        (["--players", "2", "--option", "lakes=square"], "Option lakes must be one of"),
    ],
)
def test_simulate_refuses_bad_arguments_clearly(args: list[str], message: str) -> None:
    done = run("simulate", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""


def test_seats_rotate_so_no_bot_always_sits_first() -> None:
    assert seat_bots(["greedy", "random"], 2, 0) == ["greedy", "random"]
    assert seat_bots(["greedy", "random"], 2, 1) == ["random", "greedy"]
    assert seat_bots(["a", "b", "c"], 4, 0) == ["a", "b", "c", "a"]
    assert {seat_bots(["a", "b", "c"], 4, i)[0] for i in range(3)} == {"a", "b", "c"}
