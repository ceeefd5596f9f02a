"""The admin shows users with their ratings, and the rating tables."""

from __future__ import annotations

import pytest
from django.test import Client

from games.records.ratings import ratings_apply
from tests.accounts.factories import finished_game, make_bot, make_user

pytestmark = pytest.mark.django_db


def test_admin_lists_users_ratings_and_changes(client: Client) -> None:
    staff = make_user("marshal", is_staff=True, is_superuser=True)
    annie, bot = make_user("annie"), make_bot("greedy")
    game = finished_game([annie, bot], [60, 40])
    ratings_apply(game=game)
    client.force_login(staff)
    user_page = client.get(f"/admin/accounts/user/{annie.pk}/change/").content.decode()
    assert "colorado-county" in user_page  # the ratings inline
    assert "Playing over days" in user_page
    assert "bot-greedy" in client.get("/admin/accounts/rating/").content.decode()
    assert client.get("/admin/accounts/ratingchange/").status_code == 200
    assert client.get("/admin/accounts/user/?is_bot__exact=1").status_code == 200
