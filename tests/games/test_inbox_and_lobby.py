"""Issue 15: the inbox (games waiting for me, by time left; invitations and rematch offers
with who invited me), the header's count on every page, and the lobby's open tables (their
clock, options, rated or not and who is seated, before joining)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _pair(make_user: Callable[..., User], alice: User) -> Game:
    other = make_user()
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=other)
    game.refresh_from_db()
    return game


def test_the_header_counts_games_waiting_and_the_inbox_sorts_them_by_time_left(make_user):
    alice = make_user("alice")
    first, second = _pair(make_user, alice), _pair(make_user, alice)
    # Both open with a simultaneous bid: alice is due at both. The second is due sooner.
    soon = timezone.now() + timedelta(hours=2)
    Seat.objects.filter(game=second, user=alice).update(deadline=soon)
    Seat.objects.filter(game=first, user=alice).update(deadline=soon + timedelta(days=1))
    bob = make_user("bob")
    invited = lifecycle.game_create(creator=bob, players=3, invite=["alice"], open_seats=False)

    client = _client(alice)
    lobby = client.get("/").content.decode()
    assert re.search(r'id="inbox-count"[^>]*>3<', lobby)
    assert "games waiting for you" in lobby
    page = client.get("/games/inbox/").content.decode()
    assert "3 games waiting for you" in page
    assert page.index(f"/games/{second.pk}/") < page.index(f"/games/{first.pk}/")
    assert f"/games/{invited.pk}/" in page
    assert "invited by bob" in page
    # Taking the seat answers the invitation: it leaves the count.
    client.post(f"/games/{invited.pk}/join/")
    assert client.get("/games/inbox/count/").json() == {"count": 2}


def test_a_rematch_offer_is_marked_in_the_inbox(make_user):
    from tests.play import play_randomly

    alice, bob = make_user("alice"), make_user("bob")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    game = play_randomly(Game.objects.get(pk=game.pk), [alice, bob], seed=1)
    assert game.status == Game.Status.FINISHED
    rematch = lifecycle.game_rematch(game_id=game.pk, user=alice)
    page = _client(bob).get("/games/inbox/").content.decode()
    row = page[page.index(f'data-game="{rematch.pk}"') :]
    row = row[: row.index("</li>")]
    assert "rematch" in row
    assert "invited by alice" in row


def test_open_tables_show_their_terms_and_who_sits_before_joining(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = lifecycle.game_create(
        creator=alice, players=3, clock="slow", rated=False, on_timeout="wait", bots=["random"]
    )
    html = _client(bob).get("/games/open-tables/").content.decode()
    entry = html[html.index(f'data-table="{game.pk}"') :]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", entry))
    assert "2 of 3 seats" in text
    assert "Clock: 7 days, +3 days a move, at most 14 days" in text
    assert "the table waits for a late player" in text
    assert "unrated" in text
    assert "Seated: alice, Random bot" in text
    # The lobby holds the same list, in the element its script refreshes.
    assert 'id="open-tables"' in _client(bob).get("/").content.decode()


def test_an_invitation_only_table_is_listed_only_for_its_invitees(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    assert f'data-table="{game.pk}"' in _client(bob).get("/games/open-tables/").content.decode()
    assert f'data-table="{game.pk}"' not in (
        _client(carol).get("/games/open-tables/").content.decode()
    )
    assert f'data-table="{game.pk}"' not in Client().get("/games/open-tables/").content.decode()


def test_the_creator_of_a_waiting_table_is_told_they_have_a_seat(make_user):
    alice = make_user("alice")
    game = lifecycle.game_create(creator=alice, players=2)
    page = _client(alice).get(f"/games/{game.pk}/").content.decode()
    assert "You have a seat at this table" in page
    assert "You are watching" not in page
    assert "js/table_wait.js" in page
    assert "You are watching" in _client(make_user()).get(f"/games/{game.pk}/").content.decode()
