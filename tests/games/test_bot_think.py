"""In embedded mode a searching bot thinks in a process of its own (issue 41, item 1: the
search shared the interpreter lock with the pages), and plays there exactly as it would
in the calling thread."""

from __future__ import annotations

import random

from games.bots import search_process
from games.engine import get_rules


def test_the_child_process_plays_as_the_calling_thread_would() -> None:
    engine = get_rules("colorado-county")
    state = engine.setup(2, "think-apart", {})
    seat = sorted(engine.to_act(state))[0]
    arguments = {
        "slug": engine.slug,
        "dumped": engine.dump(state),
        "kind": "search",
        "seat": seat,
        "seconds": 5.0,
        "iterations": 30,
    }
    here = search_process.choose_here(rng=random.Random("same:bot:1:0"), **arguments)  # noqa: S311
    apart = search_process.think(rng=random.Random("same:bot:1:0"), **arguments)  # noqa: S311
    assert apart == here
    assert apart in engine.legal_actions(state, seat)
