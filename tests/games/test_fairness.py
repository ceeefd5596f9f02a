"""Fairness proof: ``verify_export`` and ``manage.py verify_game`` on games played by random
bots through the rules engine; tampered exports are rejected."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.engine import competition_ranks, get_rules
from games.records.fairness import verify_export
from titles.colorado_county.tests.engine.helpers import random_move

ROOT = Path(__file__).resolve().parents[2]
ENGINE = get_rules("colorado-county")


def random_export(players: int, seed: str, *, rnd_seed: int = 0) -> dict[str, Any]:
    """A finished game between random bots, in the shape of GET /api/games/{id}/export."""
    rnd = random.Random(rnd_seed)  # noqa: S311 (test playouts)
    state = ENGINE.setup(players, seed, {})
    moves = []
    while not ENGINE.is_over(state):
        seat, action = random_move(state, rnd)
        state, _ = ENGINE.apply(state, seat, action)
        moves.append({"seat": seat, "action": action, "at": "2026-11-30T12:00:00+00:00"})
    scores = list(ENGINE.result(state))
    return {
        "id": 1,
        "game": "colorado-county",
        "players": [
            {"seat": i, "username": f"bot-random-{i}", "is_bot": True} for i in range(players)
        ],
        "options": {"lakes": "first-game", "flags": "players"},
        "seed": seed,
        "seed_hash": hashlib.sha256(seed.encode()).hexdigest(),
        "moves": moves,
        "result": {"scores": scores, "ranks": competition_ranks(scores)},
    }


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    return random_export(3, "b5e1c0ffee", rnd_seed=7)


@pytest.mark.parametrize(
    ("players", "seed", "rnd_seed"), [(2, "a1", 1), (3, "b2", 2), (4, "c3", 3), (4, "d4", 4)]
)
def test_random_bot_games_verify(players: int, seed: str, rnd_seed: int) -> None:
    data = random_export(players, seed, rnd_seed=rnd_seed)
    verdict = verify_export(json.loads(json.dumps(data)))
    assert verdict.ok, verdict.summary
    assert verdict.moves_replayed == len(data["moves"]) > 20
    assert verdict.scores == data["result"]["scores"]
    assert [c.name for c in verdict.checks] == ["seed", "moves", "result"]


def _tampered(export: dict[str, Any], how: str) -> dict[str, Any]:
    data = copy.deepcopy(export)
    if how == "other seed":
        data["seed"] = "not-the-seed"
    elif how == "other hash":
        data["seed_hash"] = hashlib.sha256(b"something else").hexdigest()
    elif how == "scores":
        data["result"]["scores"][0] += 1
    elif how == "ranks":
        data["result"]["ranks"] = [*list(reversed(data["result"]["ranks"])), 9]
    elif how == "move seat":
        data["moves"][0]["seat"] = (data["moves"][0]["seat"] + 1) % 3
    elif how == "move dropped":
        del data["moves"][len(data["moves"]) // 2]
    elif how == "truncated":
        data["moves"] = data["moves"][:-5]
    elif how == "move after the end":
        data["moves"].append(copy.deepcopy(data["moves"][-1]))
    elif how == "seat not at the table":
        data["moves"][3]["seat"] = 7
    elif how == "garbled action":
        data["moves"][2]["action"] = {"type": "dance"}
    elif how == "hidden seed":
        data["seed"] = None
    return data


@pytest.mark.parametrize(
    ("how", "failed_check"),
    [
        ("other seed", "seed"),
        ("other hash", "seed"),
        ("scores", "result"),
        ("ranks", "result"),
        ("move seat", "moves"),
        ("move dropped", "moves"),
        ("truncated", "result"),
        ("move after the end", "moves"),
        ("seat not at the table", "moves"),
        ("garbled action", "moves"),
        ("hidden seed", "format"),
    ],
)
def test_tampered_exports_are_rejected(export: dict[str, Any], how: str, failed_check: str) -> None:
    assert verify_export(export).ok
    verdict = verify_export(_tampered(export, how))
    assert not verdict.ok
    assert verdict.checks[-1].name == failed_check
    assert verdict.summary.startswith("Not verified:")


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "export",
        {},
        {
            "game": "chess",
            "players": [],
            "seed": "x",
            "seed_hash": hashlib.sha256(b"x").hexdigest(),
            "moves": [],
            "result": {"scores": []},
        },
        {
            "game": "colorado-county",
            "players": 9,
            "seed": "x",
            "seed_hash": "",
            "moves": [],
            "result": {},
        },
        {
            "game": "colorado-county",
            "players": [1] * 7,
            "seed": "x",
            "seed_hash": hashlib.sha256(b"x").hexdigest(),
            "moves": [],
            "result": {"scores": []},
        },
        {
            "game": "colorado-county",
            "players": [1, 2],
            "seed": "x",
            "seed_hash": hashlib.sha256(b"x").hexdigest(),
            "moves": [7, "x"],
            "result": {"scores": []},
        },
    ],
)
def test_malformed_exports_get_a_verdict_not_an_exception(data: Any) -> None:
    verdict = verify_export(data)
    assert not verdict.ok
    assert verdict.summary


def test_verify_game_command_prints_the_verdict(
    export: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    call_command("verify_game", str(path))
    out = capsys.readouterr().out
    assert "ok   seed" in out
    assert f"all {len(export['moves'])} moves are legal" in out
    assert "Fair:" in out

    path.write_text(json.dumps(_tampered(export, "scores")))
    with pytest.raises(CommandError):
        call_command("verify_game", str(path))
    assert "FAIL result" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "words"), [(None, "Cannot read"), ("{not json", "is not JSON")]
)
def test_verify_game_command_explains_unreadable_input(
    tmp_path: Path, content: str | None, words: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CommandError, match=words):
        call_command("verify_game", str(path))


def test_verify_game_exit_status(export: dict[str, Any], tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(export))
    bad.write_text(json.dumps(_tampered(export, "other seed")))
    run = [sys.executable, "manage.py", "verify_game"]
    ok = subprocess.run(
        [*run, str(good)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert ok.returncode == 0, ok.stderr
    failed = subprocess.run(
        [*run, str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert failed.returncode == 1
    assert "sha256(seed)" in failed.stdout
