"""The replace-vote button on the game page: who sees it, voting through it, errors, CSRF.

A table that waits (``on_timeout="wait"``) lets the other players vote to replace a player
after their second missed deadline; the page posts to the same service as
``POST /api/games/{id}/replace_vote`` (PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, ReplaceVote, Seat
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

BID_FIRST = {"flags": "random"}


def _table(
    make_user: Callable[..., User], names: list[str], **create: object
) -> tuple[Game, list[User]]:
    users = [make_user(name) for name in names]
    game = lifecycle.game_create(
        creator=users[0],
        players=len(users),
        options=BID_FIRST,
        invite=[u.username for u in users[1:]],
        **create,
    )
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, users


def _late(game: Game, user: User, misses: int = 2) -> int:
    """``user`` has missed ``misses`` deadlines (the sweep's work; tested in test_timeouts)."""
    Seat.objects.filter(game=game, user=user).update(missed_deadlines=misses)
    return int(Seat.objects.get(game=game, user=user).seat)  # type: ignore[arg-type]


def _client(user: User | None, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    return client


def _page(user: User | None, game: Game) -> str:
    return _client(user).get(f"/games/{game.pk}/").content.decode()


BUTTON = "Vote to replace alice by the bot"


def test_the_button_is_shown_to_the_other_players_only(make_user) -> None:
    game, (alice, bob, carol) = _table(make_user, ["alice", "bob", "carol"], on_timeout="wait")
    _late(game, alice)
    bob_page = _page(bob, game)
    assert f'<button class="button secondary" type="submit">{BUTTON}</button>' in bob_page
    assert f'action="/games/{game.pk}/replace-vote/"' in bob_page
    number = Seat.objects.get(game=game, user=alice).seat
    assert f'<input type="hidden" name="seat" value="{number}">' in bob_page
    assert "Votes: 0 of the 2 needed." in bob_page
    assert BUTTON in _page(carol, game)
    # Not to the late player, not to spectators (signed in or not).
    assert BUTTON not in _page(alice, game)
    assert "Replace a late player" not in _page(alice, game)
    assert BUTTON not in _page(make_user("dave"), game)
    Game.objects.filter(pk=game.pk).update(open_seats=True)
    assert BUTTON not in _page(None, game)


def test_no_button_when_no_vote_is_open(make_user) -> None:
    game, (alice, bob) = _table(make_user, ["alice", "bob"], on_timeout="wait")
    _late(game, alice, misses=1)  # one miss is not enough
    assert "Replace a late player" not in _page(bob, game)
    # A table where the bot moves for late players has no vote at all.
    other, (erin, fred) = _table(make_user, ["erin", "fred"])
    _late(other, erin)
    assert "Replace a late player" not in _page(fred, other)
    # Nor once the game is over.
    _late(game, alice)
    assert BUTTON in _page(bob, game)
    lifecycle.game_abort(game_id=game.pk)
    assert BUTTON not in _page(bob, game)


def test_voting_from_the_page_records_the_vote_and_shows_you_voted(make_user) -> None:
    game, (alice, bob, carol) = _table(make_user, ["alice", "bob", "carol"], on_timeout="wait")
    number = _late(game, alice)
    client = _client(bob)
    answer = client.post(f"/games/{game.pk}/replace-vote/", {"seat": number})
    assert answer.status_code == 302
    assert answer["Location"] == f"/games/{game.pk}/"
    page = client.get(answer["Location"]).content.decode()
    assert "You voted to replace alice by the bot (1 of 2 votes)." in page
    assert "You voted" in page
    assert BUTTON not in page
    assert "Voted: bob." in page
    assert "Votes: 1 of the 2 needed." in page
    assert ReplaceVote.objects.filter(voter=bob).count() == 1
    # Carol sees bob's vote and still has her button; her vote replaces alice.
    carol_page = _page(carol, game)
    assert BUTTON in carol_page
    assert "Voted: bob." in carol_page
    follow = _client(carol).post(f"/games/{game.pk}/replace-vote/", {"seat": number}, follow=True)
    assert "alice is replaced: the bot plays their seat to the end." in follow.content.decode()
    seat = Seat.objects.select_related("user").get(game=game, user=alice)
    assert seat.is_out
    assert "Replace a late player" not in _page(bob, game)  # no vote left open


def test_posting_when_not_allowed_shows_a_clear_error_and_changes_nothing(make_user) -> None:
    game, (alice, bob) = _table(make_user, ["alice", "bob"], on_timeout="wait")
    number = _late(game, alice, misses=1)
    url = f"/games/{game.pk}/replace-vote/"
    cases = [
        (bob, {"seat": number}, "A player can be replaced only after missing two deadlines."),
        (alice, {"seat": number}, "You cannot vote to replace yourself."),
        (make_user("dave"), {"seat": number}, "Only the players at this table can vote."),
        (bob, {"seat": "x"}, "Choose the player you vote to replace."),
        (bob, {"seat": "-1"}, "Choose the player you vote to replace."),
        (bob, {"seat": str(10**30)}, "Choose the player you vote to replace."),
        (bob, {}, "Choose the player you vote to replace."),
        (bob, {"seat": "7"}, "There is no such seat."),
    ]
    for user, data, message in cases:
        answer = _client(user).post(url, data, follow=True)
        assert answer.status_code == 200, (data, message)
        assert message in answer.content.decode(), (data, message)
    assert not ReplaceVote.objects.exists()
    assert not Seat.objects.get(game=game, user=alice).bot_kind
    # JSON callers get the service's code.
    answer = _client(bob).post(url, {"seat": number}, headers={"Accept": "application/json"})
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_replaceable"
    # Signed out: to the sign-in page; GET is not allowed; unknown games are not a 500.
    assert _client(None).post(url, {"seat": number}).status_code == 302
    assert _client(bob).get(url).status_code == 405
    assert _client(bob).post("/games/999999/replace-vote/", {"seat": 0}).status_code == 302
    assert not ReplaceVote.objects.exists()


def test_the_vote_form_needs_a_csrf_token(make_user) -> None:
    game, (alice, bob) = _table(make_user, ["alice", "bob"], on_timeout="wait")
    number = _late(game, alice)
    client = _client(bob, csrf=True)
    assert client.post(f"/games/{game.pk}/replace-vote/", {"seat": number}).status_code == 403
    assert not ReplaceVote.objects.exists()
    assert not Seat.objects.get(game=game, user=alice).bot_kind
    # With the token from the page the same post goes through.
    page = client.get(f"/games/{game.pk}/").content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    answer = client.post(
        f"/games/{game.pk}/replace-vote/", {"seat": number, "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    assert Seat.objects.get(game=game, user=alice).bot_kind == "greedy"
