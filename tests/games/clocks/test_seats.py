"""A player replaced by vote is out, like a player who resigned: the bot plays the seat, the
person can no longer act, the log says so, and ratings rank them last. A player the bot
merely stood in for once (``on_timeout="bot"``) keeps the seat (PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import RatingChange, User
from games import moves
from games.clocks.sweep import deadlines_sweep
from games.models import Game, Move, Seat, SeatHandover
from games.selectors import documents
from games.tables import lifecycle
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

BID_FIRST = {"flags": "random"}  # everyone bids first: every seat is due with a deadline
FAST = {"initial_hours": 24, "increment_hours": 4, "max_hours": 72}


def _table(
    make_user: Callable[..., User], players: int = 2, **create: object
) -> tuple[Game, list[User]]:
    users = [make_user(email=f"p{n}@example.org") for n in range(players)]
    invite = [u.username for u in users[1:]]
    game = lifecycle.game_create(
        creator=users[0], players=players, options=BID_FIRST, clock=FAST, invite=invite, **create
    )
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    User.objects.filter(pk__in=[u.pk for u in users]).update(vacation_days=0)
    return game, users


def _seat(game: Game, user: User) -> Seat:
    return Seat.objects.select_related("user").get(game=game, user=user)


def _miss_twice(game: Game, user: User) -> None:
    """Two missed deadlines at a waiting table, through the sweep."""
    for _ in range(2):
        Seat.objects.filter(game=game, user=user).update(
            deadline=timezone.now() - timedelta(minutes=1)
        )
        assert deadlines_sweep() == {"waiting": 1}
    assert _seat(game, user).missed_deadlines == 2


def test_a_player_replaced_by_vote_is_out_and_the_log_says_so(make_user, api):
    game, (alice, bob) = _table(make_user, on_timeout="wait")
    _miss_twice(game, alice)
    number = _seat(game, alice).seat
    answer = api(bob).post(f"/api/games/{game.pk}/replace_vote", {"seat": number})
    assert answer.json()["replaced"] is True

    seat = _seat(game, alice)
    assert seat.bot_kind == "greedy"
    assert seat.is_out
    assert not seat.resigned  # replaced, not resigned: the profile tells them apart
    # The bot played her due bid at once, as the bot (not as a one-off stand-in).
    (bid,) = Move.objects.filter(game=game, seat=number)
    assert bid.actor == "bot"

    # She can no longer act: her page offers nothing, the API refuses with its own code.
    doc = api(alice).get(f"/api/games/{game.pk}").json()
    assert doc["legal_actions"] == []
    refused = api(alice).post(
        f"/api/games/{game.pk}/actions", {"action": {"type": "bid", "cowboys": []}}
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "replaced"
    assert "replaced you by the bot" in refused.json()["message"]
    # Nothing was written by the refused action.
    assert Move.objects.filter(game=game, seat=number).count() == 1
    # Resigning now has nothing to give up; nor can she vote against anyone.
    resign = api(alice).post(f"/api/games/{game.pk}/resign")
    assert resign.status_code == 409
    assert resign.json()["code"] == "replaced"

    # The log says she was replaced by vote, to everyone, after the move it followed.
    handover = SeatHandover.objects.get(game=game)
    assert (handover.seat, handover.reason, handover.user_id) == (number, "vote", alice.pk)
    log = api(bob).get(f"/api/games/{game.pk}/log").json()
    entry = next(e for e in log if e["type"] == "seat_handed_to_bot")
    assert entry["seat"] == number
    assert entry["reason"] == "vote"
    assert log.index(entry) < log.index(next(e for e in log if e.get("actor") == "bot"))
    spectator = make_user()
    assert any(
        e["type"] == "seat_handed_to_bot"
        for e in documents.game_log(game=Game.objects.get(pk=game.pk), user=spectator)
    )
    bob_page = _page(bob, game)
    name = alice.shown_name
    assert f"{name} missed their deadlines and was replaced by the bot by a vote" in bob_page
    alice_page = _page(alice, game)
    assert "the other players voted to replace you" in alice_page
    assert "The other players replaced you by the bot after missed deadlines" in alice_page
    assert "Resign this game" not in alice_page


def _page(user: User, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def test_resigning_is_in_the_log_too_and_cannot_happen_twice_through_the_page(make_user):
    game, (alice, bob) = _table(make_user)
    client = Client()
    client.force_login(alice)
    client.post(f"/games/{game.pk}/resign/")
    assert _seat(game, alice).resigned
    again = client.post(f"/games/{game.pk}/resign/", follow=True).content.decode()
    assert "You have already resigned." in again
    assert SeatHandover.objects.filter(game=game).count() == 1
    assert "resigned; the bot plays their seat to the end." in _page(bob, game)


def test_a_player_the_bot_stood_in_for_keeps_the_seat_and_plays_on(make_user):
    game, (alice, bob) = _table(make_user)  # on_timeout="bot"
    for _ in range(2):  # two misses: still hers
        Seat.objects.filter(game=game, user=alice).update(
            deadline=timezone.now() - timedelta(minutes=1)
        )
        assert deadlines_sweep() == {"bot_moved": 1}
        seat = _seat(game, alice)
        assert not seat.bot_kind
        assert not seat.is_out
        # Play on until alice is due again (bob moves when it is his turn).
        game.refresh_from_db()
        while game.status == Game.Status.RUNNING and seat.seat not in game.to_act:
            doc = documents.game_document(game=game, user=bob)
            moves.action_submit(
                game_id=game.pk,
                user=bob,
                action=doc["legal_actions"][0],
                version=doc["version"],
            )
            game.refresh_from_db()
    assert _seat(game, alice).missed_deadlines == 2
    assert not SeatHandover.objects.filter(game=game).exists()
    # She acts herself on her next turn.
    doc = documents.game_document(game=game, user=alice)
    assert doc["legal_actions"]
    moves.action_submit(
        game_id=game.pk, user=alice, action=doc["legal_actions"][0], version=doc["version"]
    )
    assert Move.objects.filter(game=game, actor="player", user=alice).exists()


def test_no_replace_vote_where_the_bot_moves_for_late_players(make_user, api):
    game, (alice, bob) = _table(make_user)  # on_timeout="bot"
    Seat.objects.filter(game=game, user=alice).update(missed_deadlines=2)
    answer = api(bob).post(f"/api/games/{game.pk}/replace_vote", {"seat": _seat(game, alice).seat})
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_replaceable"
    assert not _seat(game, alice).bot_kind


def test_ratings_rank_a_player_replaced_by_vote_last(make_user, api):
    game, (alice, bob, carol) = _table(make_user, players=3, on_timeout="wait")
    _miss_twice(game, alice)
    number = _seat(game, alice).seat
    first = api(bob).post(f"/api/games/{game.pk}/replace_vote", {"seat": number}).json()
    assert first == {"seat": number, "votes": 1, "needed": 2, "replaced": False}
    second = api(carol).post(f"/api/games/{game.pk}/replace_vote", {"seat": number}).json()
    assert second["replaced"] is True
    game = play_randomly(game, [bob, carol], seed=5)
    assert game.status == Game.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(game_obj=game)}
    assert set(changes) == {alice.pk, bob.pk, carol.pk}  # the bot earns nothing
    finishers = sorted({changes[bob.pk].rank, changes[carol.pk].rank})
    # Last, below everyone who finished, whatever her bot scored.
    assert changes[alice.pk].rank == len(finishers) + 1
    assert changes[alice.pk].rank > max(changes[bob.pk].rank, changes[carol.pk].rank)
    assert changes[alice.pk].mu_after < changes[alice.pk].mu_before
