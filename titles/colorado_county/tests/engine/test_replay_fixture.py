"""Stored games replay exactly as they did before the speed work of issue 16.

``fixtures/replay_a99c213.json`` was recorded by ``replay_fixture.py`` with the engine of
commit a99c213: for six games (2-4 players, both lake and flag options, random and greedy
bots) the move log and, per move, a digest of the events, the dumped state, every seat's
view, the legal actions and the seats to act.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import get_rules
from games.engine.bots import get_bot

from .replay_fixture import step_record

FIXTURE = Path(__file__).with_name("fixtures") / "replay_a99c213.json"
GAMES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
RULES = get_rules("colorado-county")


@pytest.mark.parametrize("game", GAMES, ids=[g["seed"] for g in GAMES])
def test_a_stored_move_log_gives_the_same_states_events_and_views(game: dict[str, Any]) -> None:
    state, setup_events = RULES.setup_events(game["players"], game["seed"], game["options"])
    got = [step_record(RULES, state, setup_events)]
    for seat, action in game["moves"]:
        state, events = RULES.apply(state, seat, action)
        got.append(step_record(RULES, state, events))
    first_bad = next(
        (i for i, (a, b) in enumerate(zip(got, game["digests"], strict=False)) if a != b), None
    )
    assert first_bad is None, f"move {first_bad} differs from the a99c213 engine"
    assert len(got) == len(game["digests"])
    assert RULES.dump(state) == game["final"]
    assert RULES.dump(RULES.load(game["final"])) == game["final"]


@pytest.mark.parametrize("game", GAMES, ids=[g["seed"] for g in GAMES])
def test_the_bots_still_choose_the_same_moves(game: dict[str, Any]) -> None:
    state = RULES.setup(game["players"], game["seed"], game["options"])
    rngs = [random.Random(f"{game['seed']}:{p}") for p in range(game["players"])]  # noqa: S311
    bots = [get_bot("colorado-county", b) for b in game["bots"]]
    for seat, action in game["moves"]:
        assert min(RULES.to_act(state)) == seat
        legal = RULES.legal_actions(state, seat)
        chosen = bots[seat].choose(RULES, RULES.view(state, seat), legal, rngs[seat])
        assert chosen == action
        state, _ = RULES.apply(state, seat, action)
    assert RULES.is_over(state)
