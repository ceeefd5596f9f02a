"""Hypothesis properties over random playouts (CC-1.6 cowboys, CC-11 information,
CC-12 purity, persistence and replay)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, views
from titles.colorado_county.engine import board
from titles.colorado_county.engine.state import State
from titles.colorado_county.tests.engine.helpers import G, check_invariants, random_move, rng

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PRIVATE_KEYS = {"hand", "my_bid", "seat"}
OPTIONS = st.fixed_dictionaries(
    {
        "lakes": st.sampled_from(["first-game", "random"]),
        "flags": st.sampled_from(["players", "random"]),
    }
)


def playout(n: int, seed: int, options: dict[str, str], steps: int, sell: float = 0.05):
    """Yield (state, seat, action) for up to ``steps`` random moves; last yield is final."""
    s = G.setup(n, seed, options)
    rnd = rng(seed)
    for _ in range(steps):
        if G.is_over(s):
            break
        seat, act = random_move(s, rnd, sell_chance=sell)
        yield s, seat, act
        s, _ = G.apply(s, seat, act)
    yield s, None, None


def strip_private(view: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in view.items() if k not in PRIVATE_KEYS}
    if out.get("sale"):
        out["sale"] = {k: v for k, v in out["sale"].items() if not k.startswith("my_")}
    return out


# Public number lists that hold seats, scores or card offsets, never cowboys; any one of them
# can equal a hand by chance. Paths are keys joined by "/", a list's items are "[]".
NOT_COWBOYS = frozenset(
    {
        "scores",
        "winners",
        "last_ranking",
        "claim_order",
        "to_act",
        "sale/answered",
        "sale/asked",
        "sale/bid_in",
        "sale/interested",
        "face_up/[]/offset",
    }
)


def number_lists(value: object, path: str = "") -> list[list[int]]:
    """Every list of two or more integers in a view, outside the seat and score lists."""
    found: list[list[int]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += number_lists(item, f"{path}/{key}" if path else str(key))
    elif isinstance(value, list):
        if (
            path not in NOT_COWBOYS
            and len(value) >= 2
            and all(isinstance(i, int) and not isinstance(i, bool) for i in value)
        ):
            found.append(value)
        for item in value:
            found += number_lists(item, f"{path}/[]")
    return found


def check_views(s: State) -> None:
    spectator = G.view(s, None)
    public = number_lists(spectator)
    revealed = list((spectator["last_bids"] or {}).values())
    assert "hand" not in spectator
    assert "my_bid" not in spectator
    for p in range(s.n):
        own = G.view(s, p)
        assert own["hand"] == board.bits(s.hands[p])
        # a seat's view is the public view plus its own private fields, nothing else
        assert strip_private(own) == strip_private(spectator)
        lists = number_lists(own)
        for q in range(s.n):
            if q == p:
                continue
            hand = board.bits(s.hands[q])
            if len(hand) >= 2 and hand not in revealed:
                assert hand not in lists
                assert hand not in public
            bid = s.bids[q] if s.phase == "bid" else None
            if bid is not None and bid.bit_count() >= 2 and board.bits(bid) not in revealed:
                assert board.bits(bid) not in lists


@SETTINGS
@given(n=st.integers(2, 4), seed=st.integers(0, 2**40), options=OPTIONS, steps=st.integers(1, 400))
def test_cowboys_conserved_and_hands_disjoint(
    n: int, seed: int, options: dict[str, str], steps: int
) -> None:
    """CC-1.6/CC-2.2: the 66 cowboys are always in the bag or exactly one hand; bids and
    sale bids are held by their bidder."""
    for s, _, _ in playout(n, seed, options, steps):
        check_invariants(s)


@SETTINGS
@given(n=st.integers(2, 4), seed=st.integers(0, 2**40), options=OPTIONS, steps=st.integers(1, 300))
# Public scores equal to a hidden hand by chance must not count as a leak.
@example(n=2, seed=156, options={"lakes": "random", "flags": "random"}, steps=39)
# Nor the seats that answered a sale ("answered": [2, 3]).
@example(n=4, seed=201_488_268_807, options={"lakes": "first-game", "flags": "players"}, steps=131)
def test_views_never_leak_other_seats_cowboys_or_bids(
    n: int, seed: int, options: dict[str, str], steps: int
) -> None:
    """CC-11: no view holds another seat's cowboys or sealed bid."""
    for i, (s, _, _) in enumerate(playout(n, seed, options, steps, sell=0.1)):
        if i % 3 == 0 or s.sale is not None or s.phase == "bid":
            check_views(s)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
