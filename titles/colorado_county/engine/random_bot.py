"""Colorado County's ``random`` bot (it takes the generic one's name): a random player
for fuzzing, benchmarks and as a baseline.

It picks uniformly among the legal actions other than ``sell``; bids are random subsets of
the hand (sometimes empty), sale bids random non-empty subsets of the uncommitted cowboys.
When a ``sell`` is legal it sells a random cell with a small probability, so that land
sales get exercised without dominating the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final, TypeVar

from games.engine import Rules

Action = dict[str, Any]
T = TypeVar("T")

_COWBOYS: Final = itemgetter("cowboys")
_FIRST: Final = itemgetter(0)

SELL_CHANCE: Final = 0.02
EMPTY_BID_CHANCE: Final = 0.2


# ``random.Random``'s ``choice``, ``randint`` and ``sample`` are Python code; the bot draws
# through these equivalents instead, which the compiled engine compiles (issue 16). They
# consume the generator exactly as CPython 3.11's methods do, so the bot plays the same
# games as with them (titles/colorado_county/tests/engine/test_random_bot.py checks).


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: ``Random._randbelow_with_getrandbits``."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``."""
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)`` for ``0 <= k <= len(population)``."""
    n = len(population)
    result = [0] * k
    setsize = 21  # as CPython: a pool copy when it is smaller than a k-length set
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = below(rng, n)
            while j in selected:
                j = below(rng, n)
            selected.add(j)
            result[i] = population[j]
    return result


def random_cowboys(pool: list[int], rng: random.Random) -> list[int]:
    """A random non-empty subset of ``pool``, usually small (mostly 1 to 4 cowboys)."""
    k = 1 + below(rng, len(pool))  # rng.randint(1, len(pool))
    if rng.random() < 0.7:
        k = min(k, 1 + below(rng, 4))
    return sorted(sample(rng, pool, k))


class ColoradoCountyRandomBot:
    """Reads only the legal actions (``reads_view`` is False, so ``simulate`` does not build
    a view for it): Colorado County lists ``sell`` actions last and, for a bid, the hand's
    cowboys one by one, which is all this bot needs."""

    name = "random"
    reads_view = False
    reads_state = False

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
            return dict(choice(rng, legal_actions[k:]))
        action = choice(rng, others)
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
