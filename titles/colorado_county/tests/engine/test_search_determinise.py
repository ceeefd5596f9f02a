"""Colorado County's ``determinise`` hook and the search bot: the determinisation (and so
the bot's move) never depends on what the seat cannot see (other hands, the bag, other
seats' sealed bids and sale answers, which cards of a colour are in this round's stack,
the order of the stack and piles, the generator), and it keeps everything the seat sees."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.bots import choose_action, get_bot
from titles.colorado_county.engine import board, determinise
from titles.colorado_county.engine.data import CARDS
from titles.colorado_county.engine.greedy_bot import GreedyBot, Position
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import G, check_invariants, rng
from titles.colorado_county.tests.engine.test_bots import redeal_hidden, walk


def rand(seed: int | str) -> random.Random:
    """A seeded generator (for bots and test data, not for security)."""
    return random.Random(seed)  # noqa: S311


def swap_round_cards(s: State, rnd: random.Random) -> State:
    """``s`` with a card of this round's stack swapped for an unseen card of its colour
    from the piles (nobody can tell which cards of a colour the round holds)."""
    t = s.copy()
    stack = list(t.stack)
    piles = [list(p) for p in t.piles]
    for i in rnd.sample(range(len(stack)), len(stack)):
        colour = CARDS[stack[i]].colour_index
        if piles[colour]:
            j = rnd.randrange(len(piles[colour]))
            stack[i], piles[colour][j] = piles[colour][j], stack[i]
            break
    t.stack = tuple(stack)
    t.piles = tuple(tuple(p) for p in piles)
    return t


def unsealed(view: dict[str, Any]) -> dict[str, Any]:
    """A view without who has acted in a sealed step (the determinisation lets the other
    seats act again) and who is to act."""
    out = {**view, "to_act": None}
    out["players"] = [{**p, "has_bid": None} for p in view["players"]]
    if view["sale"] is not None:
        out["sale"] = {**view["sale"], "answered": None, "bid_in": None}
    return out


def hidden_twin(s: State, seat: int, rnd: random.Random) -> State:
    return swap_round_cards(redeal_hidden(s, seat, rnd), rnd)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinise_reads_nothing_the_seat_cannot_see(n: int) -> None:
    rnd = rng(n)
    checked = differed = sealed = 0
    for step, s in enumerate(walk(n, 60 + n)):
        if step % 3 and all(b is None for b in s.bids):  # every sealed bid, a third of the rest
            continue
        for seat in sorted(G.to_act(s)):
            other = hidden_twin(s, seat, rnd)
            assert G.view(other, seat) == G.view(s, seat)  # the precondition
            differed += other.hands != s.hands or other.stack != s.stack
            sealed += any(b is not None for o, b in enumerate(s.bids) if o != seat)
            d1 = G.determinise(s, seat, rand(step))
            d2 = G.determinise(other, seat, rand(step))
            assert G.dump(d1) == G.dump(d2)
            # What the seat sees is kept; the state is a legal one.
            assert unsealed(G.view(d1, seat)) == unsealed(G.view(s, seat))
            assert G.legal_actions(d1, seat) == G.legal_actions(s, seat)
            assert seat in G.to_act(d1)
            check_invariants(d1)
            checked += 1
    assert checked > 40
    assert differed > 0.8 * checked
    assert sealed > 10


def test_determinise_redraws_what_is_hidden() -> None:
    s = next(st for i, st in enumerate(walk(3, 9)) if i > 20 and st.phase == "bid")
    seat = min(G.to_act(s))
    draws = [G.determinise(s, seat, rand(k)) for k in range(8)]
    assert all(d.hands[seat] == s.hands[seat] for d in draws)
    assert len({tuple(d.hands) for d in draws}) > 1
    assert len({d.stack for d in draws}) > 1
    assert len({d.rng for d in draws}) == 8
    for d in draws:
        for o in range(s.n):
            assert d.hands[o].bit_count() == s.hands[o].bit_count()
        # The same number of cards of each colour is left in the round's stack.
        assert sorted(CARDS[c].colour_index for c in d.stack) == sorted(
            CARDS[c].colour_index for c in s.stack
        )
        assert {*d.stack, *(c for p in d.piles for c in p)} == {
            *s.stack,
            *(c for p in s.piles for c in p),
        }
        # Other seats' sealed bids are not kept: they are to bid again.
        assert all(d.bids[o] is None or not d.hands[o] for o in range(s.n) if o != seat)
    assert board.bits(s.hands[seat]) == G.view(draws[0], seat)["hand"]


@pytest.mark.parametrize("n", [2, 4])
def test_the_search_move_is_the_same_whatever_the_hidden_parts(n: int) -> None:
    bot = get_bot(G.slug, "search", iterations=6)
    rnd = rng(100 + n)
    checked = 0
    kinds: set[str] = set()
    for step, s in enumerate(walk(n, 80 + n)):
        if step % 7:
            continue
        for seat in sorted(G.to_act(s)):
            other = hidden_twin(s, seat, rnd)
            first = choose_action(bot, G, s, seat, rand(step))
            second = choose_action(bot, G, other, seat, rand(step))
            assert first == second
            kinds.add(first["type"])
            checked += 1
    assert checked > 15
    assert {"place_flag", "bid", "claim"} <= kinds


def every_cell_ranked(s: State, seat: int, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search's flag candidates by brute force: every cell scored (the greedy bot's
    gain less its denial of the best other seat), every action sorted, distinct cells."""
    pos = Position(G.view(s, seat))
    scored = []
    for a in moves:
        bit = 1 << board.CELL_INDEX[a["cell"]]
        others = [pos.gain(o, bit) for o in range(pos.n) if o != seat]
        score = pos.gain(seat, bit) - GreedyBot().flag_denial * max(max(others), 0.0)
        scored.append((score, a["colour"], a["cell"], a))
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    out: list[dict[str, Any]] = []
    for _, _, cell, a in scored:
        if all(b["cell"] != cell for b in out):
            out.append(a)
    return out[: determinise.FLAG_CANDIDATES]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_flag_ranking_is_the_brute_force_one_and_ignores_hidden_parts(n: int) -> None:
    """The search's flag candidates (pruned, and kept per public board) are the ranking of
    every cell by brute force, for the state and for its hidden twin (other hands, the
    stack), in every flag decision of a game."""
    rnd = rng(200 + n)
    checked = 0
    for s in walk(n, 120 + n):
        if s.phase != "flags" or s.sale is not None:
            continue
        for seat in sorted(G.to_act(s)):
            moves = [a for a in G.legal_actions(s, seat) if a["type"] == "place_flag"]
            expected = every_cell_ranked(s, seat, moves)
            assert determinise._rank_flags(s, seat, moves) == expected
            assert determinise.search_actions(s, seat) == expected
            twin = hidden_twin(s, seat, rnd)
            assert determinise.search_actions(twin, seat) == expected
            checked += 1
    assert checked >= 12
