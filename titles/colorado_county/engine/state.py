"""The game state: a ``__slots__`` record of compact values.

Invariants (checked by the tests):
- cowboys are bitmasks (bit k = cowboy k, 1..66); ``bag`` and the ``hands`` are disjoint
  and together hold all 66. A submitted bid (``bids``) or sale bid is a subset of its
  seat's hand: cowboys stay in the hand until the reveal.
- markers are per-seat cell masks, flags per-colour cell masks; none overlap and none lie
  under a lake.
- ``phase`` is the base phase (``flags``, ``bid``, ``claim``, ``over``); an open sale
  (``sale``) suspends it, and the view then reports ``sale`` (ruling c).
- ``copy`` copies every list; all other fields hold immutable values (ints, tuples) that
  are replaced, never changed in place. So ``apply`` mutates only its private copy and the
  caller's state is never changed.

The classes are built through ``__init__`` only (no ``__new__`` tricks), so that the
compiled engine (``games/engine/_native.py``) can make them native classes.
"""

from __future__ import annotations

from typing import Any, Final

from . import board

Lakes = tuple[tuple[str, tuple[int, ...]], ...]


class Sale:
    """An open land sale (CC-9). ``answers``/``sale_bids`` are indexed by seat."""

    __slots__ = ("answers", "asked", "buyer", "cell", "sale_bids", "seller", "stage")

    def __init__(self, seller: int, cell: int, asked: tuple[int, ...], n: int) -> None:
        self.seller = seller
        self.cell = cell
        self.stage = "interest"
        self.asked = asked
        self.answers: list[bool | None] = [None] * n
        self.sale_bids: list[int | None] = [None] * n
        self.buyer = -1

    def copy(self) -> Sale:
        new = Sale(self.seller, self.cell, self.asked, 0)
        new.stage = self.stage
        new.answers = self.answers.copy()
        new.sale_bids = self.sale_bids.copy()
        new.buyer = self.buyer
        return new

    def interested(self) -> list[int]:
        return [s for s in self.asked if self.answers[s]]


class State:
    __slots__ = (
        "bag",
        "bids",
        "claim_order",
        "draws",
        "face_up",
        "flag_hands",
        "flag_turn",
        "flags",
        "flags_opt",
        "hands",
        "lake_owners",
        "lakes",
        "lakes_opt",
        "last_bids",
        "layout",
        "markers",
        "n",
        "phase",
        "piles",
        "rng",
        "round",
        "sale",
        "sale_cards",
        "sales_round",
        "scores",
        "seed",
        "stack",
        "start_player",
        "turn",
        "valuations",
    )

    def __init__(
        self, n: int, seed: int | str, rng: int, lakes: Lakes, options: dict[str, str] | None
    ) -> None:
        self.n = n
        self.seed = seed
        self.rng = rng
        self.lakes = lakes
        if options is None:  # ``copy`` sets every other field itself
            return
        self.layout = board.layout(lakes)
        self.lakes_opt = options["lakes"]
        self.flags_opt = options["flags"]
        self.round = 0
        self.turn = 0
        self.start_player = 0
        self.phase = "flags"
        self.bag = 0
        self.hands = [0] * n
        self.markers = [0] * n
        self.flags = [0, 0, 0, 0]
        self.flag_hands: tuple[tuple[int, ...], ...] = ((0, 0, 0, 0),) * n
        self.flag_turn = -1
        self.piles: tuple[tuple[int, ...], ...] = ((), (), (), ())
        self.stack: tuple[int, ...] = ()
        self.face_up: tuple[int, ...] = ()
        self.bids: list[int | None] = [None] * n
        self.last_bids: tuple[int, ...] | None = None
        self.claim_order: tuple[int, ...] = ()
        self.draws: tuple[tuple[int, int], ...] = ()
        self.lake_owners: tuple[int, ...] = (-1,) * len(lakes)
        self.scores: tuple[int, ...] = (0,) * n
        self.valuations: tuple[tuple[dict[str, Any], ...], ...] = ()  # never mutated
        self.sale_cards: tuple[int, ...] = (0,) * n
        self.sales_round: tuple[int, ...] = (0,) * n
        self.sale: Sale | None = None

    def open_sale(self) -> Sale:
        """The open sale; callers check that one is open first."""
        if self.sale is None:
            raise RuntimeError("no sale is open")
        return self.sale

    def copy(self) -> State:
        new = State(self.n, self.seed, self.rng, self.lakes, None)
        new.layout = self.layout
        new.lakes_opt = self.lakes_opt
        new.flags_opt = self.flags_opt
        new.round = self.round
        new.turn = self.turn
        new.start_player = self.start_player
        new.phase = self.phase
        new.bag = self.bag
        new.hands = self.hands.copy()
        new.markers = self.markers.copy()
        new.flags = self.flags.copy()
        new.flag_hands = self.flag_hands
        new.flag_turn = self.flag_turn
        new.piles = self.piles
        new.stack = self.stack
        new.face_up = self.face_up
        new.bids = self.bids.copy()
        new.last_bids = self.last_bids
        new.claim_order = self.claim_order
        new.draws = self.draws
        new.lake_owners = self.lake_owners
        new.scores = self.scores
        new.valuations = self.valuations
        new.sale_cards = self.sale_cards
        new.sales_round = self.sales_round
        new.sale = self.sale.copy() if self.sale is not None else None
        return new

    def seats_from(self, first: int) -> tuple[int, ...]:
        """All seats clockwise starting at ``first`` (a shared tuple)."""
        return _ORDERS[self.n][first % self.n]


_ORDERS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    n: tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(1, 5)
}


def replace_at(t: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``t`` with item ``i`` replaced."""
    return (*t[:i], value, *t[i + 1 :])
