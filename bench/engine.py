"""Engine benchmark: random playouts per second, ``apply`` time and greedy move time.

    python bench/engine.py                 # defaults finish in well under a minute
    python bench/engine.py --games 500 --greedy-games 20
    python bench/engine.py --compare ../engine-old   # old tree vs this one, ratio

``--compare OLD`` times, in one run, the engine of another checkout (e.g. a ``git worktree``
of an older commit) against this one: ``simulate`` with four ``random`` bots, exactly as
``python -m games.engine simulate --players 4 --bots random,random,random,random`` plays
(view, legal actions, bot and ``apply`` at every step), and the uniform playouts below
(legal actions and ``apply`` only). Each tree runs in its own subprocess, alternately,
``--rounds`` times; the best round of each counts (the least disturbed by other load).

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


def worker(games: int, seed: int) -> dict[str, float]:
    """One measuring round in this process (``--root`` is on ``sys.path``)."""
    from games.engine import get_rules
    from games.engine.__main__ import simulate

    wall, cpu = time.perf_counter(), time.process_time()
    summary = simulate("colorado-county", 4, games, ["random"] * 4, f"cmp-{seed}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    r = random_playouts(get_rules("colorado-county"), 4, games, seed)
    return {
        "engine": str(sys.modules["games.engine"].__file__),
        "engine_kind": str(summary.get("engine", "interpreted")),
        "simulate_gps": games / wall,
        "simulate_cpu_gps": games / cpu,
        "simulate_actions": summary["actions_per_game"],
        "uniform_gps": r["games_per_second"],
        "uniform_cpu_gps": r["games_per_cpu_second"],
        "uniform_apply_us": r["apply_us"],
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def compare(old: Path, games: int, rounds: int, seed: int) -> int:
    import json
    import subprocess

    trees = {"old": old.resolve(), "new": ROOT}
    best: dict[str, dict[str, float]] = {}
    for i in range(rounds):
        for name, root in trees.items():
            args = ["--worker", "--root", str(root), "--games", str(games), "--seed", str(seed + i)]
            out = subprocess.run(  # noqa: S603 (our own interpreter and script)
                [sys.executable, __file__, *args],
                check=True,
                capture_output=True,
                text=True,
                cwd=root,
            ).stdout
            got = json.loads(out)
            mine = best.setdefault(name, dict(got))
            if not got.pop("engine").startswith(str(root)):
                raise RuntimeError(f"the {name} worker did not import the engine of {root}")
            for key, value in got.items():
                if key.endswith("_gps") and isinstance(value, float):
                    mine[key] = max(mine[key], value)
    print(
        f"machine: {platform.machine()} ({platform.system()}), {cpu_model()}, "
        f"Python {platform.python_version()}; {games} 4-player games x {rounds} rounds per tree"
    )
    for name, root in trees.items():
        print(f"  {name}: {root} ({best[name].get('engine_kind', 'interpreted')} engine)")
    rows = (
        ("simulate, 4 random bots (games/s)", "simulate_gps"),
        ("  same, per CPU second", "simulate_cpu_gps"),
        ("uniform legal+apply playouts (games/s)", "uniform_gps"),
        ("  same, per CPU second", "uniform_cpu_gps"),
    )
    print(f"  {'':42s} {'old':>9s} {'new':>9s} {'ratio':>7s}")
    for label, key in rows:
        o, n = best["old"][key], best["new"][key]
        print(f"  {label:42s} {o:9.1f} {n:9.1f} {n / o:6.2f}x")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per player count")
    parser.add_argument(
        "--greedy-games", type=int, default=6, help="greedy-vs-greedy games per player count"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=Path, metavar="OLD_TREE", help="old checkout to time")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per tree (--compare)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compare is not None:
        return compare(args.compare, args.games, args.rounds, args.seed)
    root = str(args.root.resolve())
    if root not in sys.path:
        sys.path.insert(0, root)
    if args.worker:
        import json

        print(json.dumps(worker(args.games, args.seed)))
        return 0
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
    if args.greedy_games <= 0:  # the random playouts alone (a machine's speed, quickly)
        return 0
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
