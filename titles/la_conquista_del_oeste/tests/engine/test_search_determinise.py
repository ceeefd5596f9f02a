"""La Conquista del Oeste's ``determinise`` hook and the search bot: the determinisation
(and so the bot's move) never depends on what the seat cannot see (other hands, the
order of both decks, the generator, the cards of an offer between two other seats), and
it keeps everything the seat sees, including the cards offered to it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine.bots import choose_action, get_bot
from titles.la_conquista_del_oeste.engine.state import State
from titles.la_conquista_del_oeste.tests.engine.helpers import BOTS, G


def rand(seed: int | str) -> random.Random:
    """A seeded generator (for bots and test data, not for security)."""
    return random.Random(seed)  # noqa: S311


def walk(n: int, seed: int) -> Iterator[State]:
    """States of a game between random and greedy players (the random ones make offers,
    some with Opportunity cards)."""
    rnd = rand(seed)
    s = G.setup(n, f"search-walk-{seed}")
    steps = 0
    while not G.is_over(s) and steps < 900:
        yield s
        seat = min(G.to_act(s))
        bot = BOTS["random" if (seat + steps // 50) % 2 else "greedy"]
        action = bot.choose(G, G.view(s, seat), G.legal_actions(s, seat), rnd)
        s, _ = G.apply(s, seat, action)
        steps += 1


def hidden_twin(s: State, seat: int, rnd: random.Random) -> State:
    """``s`` with everything ``seat`` cannot see redrawn: the other hands (same sizes; the
    cards of offers to or from ``seat`` stay where they are), the decks' order, the
    generator, and the cards of offers between two other seats."""
    t = s.copy()
    known = {c for o in s.offers if seat in (o["from"], o["to"]) for c in o["give"]["cards"]}
    others = [o for o in range(s.n) if o != seat]
    pool = [c for c in s.opp_deck if c not in known]
    pool += [c for o in others for c in s.players[o].hand if c not in known]
    rnd.shuffle(pool)
    for o in others:
        hand = s.players[o].hand
        keep = [c for c in hand if c in known]
        k = len(hand) - len(keep)
        t.players[o].hand = keep + pool[:k]
        pool = pool[k:]
    t.opp_deck = pool
    t.inc_deck = rnd.sample(s.inc_deck, len(s.inc_deck))
    t.rng = rnd.getrandbits(64)
    offers = []
    for o in s.offers:
        if seat not in (o["from"], o["to"]) and o["give"]["cards"]:
            cards = sorted(rnd.sample(t.players[o["from"]].hand, len(o["give"]["cards"])))
            o = {**o, "give": {**o["give"], "cards": cards}}
        offers.append(o)
    t.offers = offers
    return t


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinise_reads_nothing_the_seat_cannot_see(n: int) -> None:
    rnd = rand(n)
    checked = differed = hands = 0
    for step, s in enumerate(walk(n, n)):
        if step % 2 and not any(o["give"]["cards"] for o in s.offers):
            continue
        for seat in range(n):
            other = hidden_twin(s, seat, rnd)
            assert G.view(other, seat) == G.view(s, seat)  # the precondition
            assert G.legal_actions(other, seat) == G.legal_actions(s, seat)
            hands += [p.hand for p in other.players] != [p.hand for p in s.players]
            differed += other.opp_deck != s.opp_deck or other.inc_deck != s.inc_deck
            d1 = G.determinise(s, seat, rand(step))
            d2 = G.determinise(other, seat, rand(step))
            assert G.dump(d1) == G.dump(d2)
            assert G.view(d1, seat) == G.view(s, seat)
            assert G.legal_actions(d1, seat) == G.legal_actions(s, seat)
            assert sorted([*d1.opp_deck, *(c for p in d1.players for c in p.hand)]) == sorted(
                [*s.opp_deck, *(c for p in s.players for c in p.hand)]
            )
            checked += 1
    assert checked > 40
    assert differed > 0.9 * checked
    assert hands > 5


def test_an_offer_of_a_card_is_known_to_its_two_parties_only() -> None:
    s = next(
        st
        for st in walk(3, 4)
        if any(
            a["type"] == "offer" and a["give"].get("cards") for a in G.legal_actions(st, st.seat)
        )
    )
    offer = next(
        a for a in G.legal_actions(s, s.seat) if a["type"] == "offer" and a["give"].get("cards")
    )
    giver, taker = s.seat, offer["to"]
    s, _ = G.apply(s, giver, offer)
    (card,) = offer["give"]["cards"]
    third = next(o for o in range(3) if o not in (giver, taker))
    rnd = rand(1)
    for seat in range(3):
        other = hidden_twin(s, seat, rnd)
        assert G.view(other, seat) == G.view(s, seat)
        d1 = G.determinise(s, seat, rand(9))
        assert G.dump(d1) == G.dump(G.determinise(other, seat, rand(9)))
        assert G.view(d1, seat) == G.view(s, seat)
    # The taker knows the giver holds the card; the third seat does not.
    for k in range(6):
        assert card in G.determinise(s, taker, rand(k)).players[giver].hand
    moved = [card not in G.determinise(s, third, rand(k)).players[giver].hand for k in range(12)]
    assert any(moved)
    for k in range(12):
        d = G.determinise(s, third, rand(k))
        (o,) = d.offers
        assert len(o["give"]["cards"]) == 1
        assert o["give"]["cards"][0] in d.players[giver].hand


def test_the_search_move_is_the_same_whatever_the_hidden_parts() -> None:
    bot = get_bot(G.slug, "search", iterations=4)
    rnd = rand(5)
    checked = 0
    kinds: set[str] = set()
    states = [*walk(3, 11), *walk(2, 12)]
    for step, s in enumerate(states):
        if step % 12:
            continue
        for seat in sorted(G.to_act(s)):
            other = hidden_twin(s, seat, rnd)
            first = choose_action(bot, G, s, seat, rand(step))
            second = choose_action(bot, G, other, seat, rand(step))
            assert first == second
            kinds.add(first["type"])
            checked += 1
    assert checked > 15
    assert len(kinds) >= 3, kinds
