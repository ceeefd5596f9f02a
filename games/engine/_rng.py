"""Deterministic random numbers kept inside a game state (never the global ``random``).

The generator is splitmix64: its whole state is one 64-bit integer, so it is stored in the
game state, dumped with it and copied for free. ``seed_to_state`` derives that integer from
a str or int seed with sha256, so ``"7"`` and ``7`` give the same game.
"""

from __future__ import annotations

import hashlib
from typing import Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1


def checked_seed(seed: object) -> int | str:
    """``seed`` itself if it is a str or an int (not a bool); else ``ValueError``. Callers
    check at the rules object, before typed (and possibly compiled) code sees the seed."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError("The seed must be a string or an integer.")
    return seed


def seed_to_state(seed: object) -> int:
    """Return the 64-bit generator state for ``seed`` (a str or an int, not a bool)."""
    seed = checked_seed(seed)
    digest = hashlib.sha256(str(seed).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def next_u64(state: int) -> tuple[int, int]:
    """Advance splitmix64 once: return ``(new_state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, r)`` with ``0 <= r < n`` (multiply-shift, bias < n / 2**64).
    ``next_u64`` is inlined here and in ``shuffle`` (the engine's hottest helpers)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list[T]) -> int:
    """Fisher-Yates shuffle ``items`` in place; return the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
