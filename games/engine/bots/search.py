"""``search``: information-set Monte Carlo tree search over determinisations, for any title
with the ``determinise`` hook (``games.engine.Determinising``).

The algorithm is multiple-observer ISMCTS (MO-ISMCTS, Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012):

- every iteration starts from ``rules.determinise(state, seat, rng)``: a state the bot's
  seat cannot tell from the real one, with all it cannot see (other hands, deck and bag
  order, the generator, other seats' sealed actions) redrawn from public information;
- each seat has its own tree whose nodes are that seat's information sets: a move is
  recorded in a seat's tree as that seat observes it, so another seat's sealed action
  (``rules.sealed_steps``) is one edge "seat q acted" whatever q chose. Simultaneous sealed
  steps (a title's sealed bids) are played in seat order, and each seat's choice is made
  in its own tree without seeing the others' (the literature's treatment);
- selection is UCB1 with availability counts (an action's prior opportunities count only
  the visits in which it was legal), one expansion per iteration (below the root, the
  default policy's move is expanded first when it is untried), then a playout with a
  cheap default policy (the title's ``playout_action`` hook, else uniform among the
  candidate actions) to the end of the game;
- a prior: the move of the title's stand-in bot, from the seat's view, starts
  with virtual visits at the root (``PRIOR_VISITS``, or ``PRIOR_SHARE`` of the iterations
  done if more), each scoring the mean reward of all root visits so far (so one unlucky
  playout does not rule it out); they count towards the move played, so the search
  departs from that bot only when it visits another move more;
- the reward of each seat is ``WIN_WEIGHT`` times its share of the win (1/k for k tied
  winners) plus ``1 - WIN_WEIGHT`` times its normalised score (0 = lowest, 1 = highest);
  every tree is updated along its own path with the reward of the seat that acted.

Optional title hooks besides ``determinise``, used when the title declares them
(``Declaration.hooks``):
``search_actions(state, seat)`` the moves the search considers (default
``legal_actions``, e.g. bids of several pieces) and
``playout_action(state, seat, rng)`` the default policy's move;
``playout_estimate(start, state)`` an estimated final result (one number per seat, like
``result``) where a playout begun at ``start`` may stop at ``state``, else None
(a title may stop at the end of a round and score the board as it stands for the
rounds still to come);
``search_budget(state, seat)`` the share of the per-move budget (seconds and iteration
cap alike) this decision spends, for a title whose turn is several decisions.

Budget: ``seconds`` per move (default ``DEFAULT_SECONDS``) and/or ``iterations``; with
only an iteration cap there is no clock in the decision, so the same ``rng`` always gives
the same move. The move played is the most visited root action.

The search stops before its budget is spent once the rest of it could not change that
move: when no other root action could overtake the leader even if every iteration left
went to it (``decided``). With an iteration cap the iterations left are known, so the move
is exactly the one the whole budget would give; with a time budget they are estimated at
``RATE_MARGIN`` times the rate so far. A bot that has made up its mind moves sooner, and
the time saved is not spent on iterations that cannot matter.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from .. import (
    Rules,
    determinising,
    playout_estimate,
    playout_policy,
    search_actions,
    search_budget,
)

Action = dict[str, Any]

DEFAULT_SECONDS = 2.0
"""Thinking time per move unless the caller sets a budget."""
EXPLORATION = 0.7
"""UCB1 exploration constant (rewards are in [0, 1])."""
WIN_WEIGHT = 0.7
"""Share of the reward given by winning; the rest by the normalised score."""
PRIOR_VISITS = 10
"""Virtual visits given at the root to the title's stand-in bot's move:
it is explored less and played unless the search finds a move visited more often."""
PRIOR_SHARE = 0.3
"""... or this share of the iterations done, whichever is more: another move is played only
if the search visits it more than that (conservative: short searches are noisy)."""
MAX_PLAYOUT_ACTIONS = 20_000
DECIDED_CHECK_EVERY = 32
"""How often (in iterations) the search asks whether the rest of its budget could still
change the move it will play."""
RATE_MARGIN = 2.0
"""With a time budget, the iterations still to come are estimated at this many times the
rate observed so far (iterations vary in cost; the estimate must not fall short)."""


def prior_bonus(visits: int, done: int) -> float:
    """Virtual visits of the prior move after ``done`` iterations."""
    return max(float(visits), PRIOR_SHARE * done) if visits else 0.0


class Node:
    """One information set of one seat's tree. Statistics belong to the edge into the
    node: ``visits``/``total`` for the seat that made that move, ``avail`` the number of
    visits of the parent in which the move was available."""

    __slots__ = ("avail", "bonus", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.bonus = 0  # virtual visits of the prior move (root only)

    def child(self, key: Any) -> Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node()
        return node


@dataclass(frozen=True)
class SearchStats:
    """What one decision cost: iterations run and wall-clock seconds."""

    iterations: int
    seconds: float


def action_key(action: Action) -> str:
    """A hashable, canonical form of an action (its JSON with sorted keys)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def rewards(result: list[float], win_weight: float = WIN_WEIGHT) -> list[float]:
    """Each seat's reward in [0, 1] for a game's (possibly estimated) result."""
    top, low = max(result), min(result)
    winners = sum(1 for r in result if r == top)
    spread = top - low
    out = []
    for r in result:
        win = 1.0 / winners if r == top else 0.0
        norm = (r - low) / spread if spread else 0.5
        out.append(win_weight * win + (1.0 - win_weight) * norm)
    return out


