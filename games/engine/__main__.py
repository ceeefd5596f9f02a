"""Command line: ``python -m games.engine simulate ...`` plays games between bots (CC-12).

    python -m games.engine simulate --game <slug> --players 2 --games 200 \\
        --bots <bot>,random --seed 1

prints one JSON object on stdout. Bots are seated in the given order, cycling through the
names if there are fewer than players; game ``i`` shifts the names by ``i`` so that every
bot takes every seat in turn. Game ``i`` uses the engine seed ``"<seed>:<i>"`` and seat
``p``'s bot the generator ``random.Random("<seed>:<i>:<p>")``, so a run is reproducible.
``--bot-seconds S`` and ``--bot-iterations N`` set the budget per move of searching bots
(``search``; default 2 s); with ``--bot-iterations`` alone the run stays reproducible.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from . import (
    IllegalAction,
    Rules,
    _native,
    final_ranks,
    get_rules,
    listed_title_slugs,
    title_slugs,
    validate_options,
)
from .bots import Bot, bot_names, choose_action, get_bot


def seat_bots(names: Sequence[str], players: int, game_index: int) -> list[str]:
    """The bot name of each seat in game ``game_index`` (cycling, shifted per game)."""
    return [names[(p + game_index) % len(names)] for p in range(players)]


def next_move(rules: Rules, state: Any, seat: int, bot: Bot, rng: random.Random) -> Any:
    """Ask ``bot`` for ``seat``'s action: only that seat's view and actions, or for a
    searching bot the state, whose hidden parts it reads only through ``determinise``."""
    return choose_action(bot, rules, state, seat, rng)


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: str,
    options: dict[str, Any] | None = None,
    max_actions: int = 20_000,
) -> tuple[Any, int]:
    """Play one game to the end; return the final state and the number of actions."""
    state = rules.setup(len(bots), seed, options)
    rngs = [random.Random(f"{seed}:{p}") for p in range(len(bots))]  # noqa: S311
    actions = 0
    while not rules.is_over(state):
        seat = min(rules.to_act(state))  # simultaneous steps are sealed: any order will do
        action = next_move(rules, state, seat, bots[seat], rngs[seat])
        try:
            state, _ = rules.apply(state, seat, action)
        except IllegalAction as exc:
            raise RuntimeError(
                f"bot {bots[seat].name!r} (seat {seat}) chose an illegal action "
                f"{action!r}: {exc.code}: {exc.message}"
            ) from exc
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game {seed} did not end after {max_actions} actions")
    return state, actions


def simulate(
    slug: str,
    players: int,
    games: int,
    bot_list: Sequence[str],
    seed: str,
    options: dict[str, Any] | None = None,
    bot_seconds: float | None = None,
    bot_iterations: int | None = None,
) -> dict[str, Any]:
    """Play ``games`` games and return the summary printed by ``simulate``;
    ``bot_seconds``/``bot_iterations`` set the budget of searching bots."""
    rules = get_rules(slug)
    bots = {
        name: get_bot(slug, name, seconds=bot_seconds, iterations=bot_iterations)
        for name in bot_list
    }
    scores: dict[str, list[int]] = {name: [] for name in bots}
    wins = dict.fromkeys(bots, 0)
    seat_wins = [0] * players
    shared = 0
    lengths: list[int] = []
    by_limit = 0
    total_actions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    for i in range(games):
        names = seat_bots(bot_list, players, i)
        state, actions = play_game(rules, [bots[n] for n in names], f"{seed}:{i}", options)
        total_actions += actions
        lengths.append(rules.elapsed(state))
        by_limit += rules.ended_by_limit(state)
        result = rules.result(state)
        ranks = final_ranks(rules, state)
        winners = [p for p in range(players) if ranks[p] == 1]
        shared += len(winners) > 1
        for p, name in enumerate(names):
            scores[name].append(result[p])
            if p in winners:
                wins[name] += 1
                seat_wins[p] += 1
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    return {
        "game": slug,
        "players": players,
        "games": games,
        "bots": list(bot_list),
        "seed": seed,
        "options": options or {},
        "actions": total_actions,
        "actions_per_game": round(total_actions / games, 2) if games else 0,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu_seconds, 4),
        "games_per_second": round(games / seconds, 3) if seconds > 0 else None,
        "engine": "compiled"
        if _native.compiled(type(rules).__module__.rpartition(".")[0])
        else "interpreted",
        "scores": {name: score_stats(values) for name, values in scores.items()},
        "wins": wins,
        "seat_games": {name: len(values) for name, values in scores.items()},
        "win_rate": {
            name: round(wins[name] / len(scores[name]), 4) if scores[name] else None
            for name in bots
        },
        "shared_wins": shared,
        "wins_by_seat": seat_wins,
        rules.declaration.length.unit: length_stats(lengths, by_limit),
    }


def length_stats(lengths: list[int], by_limit: int) -> dict[str, Any]:
    """The games' lengths in the title's declared unit: median, 10th and 90th percentiles,
    and how many games ended by a length limit rather than by their own end."""
    if not lengths:
        return {"median": None, "p10": None, "p90": None, "by_limit": 0}
    ordered = sorted(lengths)

    def at(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "median": statistics.median(ordered),
        "p10": at(0.1),
        "p90": at(0.9),
        "by_limit": by_limit,
    }


def score_stats(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "min": None, "max": None, "stdev": None, "all": []}
    return {
        "mean": round(statistics.fmean(values), 3),
        "min": min(values),
        "max": max(values),
        "stdev": round(statistics.pstdev(values), 3),
        "all": values,
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games between bots and print JSON figures")
    sim.add_argument(
        "--game", default=listed_title_slugs()[0], help=f"title slug ({', '.join(title_slugs())})"
    )
    sim.add_argument("--players", type=int, required=True, help="number of seats")
    sim.add_argument("--games", type=int, default=10, help="number of games (K)")
    sim.add_argument(
        "--bots",
        default="random",
        help="comma-separated bot names, seated in order and cycled ("
        + "; ".join(f"{slug}: {', '.join(bot_names(slug))}" for slug in title_slugs())
        + ")",
    )
    sim.add_argument("--seed", default="0", help="master seed (string or integer)")
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, NAME=VALUE from the title's options (repeatable; the value "
        "as text, e.g. round_limit=30)",
    )
    sim.add_argument(
        "--bot-seconds",
        type=float,
        default=None,
        metavar="S",
        help="thinking time per move of searching bots (default 2.0)",
    )
    sim.add_argument(
        "--bot-iterations",
        type=int,
        default=None,
        metavar="N",
        help="iteration cap per move of searching bots (alone: no clock, reproducible)",
    )
    args = parser.parse_args(argv)
    if args.bot_seconds is not None and not args.bot_seconds > 0:
        parser.error("--bot-seconds must be positive")
    if args.bot_iterations is not None and args.bot_iterations < 1:
        parser.error("--bot-iterations must be at least 1")
    if args.game not in title_slugs():
        parser.error(f"unknown game {args.game!r}; known games: {', '.join(title_slugs())}")
    rules = get_rules(args.game)
    if not rules.min_players <= args.players <= rules.max_players:
        parser.error(
            f"--players must be between {rules.min_players} and {rules.max_players} for {args.game}"
        )
    if args.games < 1:
        parser.error("--games must be at least 1")
    args.bot_list = [b.strip() for b in args.bots.split(",") if b.strip()]
    known = bot_names(args.game)
    unknown = [b for b in args.bot_list if b not in known]
    if not args.bot_list:
        parser.error(f"--bots needs at least one bot name; known bots: {', '.join(known)}")
    if unknown:
        parser.error(
            f"unknown bot(s) {', '.join(map(repr, unknown))} for {args.game}; "
            f"known bots: {', '.join(known)}"
        )
    raw: dict[str, str] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option takes NAME=VALUE, not {item!r}")
        raw[name] = value
    try:
        args.options = validate_options(args.game, raw)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    summary = simulate(
        args.game,
        args.players,
        args.games,
        args.bot_list,
        str(args.seed),
        args.options,
        bot_seconds=args.bot_seconds,
        bot_iterations=args.bot_iterations,
    )
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
