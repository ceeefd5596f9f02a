"""Colorado County's ``random`` bot (it takes the generic one's name): a random player
for fuzzing, benchmarks and as a baseline.

It picks uniformly among the legal actions other than ``sell``; bids are random subsets of
the hand (sometimes empty), sale bids random non-empty subsets of the uncommitted cowboys.
When a ``sell`` is legal it sells a random cell with a small probability, so that land
sales get exercised without dominating the game.
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import Any

from .. import Rules

Action = dict[str, Any]

_COWBOYS = itemgetter("cowboys")
_FIRST = itemgetter(0)

SELL_CHANCE = 0.02
EMPTY_BID_CHANCE = 0.2


def random_cowboys(pool: list[int], rng: random.Random) -> list[int]:
    """A random non-empty subset of ``pool``, usually small (mostly 1 to 4 cowboys)."""
    k = rng.randint(1, len(pool))
    if rng.random() < 0.7:
        k = min(k, rng.randint(1, 4))
    return sorted(rng.sample(pool, k))


class ColoradoCountyRandomBot:
    """Reads only the legal actions (``reads_view`` is False, so ``simulate`` does not build
    a view for it): Colorado County lists ``sell`` actions last and, for a bid, the hand's
    cowboys one by one, which is all this bot needs."""

    name = "random"
    reads_view = False

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action:
        n = k = len(legal_actions)
        if n and legal_actions[-1]["type"] == "sell":
            # the sells are the list's tail: find where it starts by bisection
            lo = 0
            while lo < k:
                mid = (lo + k) >> 1
                if legal_actions[mid]["type"] == "sell":
                    k = mid
                else:
                    lo = mid + 1
        others = legal_actions if k == n else legal_actions[:k]
        if k < n and (not others or rng.random() < SELL_CHANCE):
            return dict(rng.choice(legal_actions[k:]))
        action = rng.choice(others)
        kind = action["type"]
        if kind == "bid":
            hand = list(map(_FIRST, filter(None, map(_COWBOYS, others))))
            if not hand or rng.random() < EMPTY_BID_CHANCE:
                return {"type": "bid", "cowboys": []}
            return {"type": "bid", "cowboys": random_cowboys(hand, rng)}
        if kind == "sale_bid":
            pool = list(map(_FIRST, map(_COWBOYS, others)))
            return {"type": "sale_bid", "cowboys": random_cowboys(pool, rng)}
        return dict(action)
