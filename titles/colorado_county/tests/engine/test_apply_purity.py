"""``apply`` never changes the state it is given (CC-12), whatever the move: the speed work
of issue 16 shares unchanged parts between a state and its successors, so every legal move
of a playout (sales included) is checked against the dump, the views and the legal
actions of the state before it."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from titles.colorado_county.tests.engine.helpers import G, random_move, rng

OPTIONS = st.fixed_dictionaries(
    {
        "lakes": st.sampled_from(["first-game", "random"]),
        "flags": st.sampled_from(["players", "random"]),
    }
)


def snapshot(s: object, n: int) -> object:
    return (
        G.dump(s),
        [G.view(s, p) for p in [None, *range(n)]],
        [G.legal_actions(s, p) for p in range(n)],
        sorted(G.to_act(s)),
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 4), seed=st.integers(0, 2**40), options=OPTIONS)
def test_apply_leaves_the_given_state_as_it_was(n: int, seed: int, options: dict[str, str]) -> None:
    s = G.setup(n, seed, options)
    rnd = rng(seed)
    history = []
    while not G.is_over(s):
        seat, act = random_move(s, rnd, sell_chance=0.1)
        before = snapshot(s, n)
        new, events = G.apply(s, seat, act)
        assert snapshot(s, n) == before
        again, events_again = G.apply(s, seat, act)
        assert G.dump(again) == G.dump(new)
        assert events_again == events
        history.append((s, before))
        s = new
    # states kept from earlier in the game are still intact at its end
    for old, before in history[:: max(1, len(history) // 10)]:
        assert snapshot(old, n) == before


def test_a_chosen_action_is_the_callers_to_change() -> None:
    """Listed actions are shared between calls; the bots return copies, so a caller that
    edits the action it got (e.g. adds a field before storing it) changes no later list."""
    import random

    from games.engine.bots import get_bot

    for name in ("random", "greedy"):
        bot = get_bot("colorado-county", name)
        s = G.setup(4, f"copies-{name}")
        rnd = random.Random(name)  # noqa: S311
        for _ in range(120):
            seat = min(G.to_act(s))
            legal = G.legal_actions(s, seat)
            before = [dict(a) for a in legal]
            action = bot.choose(G, G.view(s, seat), legal, rnd)
            s, _ = G.apply(s, seat, action)
            action["type"] = "edited"
            assert G.legal_actions(G.load(G.dump(s)), seat) == G.legal_actions(s, seat)
            assert legal == before
