"""The search bot's hooks for La Conquista del Oeste (``games.engine.bots.search``).

``determinise(state, seat, rng)`` rebuilds what ``seat`` cannot see (LC-25) from public
information and the seat's own knowledge only:

- Opportunity cards: the seat knows its own hand and the cards offered to it or by it in
  an open offer (LC-24); every other card not in its hand is in another hand or in the
  deck, and each other seat's hand size is public. The other hands are refilled at random
  from those unknown cards (keeping the cards the seat knows a hand holds), the rest make
  the deck in a random order. An open offer between two other seats gives a known number
  of hidden cards: they become that many cards of the offerer's new hand;
- the Incident deck's order and the generator are new.

The deck is shuffled whole: the engine keeps no history for a bot, so what a seat could
remember of the deck's bottom (the cards played or put back, in order) is not used; this
only makes the determinisations a little less informed, never better informed.

The hidden fields are read or written only in ``_redeal_cards`` (hands, the Opportunity
deck, the cards of offers), ``determinise`` (Incident deck, rng).

The search's other hooks (the moves it weighs, its playouts) are in ``search_hooks``.
"""

from __future__ import annotations

from games.engine import Generator

from .state import State


def determinise(s: State, seat: int, rng: Generator) -> State:
    t = s.copy()
    _redeal_cards(s, t, seat, rng)
    inc = sorted(s.inc_deck)
    rng.shuffle(inc)
    t.inc_deck = inc
    t.rng = rng.getrandbits(64)
    return t


def _redeal_cards(s: State, t: State, seat: int, rng: Generator) -> None:
    known: dict[int, list[str]] = {o: [] for o in range(s.n) if o != seat}
    for offer in s.offers:
        if seat in (offer["from"], offer["to"]) and offer["from"] != seat:
            known[offer["from"]].extend(offer["give"]["cards"])
    hidden = sorted(set(s.opp_deck) | {c for q in known for c in s.players[q].hand})
    pool = [c for c in hidden if not any(c in cards for cards in known.values())]
    rng.shuffle(pool)
    for q in sorted(known):
        hand = s.players[q].hand
        have = [c for c in hand if c in known[q]]
        k = len(hand) - len(have)
        t.players[q].hand = have + pool[:k]
        pool = pool[k:]
    t.opp_deck = pool
    offers = []
    for o in s.offers:
        if seat in (o["from"], o["to"]) or not o["give"]["cards"]:
            offers.append(o)
            continue
        hand = list(t.players[o["from"]].hand)
        rng.shuffle(hand)
        cards = sorted(hand[: len(o["give"]["cards"])])
        offers.append({**o, "give": {**o["give"], "cards": cards}})
    t.offers = offers
