"""Bot strength benchmark (issue 16): the ``search`` bot against ``greedy``, and ``greedy``
against ``random``, with fixed seeds.

    python bench/bots.py --game colorado-county --players 2 --games 200 --seconds 2
    python bench/bots.py --players 3 --games 40 --seconds 0.5 --workers 2
    python bench/bots.py --bots greedy,random --games 200
    python bench/bots.py --iterations 200          # no clock: reproducible figures

Seats: like ``simulate``, game ``i`` seats the bots in the given order shifted by ``i``
(cycling when there are more seats than names), so each bot takes every seat in turn;
``--bots search,greedy,greedy`` seats one search bot against two greedy ones.
Game ``i`` uses the engine seed ``"<seed>:<i>"``, seat ``p`` the generator
``random.Random("<seed>:<i>:<p>")``. A game is a win for every seat sharing the top score;
``wins`` counts them per bot, ``win_rate`` is wins per seat played (``seat_games``) and
``win_share`` the same counting a k-way tie as 1/k, to compare with ``even_share``
(1 / players). For the search bot every decision
with more than one candidate is timed: mean and p95 move seconds, mean iterations per
move and iterations per second (all wall clock; the CPU time of the run is printed too,
because other processes on a shared machine slow the wall clock down). ``--workers``
plays games in parallel processes (each game is still one process, so the per-move
budget is unchanged, but parallel games compete for the cores).

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import get_rules  # noqa: E402
from games.engine.bots import SearchBot, choose_action, get_bot  # noqa: E402


def play(job: dict[str, Any]) -> dict[str, Any]:
    """Play game ``job["index"]``; return its result and the search bot's timings."""
    rules = get_rules(job["game"])
    names: list[str] = job["names"]
    bots = [
        get_bot(job["game"], n, seconds=job["seconds"], iterations=job["iterations"]) for n in names
    ]
    seed = f"{job['seed']}:{job['index']}"
    state = rules.setup(len(names), seed, job["options"])
    rngs = [random.Random(f"{seed}:{p}") for p in range(len(names))]
    move_seconds: list[float] = []
    iterations = 0
    search_seconds = 0.0
    actions = 0
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        bot = bots[seat]
        if isinstance(bot, SearchBot):
            action, stats = bot.search(rules, state, seat, rngs[seat])
            if stats.iterations:
                move_seconds.append(stats.seconds)
                iterations += stats.iterations
                search_seconds += stats.seconds
        else:
            action = choose_action(bot, rules, state, seat, rngs[seat])
        state, _ = rules.apply(state, seat, action)
        actions += 1
    return {
        "index": job["index"],
        "names": names,
        "result": rules.result(state),
        "actions": actions,
        "move_seconds": move_seconds,
        "iterations": iterations,
        "search_seconds": search_seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="colorado-county")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", default="search,greedy", help="comma-separated bot names")
    parser.add_argument("--seconds", type=float, default=None, help="search time per move")
    parser.add_argument("--iterations", type=int, default=None, help="search iteration cap")
    parser.add_argument("--seed", default="bench-bots")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = dict(item.partition("=")[::2] for item in args.option)
    jobs = [
        {
            "game": args.game,
            "names": [names[(p + i) % len(names)] for p in range(args.players)],
            "seed": args.seed,
            "index": i,
            "options": options,
            "seconds": args.seconds,
            "iterations": args.iterations,
        }
        for i in range(args.first, args.first + args.games)
    ]
    started = time.perf_counter()
    cpu = time.process_time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            games = list(pool.map(play, jobs))
    else:
        games = [play(job) for job in jobs]
    seconds = time.perf_counter() - started
    print(json.dumps(summary(args, names, games, seconds, time.process_time() - cpu)))
    return 0


def summary(
    args: argparse.Namespace,
    names: list[str],
    games: list[dict[str, Any]],
    seconds: float,
    cpu_seconds: float,
) -> dict[str, Any]:
    wins = dict.fromkeys(names, 0)
    share = dict.fromkeys(names, 0.0)
    seats = dict.fromkeys(names, 0)
    scores: dict[str, list[int]] = {n: [] for n in names}
    margins: list[int] = []
    for g in games:
        result = g["result"]
        top = max(result)
        winners = [p for p, r in enumerate(result) if r == top]
        for p, name in enumerate(g["names"]):
            seats[name] += 1
            scores[name].append(result[p])
            if p in winners:
                wins[name] += 1
                share[name] += 1 / len(winners)
        if len(names) == 2 and len(result) == 2:
            first = g["names"].index(names[0])
            margins.append(result[first] - result[1 - first])
    moves = [s for g in games for s in g["move_seconds"]]
    iterations = sum(g["iterations"] for g in games)
    search_seconds = sum(g["search_seconds"] for g in games)
    out: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "games": len(games),
        "first_game": args.first,
        "bots": names,
        "seed": args.seed,
        "budget": {"seconds": args.seconds, "iterations": args.iterations},
        "workers": args.workers,
        "wins": wins,
        "seat_games": seats,
        "win_rate": {n: round(wins[n] / seats[n], 4) for n in names if seats[n]},
        "win_share": {n: round(share[n] / seats[n], 4) for n in names if seats[n]},
        "even_share": round(1 / args.players, 4),
        "mean_score": {n: round(statistics.fmean(v), 2) for n, v in scores.items() if v},
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu_seconds, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
    }
    if margins:
        out["mean_margin"] = {names[0]: round(statistics.fmean(margins), 2)}
    if moves:
        ordered = sorted(moves)
        out["search"] = {
            "moves": len(moves),
            "mean_move_seconds": round(statistics.fmean(moves), 4),
            "p95_move_seconds": round(ordered[int(0.95 * (len(ordered) - 1))], 4),
            "iterations_per_move": round(iterations / len(moves), 1),
            "iterations_per_second": round(iterations / search_seconds, 1),
        }
    return out


if __name__ == "__main__":
    sys.exit(main())
