"""One bot-play service and one "is a bot due" rule, shared by the bot task, the deadline
sweep's stand-in and the stall sweep (``games.bots.play``, ``games.bots.players``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.bots import players as bot_players
from games.bots.play import bot_play
from games.models import Game, Move, Seat
from games.tables import lifecycle
from games.tables.handover import seat_hand_to_bot

pytestmark = pytest.mark.django_db(transaction=True)

BID_FIRST = {"flags": "random"}  # everyone bids first: both seats are to act at once


def _pair(make_user: Callable[..., User]) -> tuple[Game, Seat, Seat]:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, options=BID_FIRST)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game, Seat.objects.get(game=game, user=alice), Seat.objects.get(game=game, user=bob)


def _due_both_ways(game: Game) -> tuple[int | None, list[int]]:
    """The bot due at ``game`` as the moves and the bot task ask (``bot_to_act``), and the
    bot seats due there as the stall sweep asks (``seats_bot_due``, SQL)."""
    game.refresh_from_db()
    seat = bot_players.bot_to_act(game)
    seats = list(game.seats.all())
    assert bot_players.bot_to_act(game, seats) == seat  # with the seats the caller holds, the same
    in_sql = sorted(
        int(n) for n in bot_players.seats_bot_due().filter(game=game).values_list("seat", flat=True)
    )
    return (None if seat is None else int(seat.seat)), in_sql  # type: ignore[arg-type]


def test_the_bot_due_rule_reads_the_same_in_python_and_in_sql(make_user) -> None:
    game, alice, bob = _pair(make_user)
    assert _due_both_ways(game) == (None, [])  # two people to act
    Seat.objects.filter(pk=bob.pk).update(bot_kind="greedy")  # handed to the bot
    assert _due_both_ways(game) == (bob.seat, [bob.seat])
    Seat.objects.filter(pk=alice.pk).update(bot_kind="random")
    first = min(alice.seat, bob.seat)  # type: ignore[type-var]
    assert _due_both_ways(game) == (first, sorted([alice.seat, bob.seat]))
    Game.objects.filter(pk=game.pk).update(to_act=[alice.seat])
    assert _due_both_ways(game) == (alice.seat, [alice.seat])
    Game.objects.filter(pk=game.pk).update(to_act=[])
    assert _due_both_ways(game) == (None, [])
    Game.objects.filter(pk=game.pk).update(to_act=[alice.seat], status=Game.Status.FINISHED)
    assert _due_both_ways(game) == (None, [])


def test_the_stand_in_bot_is_the_titles_own(tiny_title: object) -> None:
    """Rules.stand_in_bot names the bot that plays for a late or departed player."""
    assert bot_players.stand_in_kind(Game(title="colorado-county")) == "greedy"
    assert bot_players.stand_in_kind(Game(title="tiny-duel")) == "high"
    assert "high" in bot_players.bot_kinds("tiny-duel")


def test_a_resigned_seat_is_played_by_the_stand_in_bot(make_user) -> None:
    game, alice, _bob = _pair(make_user)
    seat = seat_hand_to_bot(game_id=game.pk, seat=alice.seat, reason="resign")
    assert seat.bot_kind == bot_players.stand_in_kind(game)
    assert Move.objects.filter(game=game, seat=alice.seat, actor=Move.Actor.BOT).exists()


def test_bot_play_moves_once_per_version_and_says_what_it_did(make_user) -> None:
    game, alice, _bob = _pair(make_user)
    number = int(alice.seat)  # type: ignore[arg-type]
    client_id = f"timeout:{game.version}:{number}"
    played = bot_play(game=game, seat=number, kind="greedy", actor="timeout", client_id=client_id)
    assert played == "moved"
    move = Move.objects.get(game=game, seat=number)
    assert (move.actor, move.client_id) == (Move.Actor.TIMEOUT, client_id)
    # The same version again (a redelivered task, a second sweep): the client id answers
    # with the move already made; nothing more is played.
    again = bot_play(game=game, seat=number, kind="greedy", actor="timeout", client_id=client_id)
    assert again == "moved"
    assert Move.objects.filter(game=game, seat=number).count() == 1
