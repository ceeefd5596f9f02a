#!/usr/bin/env python3
"""Sums up per-game strength results (issue 16): files of ``bench/bots.py`` lines, one game
each (``--games 1 --first K``), so a long run can be made in slices, across sessions, and
added up here.

    .venv/bin/python bench/strength_summary.py bench/results/search-2s-2p.jsonl

Prints, per file: games, the search bot's wins and win share (a shared win counts as its
share), the 95 % Wilson interval of the win share, the even share (1 / players), mean
scores and the search's iterations per move.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``."""
    if not n:
        return (0.0, 0.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return ((centre - spread) / scale, (centre + spread) / scale)


def summary(path: Path) -> dict[str, object]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    n = len(rows)
    share = sum(r["win_share"]["search"] for r in rows)
    low, high = wilson(share, n)
    return {
        "file": str(path),
        "games": n,
        "first_games": sorted(r["first_game"] for r in rows),
        "budget": rows[0]["budget"] if rows else None,
        "search_wins": sum(r["wins"]["search"] for r in rows),
        "search_win_share": round(share / n, 4) if n else None,
        "wilson_95": [round(low, 3), round(high, 3)],
        "even_share": rows[0]["even_share"] if rows else None,
        "mean_score": {
            bot: round(sum(r["mean_score"][bot] for r in rows) / n, 1)
            for bot in ("search", "greedy")
        }
        if n
        else {},
        "iterations_per_move": round(sum(r["search"]["iterations_per_move"] for r in rows) / n)
        if n
        else None,
    }


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(json.dumps(summary(Path(name))))
