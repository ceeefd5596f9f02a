"""Every title keeps the rules' contract (``games.engine.Rules`` and its declaration), for
every seat count: games end within the declared length; ``apply`` never changes its input;
events and dumps share nothing mutable with any state; dump and load round-trip; the same
seed and moves give the same game, in this process and in a fresh one with another hash
seed; sealed steps and hidden parts never reach another seat's view or events; every bot
level plays whole games; every option value plays; ``simulate`` takes options as text.
No database: these are engine tests."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.engine import determinising, get_rules
from games.engine.__main__ import main as simulate_main
from games.engine.bots import get_bot
from games.engine.replay import replay
from tests.conformance.playing import (
    all_views,
    bots_for,
    canonical,
    play,
    scramble,
    state_fingerprint,
    steps,
)

ROOT = Path(__file__).resolve().parents[2]


def test_games_end_within_the_declared_length(slug: str, seats: int) -> None:
    rules = get_rules(slug)
    most = rules.declaration.length.most[seats]
    for game in range(3):
        for step in steps(slug, seats, f"length:{game}"):
            assert rules.elapsed(step.after) <= most, (slug, seats, rules.elapsed(step.after))
        assert rules.is_over(step.after)
        assert len(rules.result(step.after)) == seats


def test_apply_never_changes_its_input(slug: str, seats: int) -> None:
    rules = get_rules(slug)
    for step in steps(slug, seats, "purity", fingerprint=True):
        assert state_fingerprint(rules, step.before, seats) == step.before_fingerprint, (
            f"{slug}: apply changed the state it was given"
        )


def test_events_and_dumps_share_nothing_mutable_with_the_state(slug: str, seats: int) -> None:
    rules = get_rules(slug)
    for number, step in enumerate(steps(slug, seats, "aliasing")):
        if number % 3:
            continue
        dump_before = canonical(rules.dump(step.after))
        views_before = canonical(all_views(rules, step.after, seats))
        scramble(step.events)
        scramble(rules.dump(step.after))
        scramble(rules.dump(step.before))
        assert canonical(rules.dump(step.after)) == dump_before, (
            f"{slug}: changing an event or a dump changed the game"
        )
        assert canonical(all_views(rules, step.after, seats)) == views_before


def test_dump_and_load_round_trip_at_every_step(slug: str, seats: int) -> None:
    rules = get_rules(slug)
    for step in steps(slug, seats, "round-trip"):
        dumped = rules.dump(step.after)
        stored = json.loads(json.dumps(dumped))  # what the database keeps
        loaded = rules.load(stored)
        assert canonical(rules.dump(loaded)) == canonical(dumped)
        assert rules.to_act(loaded) == rules.to_act(step.after)
        assert rules.is_over(loaded) == rules.is_over(step.after)
        for seat in range(seats):
            assert canonical(rules.legal_actions(loaded, seat)) == canonical(
                rules.legal_actions(step.after, seat)
            )
        assert canonical(all_views(rules, loaded, seats)) == canonical(
            all_views(rules, step.after, seats)
        )


def _digest(slug: str, seats: int, seed: str, options: Any, moves: list[Any]) -> str:
    done = replay(slug, seed=seed, num_players=seats, options=options, moves=moves)
    rules = get_rules(slug)
    text = canonical([rules.dump(done.state), done.setup_events, done.events])
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_same_seed_and_moves_give_the_same_game(slug: str, seats: int) -> None:
    rules = get_rules(slug)
    first, second = play(slug, seats, "determinism"), play(slug, seats, "determinism")
    assert first.moves == second.moves
    assert canonical(rules.dump(first.final)) == canonical(rules.dump(second.final))
    done = replay(slug, seed="determinism", num_players=seats, options=None, moves=first.moves)
    assert canonical(rules.dump(done.state)) == canonical(rules.dump(first.final))
    assert canonical(done.setup_events) == canonical(first.setup_events)
    assert canonical(done.events) == canonical(first.events)


REPLAY_IN_A_FRESH_PROCESS = """
import json, sys
from games.engine import register
from tests.conformance.titles_under_test import TEST_ONLY
from tests.conformance.test_rules_contract import _digest
register(TEST_ONLY)
slug, seats, seed, moves = json.loads(sys.stdin.read())
print(_digest(slug, seats, seed, None, [tuple(m) for m in moves]))
"""


def test_a_fresh_process_with_another_hash_seed_replays_the_same_game(
    slug: str, seats: int
) -> None:
    game = play(slug, seats, "fresh-process")
    here = _digest(slug, seats, "fresh-process", None, game.moves)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO")}
    there = {}
    for hash_seed in ("1", "4242"):
        done = subprocess.run(
            [sys.executable, "-c", REPLAY_IN_A_FRESH_PROCESS],
            input=json.dumps([slug, seats, "fresh-process", game.moves]),
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**env, "PYTHONHASHSEED": hash_seed},
            check=False,
        )
        assert done.returncode == 0, done.stderr
        there[hash_seed] = done.stdout.strip()
    assert there == {"1": here, "4242": here}


def _visible(events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    out = []
    for event in events:
        to = event.get("visible_to", "all")
        if to == "all" or (seat is not None and isinstance(to, list) and seat in to):
            out.append(event)
    return out


def test_a_sealed_choice_never_reaches_another_seat_before_its_reveal(
    sealed_slug: str, seats: int
) -> None:
    """For each sealed action played, another legal action of the same step gives every
    other seat and the spectators the same view and the same events (unless the action
    itself made the reveal)."""
    slug = sealed_slug
    rules = get_rules(slug)
    sealed = rules.sealed_steps
    compared = 0
    for step in steps(slug, seats, "sealed"):
        kind = step.action.get("type")
        if kind not in sealed or any(e.get("type") == sealed[kind] for e in step.events):
            continue
        for other in rules.legal_actions(step.before, step.seat):
            if other.get("type") != kind or canonical(other) == canonical(step.action):
                continue
            alt, alt_events = rules.apply(step.before, step.seat, other)
            if any(e.get("type") == sealed[kind] for e in alt_events):
                continue
            for seat in [*range(seats), None]:
                if seat == step.seat:
                    continue
                assert canonical(rules.view(alt, seat)) == canonical(
                    rules.view(step.after, seat)
                ), f"seat {seat} sees seat {step.seat}'s sealed {kind}"
                assert canonical(_visible(alt_events, seat)) == canonical(
                    _visible(step.events, seat)
                ), f"seat {seat}'s events show seat {step.seat}'s sealed {kind}"
            compared += 1
            break
    assert compared, f"no sealed {', '.join(sealed)} step was compared in a whole game"


def test_views_show_no_part_a_seat_cannot_see(hidden_slug: str, seats: int) -> None:
    """Each seat's view, and the spectators', are the same whatever the parts hidden from
    that seat are: the title's ``determinise`` redraws them and the view stays put. (Only
    where no other seat's sealed action waits for its reveal: ``determinise`` may drop
    those, the contract says, so that the search chooses them again.)"""
    slug = hidden_slug
    rules = get_rules(slug)
    hook = determinising(rules)
    assert hook is not None
    sealed = rules.sealed_steps
    rng = random.Random(f"{slug}:{seats}:hidden")  # noqa: S311
    pending: set[int] = set()
    checked = 0
    for number, step in enumerate(steps(slug, seats, "hidden")):
        revealed = {e.get("type") for e in step.events} & set(sealed.values())
        if revealed:
            pending.clear()
        elif step.action.get("type") in sealed:
            pending.add(step.seat)
        if number % 3 or rules.is_over(step.after):
            continue
        for seat in range(seats):
            if pending - {seat}:
                continue
            mine = canonical(rules.view(step.after, seat))
            public = canonical(rules.view(step.after, None))
            for _ in range(2):
                redrawn = hook.determinise(step.after, seat, rng)
                assert canonical(rules.view(redrawn, seat)) == mine
                assert canonical(rules.view(redrawn, None)) == public
                assert canonical(rules.legal_actions(redrawn, seat)) == canonical(
                    rules.legal_actions(step.after, seat)
                )
            checked += 1
    assert checked


def test_every_bot_level_plays_whole_games_legally(slug: str) -> None:
    rules = get_rules(slug)
    levels = rules.declaration.bot_levels
    assert {"easy", "medium"} <= set(levels), f"{slug} offers no easy or medium bot"
    for level, kind in levels.items():
        for seats in (rules.min_players, rules.max_players):
            if kind == "search" and seats != rules.min_players:
                continue  # one game of the searching bot is enough (and slow)
            game = play(slug, seats, f"level:{level}", bots=bots_for(slug, kind, seats))
            assert rules.is_over(game.final), (level, seats)


def test_every_option_value_plays(slug: str) -> None:
    rules = get_rules(slug)
    for name, option in rules.options_schema.items():
        for value in option.choices:
            game = play(slug, rules.min_players, f"option:{name}:{value}", options={name: value})
            assert rules.is_over(game.final)
            state = rules.setup(rules.min_players, "text", {name: str(value)})
            assert canonical(rules.dump(state)) == canonical(
                rules.dump(rules.setup(rules.min_players, "text", {name: value}))
            ), "an option given as text must mean its typed choice"


def test_simulate_takes_every_option_as_text(slug: str) -> None:
    rules = get_rules(slug)
    args = ["simulate", "--game", slug, "--players", str(rules.min_players)]
    args += ["--games", "1", "--bots", "random", "--seed", "cli"]
    for name, option in rules.options_schema.items():
        value = option.choices[-1]
        args += ["--option", f"{name}={value}"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert simulate_main(args) == 0
    summary = json.loads(out.getvalue())
    assert summary["options"] == {n: o.choices[-1] for n, o in rules.options_schema.items()}
    unit = rules.declaration.length.unit
    assert summary[unit]["median"] <= rules.declaration.length.most[rules.min_players]
    assert sum(summary["wins_by_seat"]) >= 1


def test_the_declared_bots_exist_and_carry_their_names(slug: str) -> None:
    rules = get_rules(slug)
    for kind in {*rules.declaration.bot_levels.values(), rules.stand_in_bot}:
        bot = get_bot(slug, kind)
        assert bot.name == kind
