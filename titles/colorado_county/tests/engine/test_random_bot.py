"""The random bot's own draws (``below``, ``choice``, ``sample``) consume the generator
exactly as ``random.Random``'s methods do on CPython 3.11, so the bot plays the games it
played when it called those methods (the recorded figures stay comparable)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from titles.colorado_county.engine.random_bot import below, choice, random_cowboys, sample


@given(st.integers(0, 2**32), st.integers(1, 500))
def test_below_is_randrange(seed: int, n: int) -> None:
    a, b = random.Random(seed), random.Random(seed)  # noqa: S311
    assert [below(a, n) for _ in range(5)] == [b.randrange(n) for _ in range(5)]
    assert a.random() == b.random()  # the same state afterwards


@given(st.integers(0, 2**32), st.lists(st.integers(), min_size=1, max_size=400))
def test_choice_is_random_choice(seed: int, seq: list[int]) -> None:
    a, b = random.Random(seed), random.Random(seed)  # noqa: S311
    assert [choice(a, seq) for _ in range(3)] == [b.choice(seq) for _ in range(3)]
    assert a.random() == b.random()


@given(st.integers(0, 2**32), st.integers(1, 66), st.data())
def test_sample_is_random_sample(seed: int, n: int, data: st.DataObject) -> None:
    """Both of CPython's ways: a pool copy (small populations) and a set of picks (large
    populations with few picks)."""
    k = data.draw(st.integers(0, n))
    population = list(range(100, 100 + n))
    a, b = random.Random(seed), random.Random(seed)  # noqa: S311
    assert sample(a, population, k) == b.sample(population, k)
    assert a.random() == b.random()


def test_random_cowboys_draws_as_before() -> None:
    """``random_cowboys`` as it was written with ``randint`` and ``sample``."""

    def old(pool: list[int], rng: random.Random) -> list[int]:
        k = rng.randint(1, len(pool))
        if rng.random() < 0.7:
            k = min(k, rng.randint(1, 4))
        return sorted(rng.sample(pool, k))

    for seed in range(300):
        pool = list(range(1, 2 + seed % 40))
        a, b = random.Random(seed), random.Random(seed)  # noqa: S311
        assert random_cowboys(pool, a) == old(pool, b)
        assert a.random() == b.random()
