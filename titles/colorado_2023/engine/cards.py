"""Card handling shared by the steps: drawing from the deck (the discard pile shuffled in
when it runs out, CO-13), taking cards out of a hand, what a called seat may give."""

from __future__ import annotations

from games.engine import _rng

from .data import CARDS, COLOURS, colour_of, value_of
from .state import State


def draw(s: State, k: int) -> tuple[State, list[str]]:
    """Draw up to ``k`` cards; CO-13: an empty deck takes the shuffled discard pile, and
    with both empty nothing more is drawn."""
    deck, discard, rng = list(s.deck), list(s.discard), s.rng
    got: list[str] = []
    while len(got) < k:
        if not deck:
            if not discard:
                break
            deck, discard = sorted(discard), []
            rng = _rng.shuffle(rng, deck)
        got.append(deck.pop())
    return s.with_(deck=tuple(deck), discard=tuple(discard), rng=rng), got


def without(cards: tuple[str, ...], taken: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``cards`` less one copy of each of ``taken`` (``ValueError`` when one is missing)."""
    out = list(cards)
    for c in taken:
        out.remove(c)
    return tuple(sorted(out))


def card_order(card: str) -> tuple[int, int]:
    return value_of(card), COLOURS.index(colour_of(card))


def matching(hand: tuple[str, ...], named: str) -> list[str]:
    """The distinct cards of ``hand`` sharing the named card's colour or value."""
    colour, value = colour_of(named), value_of(named)
    return sorted(
        {c for c in hand if colour_of(c) == colour or value_of(c) == value}, key=card_order
    )


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in CARDS
