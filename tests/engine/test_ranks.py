"""The ``ranks`` hook (``games.engine.final_ranks``): a title that breaks ties in score
gives its own ranks; any other title's ranks are the competition ranks of its scores."""

from __future__ import annotations

from games.engine import competition_ranks, final_ranks, get_rules, title_slugs


def test_competition_ranks_share_a_rank_and_skip_the_next() -> None:
    assert competition_ranks([5, 9, 5, 1]) == [2, 1, 2, 4]


def test_a_title_without_the_hook_ranks_by_its_scores() -> None:
    rules = get_rules("colorado-county")
    assert "ranks" not in rules.declaration.hooks
    state = rules.setup(2, "ranks")
    assert final_ranks(rules, state) == competition_ranks(list(rules.result(state)))


def test_every_title_with_the_hook_ranks_consistently_with_its_scores() -> None:
    """A seat never ranks behind a seat with a lower score, and someone ranks first."""
    from games.engine.__main__ import play_game
    from games.engine.bots import get_bot

    for slug in title_slugs():
        rules = get_rules(slug)
        if "ranks" not in rules.declaration.hooks:
            continue
        for game in range(3):
            bot = get_bot(slug, rules.stand_in_bot)
            state, _ = play_game(rules, [bot, bot], f"ranks:{game}", None)
            scores, ranks = list(rules.result(state)), final_ranks(rules, state)
            assert 1 in ranks
            for a in range(len(scores)):
                for b in range(len(scores)):
                    if scores[a] > scores[b]:
                        assert ranks[a] < ranks[b], (slug, scores, ranks)
