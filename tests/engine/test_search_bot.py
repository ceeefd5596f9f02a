"""The ``search`` bot (issue 16), for every title that declares the ``determinise`` hook:
how callers get it and set its budget, that it always plays a legal move, that a fixed
seed with an iteration cap replays the same game, and that ``simulate`` takes its budget.
That it decides from the seat's view alone (hidden parts only through ``determinise``) is
tested by the conformance suite and each title's own tests. Strength is measured by
``bench/bots.py``, not here."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import IllegalAction, determinising, get_rules, search_actions, title_slugs
from games.engine.__main__ import main, simulate
from games.engine.bots import (
    DEFAULT_SECONDS,
    SearchBot,
    bot_names,
    choose_action,
    get_bot,
)
from tests.tiny_title import registered

#: The titles the search can play: those that declare the ``determinise`` hook.
TITLES = [slug for slug in title_slugs() if determinising(get_rules(slug))]


def medium(slug: str) -> str:
    """The title's medium bot (its heuristic), the search's usual opponent."""
    return get_rules(slug).declaration.bot_levels["medium"]


def rand(seed: int | str) -> random.Random:
    """A seeded generator (for bots and test data, not for security)."""
    return random.Random(seed)  # noqa: S311


def test_search_is_offered_for_titles_with_the_determinise_hook_only() -> None:
    assert TITLES
    for slug in title_slugs():
        assert ("search" in bot_names(slug)) == (slug in TITLES)
    with registered():  # the test-only title has no determinise hook
        assert "search" not in bot_names("tiny-duel")
        with pytest.raises(KeyError, match="Unknown bot 'search' for tiny-duel"):
            get_bot("tiny-duel", "search")


@pytest.mark.parametrize("slug", TITLES)
def test_get_bot_sets_the_budget(slug: str) -> None:
    bot = get_bot(slug, "search")
    assert isinstance(bot, SearchBot)
    assert (bot.seconds, bot.iterations) == (DEFAULT_SECONDS, None) == (2.0, None)
    capped = get_bot(slug, "search", iterations=7)
    assert isinstance(capped, SearchBot)
    assert (capped.seconds, capped.iterations) == (None, 7)  # no clock: reproducible
    timed = get_bot(slug, "search", seconds=0.25)
    assert isinstance(timed, SearchBot)
    assert (timed.seconds, timed.iterations) == (0.25, None)
    both = get_bot(slug, "search", seconds=1.5, iterations=50)
    assert isinstance(both, SearchBot)
    assert (both.seconds, both.iterations) == (1.5, 50)
    # Bots that do not search ignore the budget.
    assert get_bot(slug, medium(slug), seconds=1.0) is get_bot(slug, medium(slug))
    for bad in ({"seconds": 0}, {"seconds": -1.0}, {"iterations": 0}):
        with pytest.raises(ValueError, match="positive"):
            get_bot(slug, "search", **bad)


@pytest.mark.parametrize("slug", TITLES)
def test_without_the_state_the_search_bot_plays_as_the_stand_in(slug: str) -> None:
    rules = get_rules(slug)
    s = rules.setup(rules.min_players, "stand-in")
    seat = min(rules.to_act(s))
    view, legal = rules.view(s, seat), rules.legal_actions(s, seat)
    greedy = get_bot(slug, rules.stand_in_bot).choose(rules, view, legal, rand(3))
    assert get_bot(rules.slug, "search").choose(rules, view, legal, rand(3)) == greedy


def walk(slug: str, n: int, seed: int) -> Iterator[Any]:
    """States of a game between random and greedy players (Colorado County's random
    player sells land now and then, so the sale stages come up)."""
    rules = get_rules(slug)
    rnd = rand(seed)
    names = ["random", medium(slug)]
    bots = [get_bot(slug, names[(p + seed) % 2]) for p in range(n)]
    s = rules.setup(n, f"walk-{seed}")
    while not rules.is_over(s):
        yield s
        seat = min(rules.to_act(s))
        s, _ = rules.apply(s, seat, choose_action(bots[seat], rules, s, seat, rnd))


@pytest.mark.parametrize(
    ("slug", "n", "every"),
    [
        (slug, n, every)
        for slug in TITLES
        for n, every in ((get_rules(slug).min_players, 4), (get_rules(slug).max_players, 9))
    ],
)
def test_the_search_bot_always_plays_a_legal_move(slug: str, n: int, every: int) -> None:
    rules = get_rules(slug)
    bot = get_bot(slug, "search", iterations=3)
    kinds: set[str] = set()
    checked = 0
    for step, s in enumerate(walk(slug, n, n)):
        if step % every:
            continue
        for seat in sorted(rules.to_act(s)):
            action = choose_action(bot, rules, s, seat, rand(step))
            try:
                rules.apply(s, seat, action)
            except IllegalAction as exc:  # pragma: no cover - the failure message
                pytest.fail(f"illegal {action!r} at step {step}: {exc.code}")
            kinds.add(action["type"])
            checked += 1
    assert checked > 10
    assert len(kinds) >= 3, kinds


def play(slug: str, n: int, seed: str, moves: int) -> list[tuple[int, dict[str, Any]]]:
    rules = get_rules(slug)
    bots = [get_bot(slug, "search", iterations=4), get_bot(slug, medium(slug))] * 3
    rngs = [rand(f"{seed}:{p}") for p in range(n)]
    s = rules.setup(n, seed)
    log = []
    while not rules.is_over(s) and len(log) < moves:
        seat = min(rules.to_act(s))
        action = choose_action(bots[seat], rules, s, seat, rngs[seat])
        log.append((seat, action))
        s, _ = rules.apply(s, seat, action)
    return log


@pytest.mark.parametrize("slug", TITLES)
def test_a_fixed_seed_with_an_iteration_cap_replays_the_same_game(slug: str) -> None:
    first = play(slug, 2, "replay-1", 40)
    assert play(slug, 2, "replay-1", 40) == first
    assert len(first) == 40
    assert play(slug, 2, "replay-2", 40) != first


def test_simulate_sets_the_search_budget(capsys: pytest.CaptureFixture[str]) -> None:
    slug = TITLES[-1]
    summary = simulate(slug, 2, 1, ["search", medium(slug)], "sim", bot_iterations=2)
    assert summary["games"] == 1
    assert sum(summary["wins"].values()) >= 1
    argv = ["simulate", "--game", slug, "--players", "2", "--games", "1"]
    argv += ["--bots", f"search,{medium(slug)}"]
    assert main([*argv, "--bot-iterations", "2", "--seed", "sim"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["scores"] == summary["scores"]
    for flag, value in (("--bot-seconds", "0"), ("--bot-iterations", "0")):
        with pytest.raises(SystemExit):
            main([*argv, flag, value])
        assert "must be" in capsys.readouterr().err


def test_the_search_stops_once_the_rest_of_its_budget_cannot_change_its_move() -> None:
    """Under an iteration cap the early stop is exact: the move is the one the whole budget
    gives, and some decisions need fewer iterations than the cap. (The cap is small: each
    iteration plays a game out, and 300 took this test past its five-minute limit on a
    loaded machine once the first searching title was one with long games.)"""
    rules = get_rules(TITLES[0])
    cap = 100
    greedy = get_bot(rules.slug, medium(rules.slug))
    rnd = rand(5)
    s = rules.setup(2, "decided")
    saved = compared = 0
    step = 0
    while not rules.is_over(s) and compared < 12:
        seat = min(rules.to_act(s))
        if step % 5 == 0 and len(search_actions(rules)(s, seat)) > 1:  # what it weighs
            whole, whole_stats = SearchBot(None, cap, stop_when_decided=False).search(
                rules, s, seat, rand(step)
            )
            early, early_stats = SearchBot(None, cap).search(rules, s, seat, rand(step))
            assert early == whole, f"step {step}"
            assert whole_stats.iterations == cap
            assert early_stats.iterations <= cap
            saved += whole_stats.iterations - early_stats.iterations
            compared += 1
        s, _ = rules.apply(s, seat, choose_action(greedy, rules, s, seat, rnd))
        step += 1
    assert compared == 12
    assert saved > 0


def test_decided_counts_the_iterations_left_against_the_leader() -> None:
    from games.engine.bots.search import Node, decided

    root = Node()
    keys = ["a", "b", "c"]
    root.child("a").visits = 100
    root.child("b").visits = 40
    # "c" has never been tried: it could still take every iteration left.
    assert decided(root, keys, 140, 59, prior_visits=0)
    assert not decided(root, keys, 140, 60, prior_visits=0)  # b could tie at 100
    # The prior's virtual visits grow with the iterations done (a share of them).
    root.child("b").bonus = 10
    assert not decided(root, keys, 140, 20, prior_visits=10)  # b: 40 + 20 + 10 > 100 - 0
