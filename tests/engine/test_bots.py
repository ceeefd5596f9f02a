"""The bot registry per title, and the generic ``random`` bot on a title it knows nothing
about (Colorado County's bots are tested in ``colorado_county/test_bots.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine.bots import GENERIC_BOTS, bot_names, get_bot
from games.engine.bots.random_bot import RandomBot
from tests.tiny_title import HighBot, TinyDuel, registered
from titles.colorado_county.engine.greedy_bot import GreedyBot
from titles.colorado_county.engine.random_bot import ColoradoCountyRandomBot


@pytest.fixture
def tiny() -> Iterator[TinyDuel]:
    with registered() as rules:
        yield rules


def test_bot_names_are_the_generic_bots_and_the_titles_own(tiny: TinyDuel) -> None:
    assert sorted(GENERIC_BOTS) == ["random"]
    assert bot_names("colorado-county") == ["greedy", "random", "search"]
    assert bot_names("tiny-duel") == ["high", "random"]


def test_get_bot_resolves_per_title(tiny: TinyDuel) -> None:
    assert isinstance(get_bot("colorado-county", "greedy"), GreedyBot)
    assert isinstance(get_bot("tiny-duel", "high"), HighBot)
    assert isinstance(get_bot("tiny-duel", "random"), RandomBot)
    # A title's own bot of a generic name takes its place (Colorado County's random bot
    # builds bids from the whole hand, which legal_actions lists one cowboy at a time).
    assert isinstance(get_bot("colorado-county", "random"), ColoradoCountyRandomBot)
    with pytest.raises(KeyError, match="Unknown bot 'greedy' for tiny-duel; known bots: high"):
        get_bot("tiny-duel", "greedy")
    with pytest.raises(KeyError, match="Unknown bot 'high' for colorado-county"):
        get_bot("colorado-county", "high")
    with pytest.raises(KeyError, match="Unknown title 'chess'"):
        get_bot("chess", "random")
    with pytest.raises(KeyError, match="Unknown title 'chess'"):
        bot_names("chess")


@pytest.mark.parametrize("name", ["random", "high"])
def test_bots_play_a_generic_title_to_the_end_with_legal_moves(tiny: TinyDuel, name: str) -> None:
    bot = get_bot("tiny-duel", name)
    for seed in range(5):
        rng = random.Random(seed)  # noqa: S311
        state = tiny.setup(2, seed)
        moves = 0
        while not tiny.is_over(state):
            seat = min(tiny.to_act(state))
            legal = tiny.legal_actions(state, seat)
            action = bot.choose(tiny, tiny.view(state, seat), legal, rng)
            assert action in legal
            state, _ = tiny.apply(state, seat, action)
            moves += 1
        assert moves == 6
