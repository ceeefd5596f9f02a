"""Engine benchmark: random playouts per second, ``apply`` time and greedy move time.

    python bench/engine.py                 # defaults finish in well under a minute
    python bench/engine.py --games 500 --greedy-games 20

Random playouts use a cheap uniform chooser over ``legal_actions`` (generated every step,
and counted in the games per second): bids are a random subset of the listed cowboys,
20 % of them empty; a drawn ``sell`` is kept with 2 % probability. Greedy move time is
one whole decision as a server would make it: the seat's view, its legal actions and the
bot's ``choose``, measured on greedy-against-greedy games. Times are wall-clock
(``perf_counter``); CPU time (``process_time``) is printed beside them because a shared
machine can slow the wall clock down.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SELL_CHANCE = 0.02


def uniform_choice(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A uniformly drawn legal action; a drawn ``sell`` is kept with 2 % probability (else
    redrawn among the others); a drawn bid becomes a random subset of the listed cowboys,
    empty one time in five."""
    action = rng.choice(legal)
    kind = action["type"]
    if kind == "sell" and rng.random() >= SELL_CHANCE:
        others = [a for a in legal if a["type"] != "sell"]
        if others:
            action = rng.choice(others)
            kind = action["type"]
    if kind == "bid" or kind == "sale_bid":
        if kind == "bid" and rng.random() < 0.2:
            return {"type": "bid", "cowboys": []}
        pool = [a["cowboys"][0] for a in legal if a["type"] == kind and a["cowboys"]]
        k = min(rng.randint(1, len(pool)), rng.randint(1, 4))
        return {"type": kind, "cowboys": rng.sample(pool, k)}
    return action


def random_playouts(game: Any, players: int, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    actions = 0
    apply_seconds = 0.0
    wall = time.perf_counter()
    cpu = time.process_time()
    for i in range(games):
        state = game.setup(players, f"bench-{seed}-{i}")
        while not game.is_over(state):
            seat = min(game.to_act(state))
            action = uniform_choice(game.legal_actions(state, seat), rng)
            t = time.perf_counter()
            state, _ = game.apply(state, seat, action)
            apply_seconds += time.perf_counter() - t
            actions += 1
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    return {
        "games_per_second": games / wall,
        "games_per_cpu_second": games / cpu,
        "actions_per_game": actions / games,
        "apply_us": apply_seconds / actions * 1e6,
    }


def greedy_moves(game: Any, players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Times in ms of every greedy decision: ``move`` (wall), ``cpu`` (process time) and
    its parts ``view``, ``legal`` and ``choose`` (wall)."""
    from games.engine.bots import get_bot

    bot = get_bot(game.slug, "greedy")
    out: dict[str, list[float]] = {k: [] for k in ("move", "cpu", "view", "legal", "choose")}
    for i in range(games):
        state = game.setup(players, f"greedy-{seed}-{i}")
        rngs = [random.Random(f"{seed}:{i}:{p}") for p in range(players)]
        while not game.is_over(state):
            seat = min(game.to_act(state))
            t0, c0 = time.perf_counter(), time.process_time()
            view = game.view(state, seat)
            t1 = time.perf_counter()
            legal = game.legal_actions(state, seat)
            t2 = time.perf_counter()
            action = bot.choose(game, view, legal, rngs[seat])
            t3, c3 = time.perf_counter(), time.process_time()
            for key, value in (
                ("move", t3 - t0),
                ("cpu", c3 - c0),
                ("view", t1 - t0),
                ("legal", t2 - t1),
                ("choose", t3 - t2),
            ):
                out[key].append(value * 1000)
            state, _ = game.apply(state, seat, action)
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per player count")
    parser.add_argument(
        "--greedy-games", type=int, default=6, help="greedy-vs-greedy games per player count"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from games.engine import get_rules

    game = get_rules("colorado-county")
    print(
        f"machine: {platform.machine()} ({platform.system()}), "
        f"Python {platform.python_version()} ({platform.python_implementation()})"
    )
    print(f"random playouts, {args.games} games per player count (uniform legal actions):")
    for players in (2, 3, 4):
        r = random_playouts(game, players, args.games, args.seed)
        print(
            f"  {players} players: {r['games_per_second']:7.1f} games/s "
            f"({r['games_per_cpu_second']:.1f} per CPU second), "
            f"{r['actions_per_game']:.0f} actions/game, apply {r['apply_us']:.1f} us"
        )
    print(f"greedy move (view + legal_actions + choose), {args.greedy_games} games per count:")
    for players in (2, 3, 4):
        t = greedy_moves(game, players, args.greedy_games, args.seed)
        wall, cpu = t["move"], t["cpu"]
        print(
            f"  {players} players: mean {statistics.fmean(wall):.2f} ms, "
            f"p99 {p99(wall):.2f} ms, max {max(wall):.2f} ms "
            f"(CPU mean {statistics.fmean(cpu):.2f}, p99 {p99(cpu):.2f}, max {max(cpu):.2f} ms; "
            f"view {statistics.fmean(t['view']):.2f}, legal {statistics.fmean(t['legal']):.2f}, "
            f"choose {statistics.fmean(t['choose']):.2f} ms) over {len(wall)} moves"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
