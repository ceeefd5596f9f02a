"""Private means private on every channel (issue 41, item 2): an invitation-only table's
game reaches nobody outside it through a profile, its statistics, its rating history, its
recent opponents or the API. The walk below visits every page and endpoint that lists
games or ratings, as an anonymous visitor and as a signed-in outsider, and looks for the
private game's link and id, its opponent and the statistics it would add."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from games.records.ratings import ratings_apply
from tests.accounts.factories import finished_game, make_user

pytestmark = pytest.mark.django_db

#: Every page and endpoint that lists games or ratings (the player is alice).
WALK = [
    "/",
    "/games/",
    "/games/inbox/",
    "/games/open-tables/",
    "/users/alice/",
    "/users/zzsecretbob/",
    "/leaderboard/",
    "/leaderboard/colorado-county/",
    "/bots/",
    "/api/games",
    "/api/games?player=alice",
    "/api/games?player=zzsecretbob",
    "/api/games?status=finished",
    "/api/users/alice",
    "/api/users/alice/games",
    "/api/users/alice/games?status=finished",
    "/api/users/zzsecretbob",
    "/api/users/zzsecretbob/games",
    "/api/bots",
]


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def tables() -> dict[str, object]:
    alice, secret, carol = make_user("alice"), make_user("zzsecretbob"), make_user("carol")
    dave = make_user("dave")
    public = finished_game([alice, dave], [30, 20])
    ratings_apply(game=public)
    private = finished_game([alice, secret], [9173, 13])
    Game.objects.filter(pk=private.pk).update(open_seats=False)
    private.refresh_from_db()
    ratings_apply(game=private)
    return {"alice": alice, "secret": secret, "carol": carol, "public": public, "private": private}


def _leaks(text: str, private: Game) -> list[str]:
    found = []
    if f"/games/{private.pk}/" in text:
        found.append("link")
    if f"#{private.pk}<" in text or f'"id": {private.pk},' in text:
        found.append("id")
    if re.search(r"(?<![0-9a-fA-F.])9173(?![0-9a-fA-F])", text):  # the private score
        found.append("score")
    return found


@pytest.mark.parametrize("viewer", ["anonymous", "carol"])
def test_no_page_or_endpoint_lists_a_private_game_to_outsiders(
    tables: dict[str, object], viewer: str
) -> None:
    private = tables["private"]
    assert isinstance(private, Game)
    client = _client(None if viewer == "anonymous" else tables["carol"])  # type: ignore[arg-type]
    for path in WALK:
        response = client.get(path)
        if response.status_code in (301, 302):  # sign-in first: nothing listed
            continue
        assert response.status_code == 200, (path, response.status_code)
        text = response.content.decode()
        if path.startswith("/api/"):
            text = json.dumps(response.json())
        assert not _leaks(text, private), (path, _leaks(text, private))
    profile = client.get("/users/alice/").content.decode()
    api = client.get("/api/users/alice").json()
    # The statistics count only the public game; the recent opponents skip the private one.
    assert api["stats"]["colorado-county"]["games"] == 1
    assert "zzsecretbob" not in profile
    alone = client.get("/users/zzsecretbob/").content.decode()
    assert "alice" not in alone.split("</header>", 1)[1]


@pytest.mark.parametrize("viewer", ["alice", "secret"])
def test_the_players_of_a_private_game_still_see_it(tables: dict[str, object], viewer: str) -> None:
    private = tables["private"]
    assert isinstance(private, Game)
    client = _client(tables[viewer])  # type: ignore[arg-type]
    profile = client.get("/users/alice/").content.decode()
    assert f"/games/{private.pk}/" in profile
    assert "zzsecretbob" in profile
    assert client.get("/api/users/alice").json()["stats"]["colorado-county"]["games"] == 2
