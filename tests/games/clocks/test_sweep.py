"""Missed deadlines: the sweep, vacation first, the bot standing in, waiting tables, replace
votes and resigning; exactly once even with two sweeps racing (PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.clocks.sweep import CLAIM_LEASE, deadline_handle, deadlines_claim, deadlines_sweep
from games.models import Game, Move, Seat
from games.moves import effects
from games.selectors import documents
from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)

BID_FIRST = {"flags": "random"}
FAST = {"initial_hours": 24, "increment_hours": 4, "max_hours": 72}


def _table(make_user: Callable[..., User], **create: object) -> tuple[Game, list[User]]:
    users = [make_user(email="a@example.org"), make_user(email="b@example.org")]
    game = lifecycle.game_create(
        creator=users[0], players=2, options=BID_FIRST, clock=FAST, **create
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def _seat(game: Game, user: User) -> Seat:
    return Seat.objects.select_related("user").get(game=game, user=user)


def _overdue(seat: Seat, minutes: int = 1) -> None:
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(minutes=minutes))


def _no_vacation(*users: User) -> None:
    User.objects.filter(pk__in=[u.pk for u in users]).update(vacation_days=0)


def test_a_missed_deadline_uses_a_vacation_day_first(make_user, mailoutbox):
    game, (alice, _bob) = _table(make_user)
    User.objects.filter(pk=alice.pk).update(vacation_days=1.5)
    _overdue(_seat(game, alice), minutes=3)
    missed_at = _seat(game, alice).deadline
    mailoutbox.clear()
    assert deadlines_sweep() == {"vacation": 1}
    seat = _seat(game, alice)
    assert seat.deadline == missed_at + timedelta(days=1)
    assert seat.missed_deadlines == 0
    alice.refresh_from_db()
    assert alice.vacation_days == 0.5
    (told,) = mailoutbox
    assert told.to == ["a@example.org"]
    assert "A vacation day was used" in told.subject
    assert "Vacation days left: 0.5." in told.body
    # Next time the half day left is spent: twelve hours.
    _overdue(seat)
    missed_at = _seat(game, alice).deadline
    assert deadlines_sweep() == {"vacation": 1}
    assert _seat(game, alice).deadline == missed_at + timedelta(hours=12)
    assert not Move.objects.filter(game=game, actor="timeout").exists()


def test_without_vacation_the_bot_moves_for_the_late_player_and_the_log_says_so(make_user):
    game, (alice, bob) = _table(make_user)
    _no_vacation(alice, bob)
    version = game.version
    _overdue(_seat(game, alice))
    assert deadlines_sweep() == {"bot_moved": 1}
    move = Move.objects.get(game=game, actor="timeout")
    assert move.seat == _seat(game, alice).seat
    assert move.version == version + 1
    seat = _seat(game, alice)
    assert seat.missed_deadlines == 1
    assert seat.deadline is None  # bid in; the clock stopped with the increment only
    assert seat.clock_remaining_seconds == pytest.approx(4 * 3600, abs=1)
    assert not seat.bot_kind  # only that move: the seat is still alice's
    log = documents.game_log(game=Game.objects.get(pk=game.pk), user=bob)
    assert any(entry.get("actor") == "timeout" for entry in log)
    # Running the sweep again finds nothing.
    assert deadlines_sweep() == {}


@pytest.mark.postgres  # PostgreSQL's planner / row locks
def test_the_sweep_finds_due_seats_with_one_query_on_the_deadline_index(make_user):
    _game, (_alice, _bob) = _table(make_user)
    with CaptureQueriesContext(connection) as queries:
        deadlines_claim(now=timezone.now())
    assert len(queries) == 1
    sql = queries[0]["sql"]
    assert '"games_seat"."deadline" <=' in sql
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET enable_seqscan = on")
    assert "seat_due_deadline" in plan


def test_a_waiting_table_tells_the_others_and_lets_them_vote_after_two_misses(
    make_user, api, mailoutbox
):
    game, (alice, bob) = _table(make_user, on_timeout="wait")
    _no_vacation(alice, bob)
    mailoutbox.clear()
    _overdue(_seat(game, alice))
    assert deadlines_sweep() == {"waiting": 1}
    seat = _seat(game, alice)
    assert seat.missed_deadlines == 1
    assert seat.deadline > timezone.now() + timedelta(hours=3)  # another period: 4 hours
    assert not Move.objects.filter(game=game, actor="timeout").exists()
    assert [m.to for m in mailoutbox] == [["b@example.org"]]
    assert "missed a deadline" in mailoutbox[0].subject
    number = seat.seat
    # One miss is not enough to vote.
    answer = api(bob).post(f"/api/games/{game.pk}/replace_vote", {"seat": number})
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_replaceable"
    _overdue(seat)
    assert deadlines_sweep() == {"waiting": 1}
    assert "vote" in mailoutbox[-1].body
    # Alice cannot vote on her own seat, a stranger cannot vote at all.
    assert api(alice).post(f"/api/games/{game.pk}/replace_vote", {"seat": number}).json()[
        "code"
    ] == ("own_seat")
    stranger = api(make_user()).post(f"/api/games/{game.pk}/replace_vote", {"seat": number})
    assert stranger.status_code == 403
    answer = api(bob).post(f"/api/games/{game.pk}/replace_vote", {"seat": number})
    assert answer.status_code == 200
    assert answer.json() == {"seat": number, "votes": 1, "needed": 1, "replaced": True}
    seat = _seat(game, alice)
    assert seat.bot_kind == "greedy"
    # The bot plays her due bid at once (eager task).
    assert Move.objects.filter(game=game, seat=number).exists()


def test_replace_vote_refuses_bad_requests_with_clear_errors(make_user, api):
    game, (_alice, bob) = _table(make_user, on_timeout="wait")
    client = api(bob)
    assert client.post(f"/api/games/{game.pk}/replace_vote", {"seat": "x"}).status_code == 400
    assert client.post(f"/api/games/{game.pk}/replace_vote", raw="{").status_code == 400
    assert client.post(f"/api/games/{game.pk}/replace_vote", {"seat": 9}).status_code == 404
    assert client.post("/api/games/999999999/replace_vote", {"seat": 0}).status_code == 404
    assert client.post(f"/api/games/{2**70}/replace_vote", {"seat": 0}).status_code == 404
    assert client.post(f"/api/games/{2**70}/resign").status_code == 404
    assert api(None).post(f"/api/games/{game.pk}/replace_vote", {"seat": 0}).status_code == 401


def test_resigning_hands_the_seat_to_the_bot(make_user, api):
    game, (alice, _bob) = _table(make_user)
    answer = api(alice).post(f"/api/games/{game.pk}/resign")
    assert answer.status_code == 200
    seat = _seat(game, alice)
    assert answer.json() == {"seat": seat.seat, "resigned": True}
    assert seat.resigned
    assert seat.bot_kind == "greedy"
    assert Move.objects.filter(game=game, seat=seat.seat).exists()  # the bot bid for her
    again = api(alice).post(f"/api/games/{game.pk}/resign")
    assert again.status_code == 409
    assert again.json()["code"] == "already_resigned"
    assert api(make_user()).post(f"/api/games/{game.pk}/resign").status_code == 403


def test_a_crash_inside_the_timeout_move_leaves_no_half_move_and_it_is_made_once_later(
    make_user, monkeypatch
):
    game, (alice, bob) = _table(make_user)
    _no_vacation(alice, bob)
    _overdue(_seat(game, alice))

    def crash(advance):
        raise RuntimeError("worker killed")

    # The last of the move's durable effects crashes: everything before it rolls back.
    with monkeypatch.context() as patched:
        patched.setattr(effects, "DURABLE", [*effects.DURABLE, crash])
        assert deadlines_sweep() == {"error": 1}
    game.refresh_from_db()
    seat = _seat(game, alice)
    assert game.version == 1
    assert not Move.objects.filter(game=game).exists()
    assert seat.missed_deadlines == 0  # rolled back with the rest
    # The claim holds the seat for the lease; after it, the next sweep makes the move once.
    assert deadlines_sweep() == {}
    later = timezone.now() + CLAIM_LEASE + timedelta(seconds=1)
    assert deadlines_sweep(now=later) == {"bot_moved": 1}
    assert deadlines_sweep(now=later) == {}
    assert Move.objects.filter(game=game, actor="timeout").count() == 1


def test_a_redelivered_claim_does_nothing(make_user):
    game, (alice, bob) = _table(make_user)
    _no_vacation(alice, bob)
    _overdue(_seat(game, alice))
    now = timezone.now()
    (claim,) = deadlines_claim(now=now)
    assert deadline_handle(claim=claim, now=now) == "bot_moved"
    assert deadline_handle(claim=claim, now=now) == "stale"
    assert Move.objects.filter(game=game, actor="timeout").count() == 1


def test_a_seat_of_an_aborted_game_is_cleared(make_user):
    game, (alice, _bob) = _table(make_user)
    lifecycle.game_abort(game_id=game.pk)
    _overdue(_seat(game, alice))
    assert deadlines_sweep() == {"cleared": 1}
    assert _seat(game, alice).deadline is None


def test_aborting_stops_every_clock_so_the_sweep_never_touches_the_game(make_user):
    game, (alice, bob) = _table(make_user)
    _no_vacation(alice, bob)
    assert Seat.objects.filter(game=game, deadline__isnull=False).count() == 2  # both bid
    lifecycle.game_abort(game_id=game.pk)
    seats = Seat.objects.filter(game=game)
    assert [(s.deadline, s.clock_started_at) for s in seats] == [(None, None), (None, None)]
    # Long after every deadline would have passed, the sweep finds nothing to do.
    later = timezone.now() + timedelta(days=30)
    assert deadlines_claim(now=later) == []
    assert deadlines_sweep(now=later) == {}
    assert not Move.objects.filter(game=game).exists()
    assert not Seat.objects.filter(game=game, missed_deadlines__gt=0).exists()


def test_an_away_player_is_not_timed_out(make_user):
    game, (alice, _bob) = _table(make_user)
    back = timezone.now() + timedelta(days=2)
    User.objects.filter(pk=alice.pk).update(away_until=back)  # set without re-timing
    _overdue(_seat(game, alice))
    assert deadlines_sweep() == {"away": 1}
    assert _seat(game, alice).deadline == back


@pytest.mark.postgres  # PostgreSQL's planner / row locks
def test_two_sweeps_racing_handle_each_seat_exactly_once(make_user):
    tables = [_table(make_user) for _ in range(6)]
    for game, users in tables:
        _no_vacation(*users)
        for user in users:
            _overdue(_seat(game, user))
    barrier = threading.Barrier(2)
    results: list[dict[str, int]] = []
    errors: list[BaseException] = []

    def sweep() -> None:
        try:
            barrier.wait(timeout=10)
            results.append(deadlines_sweep())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    handled = sum(r.get("bot_moved", 0) for r in results)
    assert handled == 12
    for game, _users in tables:
        timeouts = Move.objects.filter(game=game, actor="timeout")
        assert sorted(timeouts.values_list("seat", flat=True)) == [0, 1]
        assert Seat.objects.filter(game=game, missed_deadlines=1).count() == 2
