"""Plain helpers of the conformance suite: playing a title out with seeded bots, and the
deep copies, fingerprints and scrambles the ownership checks use. Nothing here names a
title."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import Rules, get_rules
from games.engine.bots import Bot, choose_action, get_bot

Move = tuple[int, dict[str, Any]]
#: Far beyond any title's real length: a playout that gets here never ends.
ACTION_CAP = 100_000


@dataclass
class Step:
    """One move of a playout: the state before it, who moved and how, what it gave."""

    before: Any
    seat: int
    action: dict[str, Any]
    after: Any
    events: list[dict[str, Any]]
    #: With ``fingerprint``: the state's dump and views as they were before ``apply``.
    before_fingerprint: str = ""


@dataclass
class Playout:
    slug: str
    seats: int
    seed: str
    options: dict[str, Any] | None
    final: Any = None
    setup_events: list[dict[str, Any]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)


def bots_for(slug: str, kind: str, seats: int) -> list[Bot]:
    """``kind`` at every seat (a searching bot with a small fixed budget)."""
    return [get_bot(slug, kind, iterations=8) for _ in range(seats)]


def steps(
    slug: str,
    seats: int,
    seed: str,
    *,
    options: Mapping[str, Any] | None = None,
    bots: list[Bot] | None = None,
    record: Playout | None = None,
    fingerprint: bool = False,
) -> Iterator[Step]:
    """Play a game out, yielding each step. The seat to move is drawn among those to act
    and each seat's bot (default: the title's ``random``) chooses with its own seeded
    generator, so a seed always gives the same game."""
    rules = get_rules(slug)
    bots = bots or bots_for(slug, "random", seats)
    order = random.Random(f"{seed}:order")  # noqa: S311
    rngs = [random.Random(f"{seed}:{p}") for p in range(seats)]  # noqa: S311
    state, setup_events = rules.setup_events(seats, seed, options)
    if record is not None:
        record.setup_events = setup_events
    for _ in range(ACTION_CAP):
        if rules.is_over(state):
            break
        seat = order.choice(sorted(rules.to_act(state)))
        action = choose_action(bots[seat], rules, state, seat, rngs[seat])
        seen = state_fingerprint(rules, state, seats) if fingerprint else ""
        after, events = rules.apply(state, seat, action)
        if record is not None:
            record.moves.append((seat, action))
            record.events.append(events)
        yield Step(state, seat, action, after, events, seen)
        state = after
    else:
        raise AssertionError(f"a {slug} game of {seats} did not end in {ACTION_CAP} moves")
    if record is not None:
        record.final = state


def play(
    slug: str,
    seats: int,
    seed: str,
    *,
    options: Mapping[str, Any] | None = None,
    bots: list[Bot] | None = None,
) -> Playout:
    """A whole game, recorded (moves, events, final state)."""
    out = Playout(slug, seats, seed, dict(options) if options is not None else None)
    for _ in steps(slug, seats, seed, options=options, bots=bots, record=out):
        pass
    return out


def all_views(rules: Rules, state: Any, seats: int) -> list[Any]:
    """Every seat's view, then the spectators', deep-copied."""
    return [copy.deepcopy(rules.view(state, s)) for s in [*range(seats), None]]


def state_fingerprint(rules: Rules, state: Any, seats: int) -> str:
    """The state's dump and every view, as one canonical text."""
    return canonical([rules.dump(state), all_views(rules, state, seats)])


def canonical(value: Any) -> str:
    """A JSON text that is the same for equal values (mappings keyed by anything)."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), default=repr)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {repr(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def scramble(value: Any) -> None:
    """Change every mutable container inside ``value`` in place (what a careless caller
    might do to a returned event or dump)."""
    if isinstance(value, dict):
        for item in list(value.values()):
            scramble(item)
        value.clear()
        value["scrambled"] = True
    elif isinstance(value, list):
        for item in value:
            scramble(item)
        value.clear()
        value.append("scrambled")
    elif isinstance(value, set):
        value.clear()


def fingerprinted(fn: Callable[..., Any], log: list[tuple[Any, Any]]) -> Callable[..., Any]:
    """``fn`` whose every answer is logged with a deep copy taken when it was given."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        answer = fn(*args, **kwargs)
        log.append((answer, copy.deepcopy(answer)))
        return answer

    return wrapper
