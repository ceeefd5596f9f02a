"""Pages show deadlines as an absolute time in the viewer's own time zone, with the zone's
name: the lobby's "my games", the game page's players list, and the panels the live page's
script swaps in after a socket update (the same server-rendered HTML)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Seat
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

DEADLINE = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)  # a Tuesday
PARIS = "Tue 1 Dec, 18:00 (Europe/Paris)"
NEW_YORK = "Tue 1 Dec, 12:00 (America/New_York)"
UTC_TEXT = "Tue 1 Dec, 17:00 (UTC)"
ISO = 'datetime="2026-12-01T17:00:00Z"'


def _table(make_user: Callable[..., User]) -> tuple[Game, User, User]:
    paris = make_user("paris", time_zone="Europe/Paris")
    york = make_user("york", time_zone="America/New_York")
    game = lifecycle.game_create(
        creator=paris, players=2, options={"flags": "random"}, invite=["york"]
    )
    lifecycle.game_join(game_id=game.pk, user=york)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert len(game.to_act) == 2  # both bid: both are due
    Seat.objects.filter(game=game).update(deadline=DEADLINE)
    return game, paris, york


def _get(user: User | None, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_game_page_shows_each_viewer_the_deadline_in_their_zone(make_user) -> None:
    game, paris, york = _table(make_user)
    paris_page = _get(paris, f"/games/{game.pk}/")
    york_page = _get(york, f"/games/{game.pk}/")
    # Both seats are to act: each viewer sees both deadlines, in their own zone.
    assert paris_page.count(PARIS) == 2
    assert york_page.count(NEW_YORK) == 2
    assert NEW_YORK not in paris_page
    assert PARIS not in york_page
    assert f'due <time class="deadline" {ISO}' in paris_page
    # Someone else, signed in but with no zone set, and a signed-out visitor: UTC.
    assert _get(make_user("nozone"), f"/games/{game.pk}/").count(UTC_TEXT) == 2
    Game.objects.filter(pk=game.pk).update(open_seats=True)
    assert _get(None, f"/games/{game.pk}/").count(UTC_TEXT) == 2


def test_the_live_pages_panels_show_the_same_absolute_deadline(make_user) -> None:
    """The script redraws the players list by swapping in /panels/ after each socket update:
    the same HTML, so the same zone."""
    game, paris, york = _table(make_user)
    assert _get(paris, f"/games/{game.pk}/panels/").count(PARIS) == 2
    assert _get(york, f"/games/{game.pk}/panels/").count(NEW_YORK) == 2


def test_the_lobby_shows_my_games_deadlines_in_my_zone(make_user) -> None:
    game, paris, york = _table(make_user)
    paris_lobby = _get(paris, "/games/")
    york_lobby = _get(york, "/")
    assert f"/games/{game.pk}/" in paris_lobby
    assert paris_lobby.count(PARIS) == 2
    assert york_lobby.count(NEW_YORK) == 2
    assert ISO in york_lobby
    assert "to act, due" in york_lobby


def test_an_unknown_zone_falls_back_to_utc_instead_of_failing(make_user) -> None:
    game, paris, _york = _table(make_user)
    User.objects.filter(pk=paris.pk).update(time_zone="Mars/Olympus_Mons")
    paris.refresh_from_db()
    assert _get(paris, f"/games/{game.pk}/").count(UTC_TEXT) == 2
    assert _get(paris, "/games/").count(UTC_TEXT) == 2