class SearchBot:
    """The ``search`` bot. Immutable: ``with_budget`` returns a new bot."""

    name = "search"
    reads_view = True
    reads_state = True

    def __init__(
        self,
        seconds: float | None = DEFAULT_SECONDS,
        iterations: int | None = None,
        exploration: float = EXPLORATION,
        win_weight: float = WIN_WEIGHT,
        prior_visits: int = PRIOR_VISITS,
        stop_when_decided: bool = True,
    ) -> None:
        if seconds is None and iterations is None:
            raise ValueError("The search needs a time budget or an iteration cap.")
        if seconds is not None and not seconds > 0:
            raise ValueError("The search time budget must be a positive number of seconds.")
        if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
            raise ValueError("The search iteration cap must be a positive integer.")
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = exploration
        self.win_weight = win_weight
        self.prior_visits = prior_visits
        self.stop_when_decided = stop_when_decided

    def __repr__(self) -> str:
        return f"SearchBot(seconds={self.seconds!r}, iterations={self.iterations!r})"

    def with_budget(
        self, *, seconds: float | None = None, iterations: int | None = None
    ) -> SearchBot:
        """A bot with this budget: ``seconds`` only, ``iterations`` only (no clock: the
        moves are reproducible), or both (whichever ends first); neither = the default."""
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        return SearchBot(
            seconds,
            iterations,
            self.exploration,
            self.win_weight,
            self.prior_visits,
            self.stop_when_decided,
        )

    # -- the Bot protocol ---------------------------------------------------------------

    def choose(
        self,
        rules: Rules,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
    ) -> Action:
        """Without the state there is nothing to search: play as the title's stand-in bot
        (callers that hold the state use ``bots.choose_action``, which calls
        ``choose_state``)."""
        fallback = rules.bots.get(rules.stand_in_bot)
        if fallback is None or fallback is self:
            return dict(rng.choice(legal_actions))
        return fallback.choose(rules, view, legal_actions, rng)

    def choose_state(self, rules: Rules, state: Any, seat: int, rng: random.Random) -> Action:
        return self.search(rules, state, seat, rng)[0]

    # -- the search ---------------------------------------------------------------------

    def search(
        self, rules: Rules, state: Any, seat: int, rng: random.Random
    ) -> tuple[Action, SearchStats]:
        """The chosen action for ``seat`` and what the search cost."""
        if determinising(rules) is None:
            raise TypeError(f"{rules.slug} has no determinise hook; the search cannot play it.")
        started = time.perf_counter()
        candidates = search_actions(rules)(state, seat)
        if not candidates:
            raise ValueError(f"seat {seat} has no action to choose from")
        if len(candidates) == 1:
            return dict(candidates[0]), SearchStats(0, time.perf_counter() - started)
        prior_key = None
        if self.prior_visits:
            prior = self._prior(rules, state, seat, candidates, rng)
            if prior is not None:
                prior_key = (seat, action_key(prior))
                if all((seat, action_key(a)) != prior_key for a in candidates):
                    candidates = [*candidates, prior]
        n = len(rules.result(state))
        roots = [Node() for _ in range(n)]
        if prior_key is not None:
            roots[seat].child(prior_key).bonus = self.prior_visits
        share = 1.0
        budget_hook = search_budget(rules)
        if budget_hook is not None:
            share = min(1.0, max(0.05, float(budget_hook(state, seat))))
        deadline = None if self.seconds is None else started + self.seconds * share
        cap = None if self.iterations is None else max(1, math.ceil(self.iterations * share))
        root = roots[seat]
        by_key = {(seat, action_key(a)): a for a in candidates}
        done = 0
        looping = time.perf_counter()
        while True:
            if cap is not None and done >= cap:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if self.stop_when_decided and done and not done % DECIDED_CHECK_EVERY:
                left = iterations_left(done, cap, deadline, looping)
                if decided(root, by_key, done, left, self.prior_visits):
                    break
            self._iterate(rules, state, seat, rng, roots, candidates)
            done += 1
        bonus = prior_bonus(self.prior_visits, done)
        best = max(
            by_key,
            key=lambda k: (
                root.children[k].visits + (bonus if root.children[k].bonus else 0)
                if k in root.children
                else -1,
                root.children[k].total if k in root.children else 0.0,
            ),
        )
        return dict(by_key[best]), SearchStats(done, time.perf_counter() - started)

    def _prior(
        self, rules: Rules, state: Any, seat: int, candidates: list[Action], rng: random.Random
    ) -> Action | None:
        """The title's stand-in bot's move from the seat's view (None if it has none)."""
        bot = rules.bots.get(rules.stand_in_bot)
        if bot is None or isinstance(bot, SearchBot):
            return None
        legal = rules.legal_actions(state, seat)
        return dict(bot.choose(rules, rules.view(state, seat), legal, rng))

    def _iterate(
        self,
        rules: Rules,
        state: Any,
        me: int,
        rng: random.Random,
        roots: list[Node],
        root_actions: list[Action],
    ) -> None:
        hook = determinising(rules)
        if hook is None:  # ``search`` refuses such a title before it gets here
            raise TypeError(f"{rules.slug} has no determinise hook")
        s = hook.determinise(state, me, rng)
        n = len(roots)
        current = list(roots)
        paths: list[list[Node]] = [[] for _ in range(n)]
        actions_of = search_actions(rules)
        policy = playout_policy(rules)
        sealed = rules.sealed_steps
        c = self.exploration
        first = True
        in_tree = True
        while in_tree and not rules.is_over(s):
            to_act = rules.to_act(s)
            q = me if first else min(to_act)
            legal = root_actions if first else actions_of(s, q)
            first = False
            node = current[q]
            keyed = [((q, action_key(a)), a) for a in legal]
            children = node.children
            fresh = []
            for k, a in keyed:
                ch = children.get(k)
                if ch is None or not ch.visits:  # unvisited (the prior may be, with a bonus)
                    fresh.append((k, a))
                else:
                    ch.avail += 1
            if fresh:
                k, action = fresh[rng.randrange(len(fresh))]
                if policy is not None and len(fresh) > 1 and node is not roots[me]:
                    # Expand the default policy's move first, so that the tree's first line
                    # below a move is a plausible one, not a random one.
                    preferred = (q, action_key(policy(s, q, rng)))
                    for fk, fa in fresh:
                        if fk == preferred:
                            k, action = fk, fa
                            break
                chosen = node.child(k)
                chosen.avail = max(chosen.avail, 1)
                in_tree = False
            else:
                best_value = -1.0
                k, action = keyed[0]
                base = 0.0
                bonus = 0.0
                if node is roots[me]:  # the prior's virtual visits score the mean so far
                    seen = sum(ch.visits for ch in children.values())
                    base = sum(ch.total for ch in children.values()) / max(seen, 1)
                    bonus = prior_bonus(self.prior_visits, seen)
                for key, a in keyed:
                    ch = children[key]
                    n_eff = ch.visits + (bonus if ch.bonus else 0.0)
                    value = (ch.total + (n_eff - ch.visits) * base) / n_eff + c * math.sqrt(
                        math.log(ch.avail) / n_eff
                    )
                    if value > best_value:
                        best_value, k, action = value, key, a
                chosen = children[k]
            paths[q].append(chosen)
            hidden = action.get("type") in sealed
            for p in range(n):
                if p == q:
                    current[p] = chosen
                elif hidden:
                    current[p] = current[p].child((q, "sealed:" + str(action["type"])))
                else:
                    current[p] = current[p].child(k)
            s, _ = rules.apply(s, q, action)
        reward = rewards(self._playout(rules, s, rng), self.win_weight)
        for p in range(n):
            r = reward[p]
            for nd in paths[p]:
                nd.visits += 1
                nd.total += r

    def _playout(self, rules: Rules, s: Any, rng: random.Random) -> list[float]:
        """Play ``s`` out; return the result, or the title's estimate of it where the
        title's ``playout_estimate(start, state)`` cuts the playout short."""
        policy = playout_policy(rules)
        estimate = playout_estimate(rules)
        actions_of = search_actions(rules)
        start = s
        steps = 0
        while not rules.is_over(s):
            if estimate is not None:
                guess = estimate(start, s)
                if guess is not None:
                    return guess
            q = min(rules.to_act(s))
            if policy is not None:
                action = policy(s, q, rng)
            else:
                legal = actions_of(s, q)
                action = legal[rng.randrange(len(legal))]
            s, _ = rules.apply(s, q, action)
            steps += 1
            if steps > MAX_PLAYOUT_ACTIONS:
                raise RuntimeError(f"a {rules.slug} playout did not end")
        return [float(r) for r in rules.result(s)]


