"""``games.engine.replay`` on Colorado County games: a replay can keep every state, and a
refused move says which move it was and why (every title's replay is reproduced exactly in
the conformance suite)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import IllegalAction, get_rules
from games.engine.replay import MoveRefused, Replay, replay
from titles.colorado_county.tests.engine.helpers import random_move

Move = tuple[int, Any]


def play(slug: str, seed: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play a whole game with random moves, recording what a live table would store."""
    rules = get_rules(slug)
    rng = random.Random(seed)  # noqa: S311
    state, setup_events = rules.setup_events(players, seed, options)
    moves: list[Move] = []
    events: list[list[dict[str, Any]]] = []
    views: list[Any] = [rules.view(state, None)]
    while not rules.is_over(state):
        seat, action = random_move(state, rng)  # sales, bid replacements, seats at once
        state, move_events = rules.apply(state, seat, action)
        moves.append((seat, action))
        events.append(move_events)
        views.append(rules.view(state, None))
    return {
        "dump": rules.dump(state),
        "setup_events": setup_events,
        "moves": moves,
        "events": events,
        "views": views,
    }


def test_replay_reproduces_a_random_playout_exactly() -> None:
    """(Every title's replay is checked by the conformance suite; this one also checks the
    outcome's shape.)"""
    played = play("colorado-county", "r1", 4, {"lakes": "random", "flags": "random"})
    got = replay(
        "colorado-county",
        seed="r1",
        num_players=4,
        options={"lakes": "random", "flags": "random"},
        moves=played["moves"],
    )
    assert isinstance(got, Replay)
    assert get_rules("colorado-county").dump(got.state) == played["dump"]
    assert got.events == played["events"]
    assert got.moves == len(played["moves"]) > 5
    assert got.states == ()
    with pytest.raises(AttributeError):
        got.state = None  # type: ignore[misc]  # frozen


def test_replay_can_keep_every_state_for_a_replay_page() -> None:
    played = play("colorado-county", "keep", 3, {})
    got = replay(
        "colorado-county",
        seed="keep",
        num_players=3,
        options={},
        moves=played["moves"],
        keep_states=True,
    )
    rules = get_rules("colorado-county")
    assert len(got.states) == len(played["moves"]) + 1
    assert [rules.view(s, None) for s in got.states] == played["views"]
    assert got.states[-1] is got.state


def test_a_refused_move_says_which_move_and_why() -> None:
    played = play("colorado-county", "bad", 2, {})
    moves = list(played["moves"])
    index = 10
    seat, _action = moves[index]
    moves[index] = (seat, {"type": "bid", "cowboys": [999]})
    read: list[int] = []

    def lazily() -> Iterator[Move]:
        for i, move in enumerate(moves):
            read.append(i)
            yield move

    with pytest.raises(MoveRefused) as info:
        replay("colorado-county", seed="bad", num_players=2, options={}, moves=lazily())
    exc = info.value
    assert isinstance(exc, IllegalAction)
    assert exc.index == index
    assert exc.seat == seat
    assert exc.code == "wrong_phase"  # move 10 of this game is a flag placement
    assert exc.message.startswith(f"Move {index + 1} (by seat {seat}) is refused: ")
    assert exc.reason in exc.message
    assert read[-1] == index  # nothing after the refused move was read


def test_a_move_after_the_end_and_a_malformed_move_are_refused() -> None:
    played = play("colorado-county", "end", 2, {})
    extra = [*played["moves"], played["moves"][-1]]
    with pytest.raises(MoveRefused) as info:
        replay("colorado-county", seed="end", num_players=2, options={}, moves=extra)
    assert (info.value.index, info.value.code) == (len(extra) - 1, "game_over")
    with pytest.raises(MoveRefused) as info:
        replay("colorado-county", seed="end", num_players=2, options={}, moves=[{"seat": 0}])  # type: ignore[list-item]
    assert (info.value.index, info.value.code) == (0, "bad_move")
    with pytest.raises(MoveRefused) as info:
        replay("colorado-county", seed="end", num_players=2, options={}, moves=[(7, {})])
    assert info.value.code == "not_a_player"


def test_the_seed_matters_and_setup_errors_pass_through() -> None:
    played = play("colorado-county", "seed-a", 2, {})
    with pytest.raises(MoveRefused):
        replay("colorado-county", seed="seed-b", num_players=2, options={}, moves=played["moves"])
    with pytest.raises(ValueError, match="2, 3 or 4"):
        replay("colorado-county", seed=1, num_players=5, options={}, moves=[])
    with pytest.raises(ValueError, match="Unknown option"):
        replay("colorado-county", seed=1, num_players=2, options={"speed": 1}, moves=[])
    with pytest.raises(KeyError, match="Unknown title"):
        replay("chess", seed=1, num_players=2, options={}, moves=[])
