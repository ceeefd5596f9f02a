"""``random``: a uniform random player for any title, for fuzzing, benchmarks and as a
baseline. It picks uniformly among the legal actions. A title whose legal actions stand for
a larger set (an action ``apply`` takes but ``legal_actions`` does not list one by one)
registers a ``random`` bot of its own that covers it (its ``Rules.bots``)."""

from __future__ import annotations

import random
from typing import Any

from .. import Rules

Action = dict[str, Any]


class RandomBot:
    name = "random"
    reads_view = False  # ``simulate`` passes an empty view
    reads_state = False

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action:
        return dict(rng.choice(legal_actions))
