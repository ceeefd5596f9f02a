"""Issue 15, bug 12 and the profile's words: a rating on a scale people know (a newcomer
at 1500, one loss about 1430, never "-1.8"), provisional ratings explained, a leaderboard
of settled players with the bots listed apart, and a profile that names players by their
display names and writes dates unambiguously."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import Rating, display_rating
from games.records.ratings import ratings_apply
from tests.accounts.factories import finished_game, make_bot, make_user

pytestmark = pytest.mark.django_db


def test_a_newcomer_shows_1500_and_one_loss_moves_it_a_little() -> None:
    assert display_rating(25.0, 25.0 / 3) == 1500
    alice = make_user("alice")
    bot = make_bot("greedy")
    ratings_apply(game=finished_game([alice, bot], [10, 30]))
    rating = Rating.objects.get(user=alice)
    assert 1350 < rating.display < 1500
    assert rating.display == round(rating.display)
    page = Client().get("/users/alice/").content.decode()
    figure = re.search(r'data-rating="([^"]+)"', page)
    assert figure is not None
    assert figure.group(1) == str(int(rating.display))
    assert "Provisional: everyone starts at 1500" in page


def test_the_leaderboard_ranks_settled_people_and_lists_bots_apart() -> None:
    bot = make_bot("greedy")
    veteran, newcomer = make_user("veteran"), make_user("newcomer")
    for _ in range(Rating.PROVISIONAL_GAMES):
        ratings_apply(game=finished_game([veteran, bot], [20, 10]))
    ratings_apply(game=finished_game([newcomer, bot], [5, 30]))
    page = Client().get("/leaderboard/").content.decode()
    players = page[page.index('id="leaderboard-players"') : page.index("</table>")]
    assert "veteran" in players
    assert "newcomer" not in players
    assert bot.shown_name not in players
    bots = page[page.index('id="leaderboard-bots"') :]
    assert bot.shown_name in bots
    assert "1 player with a provisional rating is not ranked yet." in page
    assert "Everyone starts at 1500" in page


def test_the_profile_names_players_by_display_name_and_dates_unambiguously() -> None:
    alice = make_user("alice")
    bot = make_bot("greedy")
    bot.display_name = "Greedy bot"  # as the site's bot accounts are named
    bot.save(update_fields=["display_name"])
    game = finished_game([alice, bot], [10, 30])
    ratings_apply(game=game)
    page = Client().get("/users/alice/").content.decode()
    assert f">{bot.shown_name}</a>" in page
    assert f">{bot.username}</a>" not in page
    assert not re.search(r"\b\d\d/\d\d/\d{4}\b", page)
    assert game.finished_at.strftime("%b %Y").split()[0] in page