def iterations_left(done: int, cap: int | None, deadline: float | None, since: float) -> int:
    """An upper bound of the iterations still to run: exact under a cap; under a clock,
    ``RATE_MARGIN`` times the rate of the ``done`` iterations run since ``since``."""
    bounds = []
    if cap is not None:
        bounds.append(cap - done)
    if deadline is not None:
        now = time.perf_counter()
        per_second = done / max(now - since, 1e-9)
        bounds.append(math.ceil(max(deadline - now, 0.0) * per_second * RATE_MARGIN) + 1)
    return min(bounds)


def decided(root: Node, keys: Any, done: int, left: int, prior_visits: int) -> bool:
    """Whether the root action played (the most visited, the prior's virtual visits
    included) can no longer change if at most ``left`` iterations follow ``done``: the
    leader's count now beats every other action's count with all ``left`` added to it."""
    now_bonus = prior_bonus(prior_visits, done)
    end_bonus = prior_bonus(prior_visits, done + left)
    counts = []
    for key in keys:
        node = root.children.get(key)
        visits = node.visits if node is not None else 0
        prior = node is not None and node.bonus > 0
        counts.append(
            (visits + (now_bonus if prior else 0.0), visits + (end_bonus if prior else 0.0))
        )
    lead = max(range(len(counts)), key=lambda i: counts[i][0])
    floor = counts[lead][0]
    return all(i == lead or most + left < floor for i, (_, most) in enumerate(counts))