FIELD_VALUES = (
    JSON
    | st.sampled_from(["B2", "C4", "red", "red-single-1", "O10", "a1"])
    | st.lists(st.integers(0, 70), max_size=8)
)
ACTION = st.one_of(
    JSON,
    st.builds(
        lambda kind, fields: {"type": kind, **fields},
        st.sampled_from(
            [
                "place_flag",
                "bid",
                "claim",
                "sell",
                "sale_interest",
                "sale_bid",
                "sale_pay",
                "pass",
                "",
            ]
        ),
        st.dictionaries(
            st.sampled_from(
                ["colour", "cell", "cowboys", "card", "flag", "second", "interested", "cowboy", "x"]
            ),
            FIELD_VALUES,
            max_size=4,
        ),
    ),
)


@SETTINGS
@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 2**40),
    steps=st.integers(0, 300),
    seat=st.one_of(st.integers(-1, 4), st.text(max_size=2), st.none()),
    actions=st.lists(ACTION, min_size=1, max_size=8),
)
def test_anything_a_client_sends_is_applied_or_refused_cleanly(
    n: int, seed: int, steps: int, seat: Any, actions: list[Any]
) -> None:
    """CC-12: junk never raises anything but IllegalAction, and never changes the state."""
    *_, (s, _, _) = playout(n, seed, {"lakes": "first-game", "flags": "players"}, steps)
    before = G.dump(s)
    for action in actions:
        error: IllegalAction | None = None
        try:
            G.apply(s, seat, action)
        except IllegalAction as exc:
            error = exc
        if error is not None:
            assert error.code.replace("_", "").isalpha()
            assert error.message
        assert G.dump(s) == before


@SETTINGS
@given(
    n=st.integers(2, 4),
    seed=st.one_of(st.integers(), st.text(max_size=20)),
    options=OPTIONS,
    steps=st.integers(0, 400),
)
def test_dump_load_identity(n: int, seed: int | str, options: dict[str, str], steps: int) -> None:
    """CC-12: dump is JSON; load(dump(s)) behaves exactly like s."""
    *_, (s, _, _) = playout(n, seed if isinstance(seed, int) else 0, options, steps)
    text = json.dumps(G.dump(s))
    s2 = G.load(json.loads(text))
    assert json.dumps(G.dump(s2)) == text
    for p in [None, *range(n)]:
        assert G.view(s2, p) == G.view(s, p)
    for p in range(n):
        assert G.legal_actions(s2, p) == G.legal_actions(s, p)
    if not G.is_over(s):
        seat = sorted(G.to_act(s))[0]
        act = G.legal_actions(s, seat)[0]
        assert G.dump(G.apply(s2, seat, act)[0]) == G.dump(G.apply(s, seat, act)[0])


@SETTINGS
@given(n=st.integers(2, 4), seed=st.one_of(st.integers(), st.text(max_size=20)), options=OPTIONS)
def test_replay_from_the_seed_reproduces_every_view(
    n: int, seed: int | str, options: dict[str, str]
) -> None:
    """Randomness lives in the state: replaying the moves reproduces every view and event."""
    s = G.setup(n, seed, options)
    rnd = rng(7)
    log: list[tuple[int, Any]] = []
    views: list[Any] = []
    for _ in range(250):
        if G.is_over(s):
            break
        seat, act = random_move(s, rnd)
        s, events = G.apply(s, seat, act)
        log.append((seat, act))
        views.append((G.view(s, None), G.view(s, seat), events))
    r = G.setup(n, seed, options)
    for (seat, act), expected in zip(log, views, strict=True):
        r, events = G.apply(r, seat, act)
        assert (G.view(r, None), G.view(r, seat), events) == expected


@SETTINGS
@given(n=st.integers(2, 4), seed=st.integers(0, 2**40), options=OPTIONS, steps=st.integers(1, 300))
def test_views_of_every_seat_at_once_are_each_seats_own_view(
    n: int, seed: int, options: dict[str, str], steps: int
) -> None:
    """CC-11, CC-12: the views the server builds at once after a move (``views``, the
    public part built once) are exactly ``view``'s, seat by seat, down to the JSON text: no
    seat gets another's hand, bid or sale answer, and the spectators get none."""
    seats: list[int | None] = [*range(n), None]
    for i, (s, _, _) in enumerate(playout(n, seed, options, steps, sell=0.1)):
        if i % 2 and s.sale is None and s.phase != "bid":
            continue
        many = G.views(s, seats)
        assert list(many) == seats
        for seat in seats:
            assert json.dumps(many[seat]) == json.dumps(G.view(s, seat))
        assert views(G, s, [None, 0]) == {None: G.view(s, None), 0: G.view(s, 0)}
