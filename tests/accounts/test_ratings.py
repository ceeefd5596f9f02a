"""OpenSkill ratings: the maths, the ranking rules of docs/accounts.md, and exactly-once updates."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from accounts.models import Rating, RatingChange
from games.models import Game
from games.records.ratings import Skill, rated_ranks, ratings_apply, skills_update
from tests.accounts import plackett_luce_reference as reference
from tests.accounts.factories import finished_game, make_bot, make_user

FRESH = (reference.MU, reference.SIGMA)


def _ours(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    skills = skills_update(skills=[Skill(mu, sigma) for mu, sigma in players], ranks=ranks)
    return [(s.mu, s.sigma) for s in skills]


def test_two_newcomers_winner_gains_what_the_loser_loses_by_hand() -> None:
    # By hand: sigma^2 = (25/3)^2 + (1/12)^2 = 69.4514; c = sqrt(2 (69.4514 + 17.3611))
    # = 13.1767; both exp(mu/c) equal, so p = 1/2 for the winner's only term:
    # Omega = 69.4514 / 13.1767 * 1/2 = 2.6354; Delta = (8.33375 / 13.1767) * 0.4 * 1/4
    # = 0.063246; sigma' = 8.33375 * sqrt(1 - 0.063246) = 8.0659.
    (win_mu, win_sigma), (lose_mu, lose_sigma) = _ours([FRESH, FRESH], [1, 2])
    assert win_mu == pytest.approx(27.6354, abs=1e-3)
    assert lose_mu == pytest.approx(22.3646, abs=1e-3)
    assert win_sigma == pytest.approx(8.0659, abs=1e-3)
    assert lose_sigma == pytest.approx(8.0659, abs=1e-3)


@pytest.mark.parametrize(
    ("players", "ranks"),
    [
        ([FRESH, FRESH], [2, 1]),
        ([FRESH, FRESH], [1, 1]),
        ([(30.0, 4.0), (22.0, 7.5)], [2, 1]),
        ([FRESH, FRESH, FRESH], [1, 2, 3]),
        ([(28.0, 5.0), (25.0, 8.3), (19.0, 3.0)], [3, 1, 2]),
        ([(28.0, 5.0), (25.0, 8.3), (19.0, 3.0)], [1, 1, 3]),
        ([(28.0, 5.0), (25.0, 8.3), (19.0, 3.0)], [2, 1, 1]),
        ([FRESH, FRESH, FRESH, FRESH], [1, 2, 3, 4]),
        ([(31.0, 2.5), (26.0, 6.0), (24.0, 8.0), (18.0, 4.5)], [4, 3, 2, 1]),
        ([(31.0, 2.5), (26.0, 6.0), (24.0, 8.0), (18.0, 4.5)], [1, 2, 2, 4]),
        ([(31.0, 2.5), (26.0, 6.0), (24.0, 8.0), (18.0, 4.5)], [1, 1, 3, 3]),
        ([(31.0, 2.5), (26.0, 6.0), (24.0, 8.0), (18.0, 4.5)], [2, 1, 2, 2]),
    ],
)
def test_updates_match_the_plackett_luce_formulas(
    players: list[tuple[float, float]], ranks: list[int]
) -> None:
    expected = reference.update(players, ranks)
    for (mu, sigma), (want_mu, want_sigma) in zip(_ours(players, ranks), expected, strict=True):
        assert mu == pytest.approx(want_mu, abs=1e-9)
        assert sigma == pytest.approx(want_sigma, abs=1e-9)


def test_tied_players_move_together_and_the_winner_gains_most() -> None:
    after = _ours([FRESH] * 4, [1, 2, 2, 4])
    assert after[1][0] == pytest.approx(after[2][0])
    assert after[0][0] > FRESH[0] > after[1][0] > after[3][0]


def test_forfeited_players_rank_last_and_tie_among_themselves() -> None:
    assert rated_ranks(ranks=[1, 2, 3, 4], forfeited=[False] * 4) == [1, 2, 3, 4]
    # The resigned player's bot won the game: still last.
    assert rated_ranks(ranks=[1, 2, 3, 4], forfeited=[True, False, False, False]) == [4, 1, 2, 3]
    assert rated_ranks(ranks=[1, 1, 3, 4], forfeited=[False, True, False, True]) == [1, 3, 2, 3]
    assert rated_ranks(ranks=[2, 1], forfeited=[True, True]) == [1, 1]


@pytest.mark.django_db
def test_finishing_a_game_rates_every_seat_once() -> None:
    alice, bob, cat = make_user(), make_user(), make_user()
    game = finished_game([alice, bob, cat], [40, 55, 31])
    ratings_apply(game=game)
    ratings = {r.user_id: r for r in Rating.objects.filter(game="colorado-county")}
    assert set(ratings) == {alice.pk, bob.pk, cat.pk}
    expected = reference.update([FRESH] * 3, [2, 1, 3])
    for user, (mu, sigma) in zip([alice, bob, cat], expected, strict=True):
        assert ratings[user.pk].mu == pytest.approx(mu)
        assert ratings[user.pk].sigma == pytest.approx(sigma)
        assert ratings[user.pk].games == 1
        assert ratings[user.pk].provisional
    assert ratings[bob.pk].display > ratings[alice.pk].display > ratings[cat.pk].display
    assert sorted(RatingChange.objects.filter(game_obj=game).values_list("rank", flat=True)) == [
        1,
        2,
        3,
    ]


@pytest.mark.django_db
def test_a_repeated_finish_changes_nothing() -> None:
    alice, bob = make_user(), make_user()
    game = finished_game([alice, bob], [60, 50])
    ratings_apply(game=game)
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    ratings_apply(game=game)
    assert ratings_apply(game=game) == []
    after = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    assert after == before
    assert RatingChange.objects.filter(game_obj=game).count() == 2


@pytest.mark.django_db
def test_ratings_carry_over_from_game_to_game() -> None:
    alice, bob = make_user(), make_user()
    for _ in range(5):
        ratings_apply(game=finished_game([alice, bob], [60, 50]))
    state = [FRESH, FRESH]
    for _ in range(5):
        state = reference.update(state, [1, 2])
    rating = Rating.objects.get(user=alice)
    assert (rating.mu, rating.sigma) == pytest.approx(state[0])
    assert rating.games == 5
    assert not rating.provisional
    history = list(RatingChange.objects.filter(user=alice).order_by("created_at", "id"))
    assert [round(c.mu_before, 9) for c in history[1:]] == [
        round(c.mu_after, 9) for c in history[:-1]
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["unrated", "aborted"])
def test_unrated_and_aborted_games_are_not_rated(how: str) -> None:
    alice, bob = make_user(), make_user()
    if how == "unrated":
        game = finished_game([alice, bob], [60, 50], rated=False)
    else:
        game = finished_game([alice, bob], [60, 50], status=Game.Status.ABORTED)
    ratings_apply(game=game)
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_player_who_resigned_is_ranked_last_even_if_their_bot_won() -> None:
    alice, bob, cat = make_user(), make_user(), make_user()
    game = finished_game([alice, bob, cat], [70, 50, 40], resigned=[True, False, False])
    ratings_apply(game=game)
    ranks = dict(RatingChange.objects.filter(game_obj=game).values_list("user_id", "rank"))
    assert ranks == {alice.pk: 3, bob.pk: 1, cat.pk: 2}
    expected = reference.update([FRESH] * 3, [3, 1, 2])
    assert Rating.objects.get(user=alice).mu == pytest.approx(expected[0][0])
    assert Rating.objects.get(user=alice).mu < reference.MU


@pytest.mark.django_db
def test_a_seat_taken_over_by_a_bot_earns_the_bot_nothing() -> None:
    alice, bob = make_user(), make_user()
    bot = make_bot("greedy")
    game = finished_game([alice, bob], [80, 50], replaced=[True, False])
    ratings_apply(game=game)
    assert not Rating.objects.filter(user=bot).exists()
    assert Rating.objects.get(user=alice).mu < reference.MU < Rating.objects.get(user=bob).mu


@pytest.mark.django_db
def test_two_replaced_players_tie_for_last() -> None:
    users = [make_user() for _ in range(4)]
    game = finished_game(users, [80, 70, 60, 50], replaced=[False, True, False, True])
    ratings_apply(game=game)
    ranks = [RatingChange.objects.get(game_obj=game, user=u).rank for u in users]
    assert ranks == [1, 3, 2, 3]
    mus = [Rating.objects.get(user=u).mu for u in users]
    assert mus[1] == pytest.approx(mus[3])


@pytest.mark.django_db
def test_bots_playing_their_own_seats_are_rated() -> None:
    alice = make_user()
    bot = make_bot("greedy")
    game = finished_game([alice, bot], [40, 90])
    ratings_apply(game=game)
    assert Rating.objects.get(user=bot).mu > reference.MU > Rating.objects.get(user=alice).mu


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("known", [False, True], ids=["new players", "rated players"])
def test_games_finishing_at_the_same_moment_lose_no_update(known: bool) -> None:
    alice, bob, cat = make_user(), make_user(), make_user()
    if known:
        ratings_apply(game=finished_game([alice, bob, cat], [3, 2, 1]))
    first = finished_game([alice, bob], [60, 50])
    second = finished_game([alice, cat], [40, 70])
    barrier = threading.Barrier(2, timeout=20)
    errors: list[BaseException] = []

    def finish(game: Game) -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                barrier.wait()
                ratings_apply(game=game)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g,)) for g in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    rating = Rating.objects.get(user=alice)
    assert rating.games == (3 if known else 2)
    one = RatingChange.objects.get(user=alice, game_obj=first)
    two = RatingChange.objects.get(user=alice, game_obj=second)
    # One game was rated on top of the other, in some order: no update was lost.
    chained = {(one.mu_after, two.mu_before), (two.mu_after, one.mu_before)}
    assert any(a == pytest.approx(b) for a, b in chained)
    assert rating.mu in (pytest.approx(one.mu_after), pytest.approx(two.mu_after))
