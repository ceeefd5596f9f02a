"""Where a searching bot thinks in embedded mode: a process of its own (issue 41, item 1).

In embedded mode (``manage.py serve``: no Redis) the task worker runs in threads of the web
process, so a hard bot's search — pure Python, seconds a move — shared the interpreter lock
with every page: while one account's twenty tables of hard bots were being played out, the
pages' medians rose to about three times their idle values (docs/benchmarks.md, "Bot
capacity"). There the search runs in a child process instead (``think``: a pool of one,
started on first use with ``spawn``, at a lower priority: ``nice`` 10), which the operating
system schedules on another core, and behind the pages when the cores are busy; the web
process only waits for its answer. The child imports the engine alone (no Django):
it is given the title, the state as the engine dumped it, the seat, the bot's kind and
budget and its random generator (seeded by the game, the version and the seat, so a table
plays the same way wherever the bot thinks), and answers the action.

With Redis (the worker is a process of its own already), with eager tasks (tests,
scripts), and for bots that do not search, the bot thinks where it is called. Should the
child die, the bot thinks in the calling thread and the pool is started again next time.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from games.engine import get_rules
from games.engine.bots import choose_action, get_bot

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()
#: Seconds to wait for the child beyond the bot's own budget (its start, the state's load).
SLACK_SECONDS = 30.0


def choose_here(
    *,
    slug: str,
    dumped: Any,
    kind: str,
    seat: int,
    rng: random.Random,
    seconds: float | None,
    iterations: int | None,
) -> dict[str, Any]:
    """The bot's action, thought in this process (the child's entry point too)."""
    engine = get_rules(slug)
    state = engine.load(dumped)
    bot = (
        get_bot(slug, kind, seconds=seconds, iterations=iterations)
        if seconds is not None
        else get_bot(slug, kind)
    )
    action: dict[str, Any] = choose_action(bot, engine, state, seat, rng)
    return action


#: How much lower the thinking process runs than the web process (``nice``): on a busy
#: machine the pages are served first, and the bot, whose budget is a time, thinks a
#: little less deeply.
NICENESS = 10


def _lower_priority() -> None:
    try:
        os.nice(NICENESS)
    except OSError as exc:  # not permitted here: it thinks at the web's priority
        log.info("the bot's thinking process keeps its priority: %s", exc)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def think(
    *,
    slug: str,
    dumped: Any,
    kind: str,
    seat: int,
    rng: random.Random,
    seconds: float,
    iterations: int | None,
) -> dict[str, Any]:
    """The searching bot's action, thought in the child process (``choose_here`` there)."""
    pool = _executor()
    arguments = {
        "slug": slug,
        "dumped": dumped,
        "kind": kind,
        "seat": seat,
        "rng": rng,
        "seconds": seconds,
        "iterations": iterations,
    }
    try:
        future = pool.submit(choose_here, **arguments)
        return future.result(timeout=seconds + SLACK_SECONDS)
    except (BrokenProcessPool, TimeoutError, OSError) as exc:
        log.warning("the bot's thinking process failed (%s); thinking here instead", exc)
        _forget(pool)
        return choose_here(**arguments)
