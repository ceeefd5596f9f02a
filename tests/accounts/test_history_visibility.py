"""A player's game list (profile page and ``GET /api/users/{username}/games``) follows the one
visibility rule (``games.selectors.documents.can_watch``): an invitation-only table's game, with its
scores, is listed only to the people who may see that table."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from tests.accounts.factories import finished_game, make_user

pytestmark = pytest.mark.django_db


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_private_tables_game_is_listed_only_to_its_players() -> None:
    alice, bob, outsider = make_user("alice"), make_user("bob"), make_user("carol")
    public = finished_game([alice, bob], [30, 20])
    private = finished_game([alice, bob], [11, 44])
    Game.objects.filter(pk=private.pk).update(open_seats=False)
    for viewer, sees_private in ((None, False), (outsider, False), (bob, True), (alice, True)):
        client = _client(viewer)
        listed = {g["id"] for g in client.get("/api/users/alice/games").json()["games"]}
        assert listed == ({public.pk, private.pk} if sees_private else {public.pk}), viewer
        page = client.get("/users/alice/").content.decode()
        assert f"/games/{public.pk}/" in page
        assert (f"/games/{private.pk}/" in page) == sees_private, viewer
