"""The game services: tables, seats, versions, retries, sealed bids, the end and the log."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User
from games import moves
from games.errors import Conflict, IllegalMove, NotAllowed, StaleVersion
from games.live.seen_marks import seat_mark_seen
from games.models import Game, Move, Seat
from games.moves import effects
from games.moves.result import MoveResult
from games.selectors import documents
from games.tables import lifecycle
from games.tables.chat import chat_post
from games.tables.handover import seat_hand_to_bot
from tests.play import play_randomly

# transaction=True: on_commit callbacks (broadcast, bot task) really run after each move.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

RANDOM_FLAGS = {"flags": "random"}  # skips flag placement: the game opens with a bid


def _seat(game: Game, user: User) -> int:
    number = Seat.objects.get(game=game, user=user).seat
    assert number is not None
    return number


def _bid_table(make_user: Callable[..., User], players: int = 4) -> tuple[Game, list[User]]:
    users = [make_user() for _ in range(players)]
    game = lifecycle.game_create(creator=users[0], players=players, options=RANDOM_FLAGS)
    for user in users[1:]:
        game = lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, users


def test_table_starts_when_the_last_seat_fills(make_user: Callable[..., User]) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=3, bots=["greedy"])
    assert game.status == Game.Status.OPEN
    assert game.version == 0
    game = lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    # Version 1 is the setup; the bot may already have moved if it places the first flag.
    bot_moves = Move.objects.filter(game=game, actor="bot").count()
    assert game.version == 1 + bot_moves
    assert Move.objects.filter(game=game).count() == bot_moves
    assert game.seed_hash == hashlib.sha256(game.seed.encode()).hexdigest()
    seats = {s.seat: s for s in game.seats.all()}
    assert sorted(seats) == [0, 1, 2]
    assert [seats[n].colour for n in range(3)] == ["orange", "red", "black"]
    assert seats[next(n for n in seats if seats[n].bot_kind)].user.username == "bot-greedy"


def test_two_bots_of_a_kind_get_their_own_accounts(make_user: Callable[..., User]) -> None:
    game = lifecycle.game_create(creator=make_user(), players=3, bots=["random", "random"])
    names = sorted(s.user.username for s in game.seats.all() if s.bot_kind)
    assert names == ["bot-random", "bot-random-2"]


def test_the_creator_does_not_always_sit_first(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.BOT_TABLES_MAX = 20  # twelve tables with bots by one creator (games.tables.capacity)
    creator = make_user()
    seats = set()
    for _ in range(12):
        game = lifecycle.game_create(creator=creator, players=2, bots=["random"])
        seats.add(_seat(game, creator))
    assert seats == {0, 1}


def test_full_table_refuses_a_late_joiner(make_user: Callable[..., User]) -> None:
    game = lifecycle.game_create(creator=make_user(), players=2, bots=["random"])
    with pytest.raises(Conflict) as error:
        lifecycle.game_join(game_id=game.pk, user=make_user())
    assert error.value.status == 409


def test_invitation_only_table(make_user: Callable[..., User]) -> None:
    alice, bob, eve = make_user(), make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username], open_seats=False)
    with pytest.raises(NotAllowed):
        lifecycle.game_join(game_id=game.pk, user=eve)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_leaving_an_open_table_frees_the_seat_and_last_person_out_aborts(
    make_user: Callable[..., User],
) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=3)
    lifecycle.game_join(game_id=game.pk, user=bob)
    lifecycle.game_leave(game_id=game.pk, user=bob)
    assert not Seat.objects.filter(game=game, user=bob).exists()
    lifecycle.game_leave(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_stale_version_is_refused_and_changes_nothing(make_user: Callable[..., User]) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2)
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    first = alice if _seat(game, alice) in game.to_act else bob
    second = bob if first is alice else alice
    doc = documents.game_document(game=game, user=first)
    moves.action_submit(game_id=game.pk, user=first, action=doc["legal_actions"][0], version=1)
    game.refresh_from_db()
    doc = documents.game_document(game=game, user=second)
    # The second player's choices changed at version 2: an action decided at 1 is stale.
    with pytest.raises(StaleVersion) as error:
        moves.action_submit(game_id=game.pk, user=second, action=doc["legal_actions"][0], version=1)
    assert (error.value.status, error.value.code) == (409, "stale_version")
    assert Move.objects.filter(game=game).count() == 1
    moves.action_submit(game_id=game.pk, user=second, action=doc["legal_actions"][0], version=2)
    assert Move.objects.filter(game=game).count() == 2


def test_simultaneous_bidders_do_not_collide(make_user: Callable[..., User]) -> None:
    game, users = _bid_table(make_user)
    for user in users:  # everyone decided on version 1; other seats' bids do not matter
        moves.action_submit(
            game_id=game.pk, user=user, action={"type": "bid", "cowboys": []}, version=1
        )
    game.refresh_from_db()
    assert game.version == 5
    reveal = [
        e for e in Move.objects.get(game=game, version=5).events if e["type"] == "bids_revealed"
    ]
    assert len(reveal) == 1
    assert sorted(b["seat"] for b in reveal[0]["bids"]) == [0, 1, 2, 3]


def test_retry_with_the_same_client_id_is_applied_once(make_user: Callable[..., User]) -> None:
    game, users = _bid_table(make_user, players=3)
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    for _ in range(3):
        moves.action_submit(
            game_id=game.pk,
            user=users[0],
            action={"type": "bid", "cowboys": hand[:1]},
            version=1,
            client_id="c0ffee",
        )
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 2


def test_illegal_action_gets_the_engine_code_and_writes_nothing(
    make_user: Callable[..., User],
) -> None:
    game, users = _bid_table(make_user, players=2)
    with pytest.raises(IllegalMove) as error:
        moves.action_submit(
            game_id=game.pk, user=users[0], action={"type": "bid", "cowboys": [0]}, version=1
        )
    assert error.value.status == 422
    assert error.value.code == "cowboy_not_held"
    game.refresh_from_db()
    assert game.version == 1
    assert not Move.objects.filter(game=game).exists()


def test_a_replaced_sealed_bid_counts_and_stays_sealed_until_the_reveal(
    make_user: Callable[..., User],
) -> None:
    """Rules.sealed_steps: a bid may be replaced until the last is in; the other seats' log
    and view never hold its cowboys before the reveal, and the reveal shows the last one."""
    game, users = _bid_table(make_user, players=3)
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    for cowboys in ([hand[0]], [hand[1], hand[2]]):
        moves.action_submit(
            game_id=game.pk, user=users[0], action={"type": "bid", "cowboys": cowboys}
        )
    seat = _seat(game, users[0])
    game.refresh_from_db()
    for other in users[1:]:
        seen = json.dumps(documents.game_log(game=game, user=other, since=0, chat=False))
        seen += json.dumps(documents.game_document(game=game, user=other))
        assert f"[{hand[1]}, {hand[2]}]" not in seen
        assert f"[{hand[0]}]" not in seen
    for user in users[1:]:
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": []})
    game.refresh_from_db()
    log = documents.game_log(game=game, user=users[1], since=0, chat=False)
    reveal = next(e for e in log if e["type"] == "bids_revealed")
    mine = next(b for b in reveal["bids"] if b["seat"] == seat)
    assert sorted(mine["cowboys"]) == sorted([hand[1], hand[2]])


def test_a_game_plays_to_the_end_with_result_and_replays(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    finished: list[int] = []

    def on_finished(result: MoveResult) -> None:
        finished.append(result.game.pk)

    monkeypatch.setattr(effects, "DURABLE_FINISH", [*effects.DURABLE_FINISH, on_finished])
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        users = [make_user() for _ in range(players - 1)]
        game = lifecycle.game_create(
            creator=users[0], players=players, bots=["random"], options={"lakes": "random"}
        )
        for user in users[1:]:
            lifecycle.game_join(game_id=game.pk, user=user)
        game = play_randomly(game, users, seed=seed)
        assert game.status == Game.Status.FINISHED
        assert game.result is not None
        scores, ranks = game.result["scores"], game.result["ranks"]
        assert len(scores) == players
        assert ranks[scores.index(max(scores))] == 1
        for seat in game.seats.all():
            assert seat.final_score == scores[seat.seat]
            assert seat.final_rank == ranks[seat.seat]
        assert game.to_act == []
    assert len(finished) == 3 == len(set(finished))
    call_command("replay_check")  # raises CommandError if any game differs


def test_replay_check_finds_a_tampered_log(make_user: Callable[..., User]) -> None:
    game, users = _bid_table(make_user, players=2)
    for user in users:
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": []})
    call_command("replay_check", str(game.pk))
    move = Move.objects.filter(game=game).order_by("version").first()
    assert move is not None
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    Move.objects.filter(pk=move.pk).update(action={"type": "bid", "cowboys": hand[:1]})
    with pytest.raises(CommandError):
        call_command("replay_check", str(game.pk))


def test_replay_check_of_a_game_that_moves_meanwhile_is_clean(
    make_user: Callable[..., User],
) -> None:
    """``replay_check`` on a live site: a move lands between reading the game and reading
    its log (the fault drill saw "log ends at version 70, the game is at 64" three times
    while bots played on). It checks the game again at its new version, not a false alarm."""
    from games.management.commands.replay_check import replay_problem

    game, users = _bid_table(make_user, players=2)
    read_before_the_move = Game.objects.get(pk=game.pk)
    moves.action_submit(game_id=game.pk, user=users[0], action={"type": "bid", "cowboys": []})
    assert replay_problem(read_before_the_move) is None


def test_bots_play_their_seats_by_themselves(make_user: Callable[..., User]) -> None:
    person = make_user()
    game = lifecycle.game_create(
        creator=person, players=4, bots=["random", "greedy", "random"], options=RANDOM_FLAGS
    )
    game.refresh_from_db()
    mine = _seat(game, person)
    # The bots bid at once; only the person is left to act.
    assert game.to_act == [mine]
    game = play_randomly(game, [person], seed=5)
    assert game.status == Game.Status.FINISHED
    actors = set(Move.objects.filter(game=game).values_list("actor", flat=True))
    assert actors == {"player", "bot"}


def test_resigned_seat_is_played_by_the_bot(make_user: Callable[..., User]) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, options=RANDOM_FLAGS)
    lifecycle.game_join(game_id=game.pk, user=bob)
    seat_hand_to_bot(game_id=game.pk, seat=_seat(game, bob), reason="resign")
    with pytest.raises(NotAllowed):
        moves.action_submit(game_id=game.pk, user=bob, action={"type": "bid", "cowboys": []})
    game.refresh_from_db()
    assert _seat(game, bob) not in game.to_act  # the bot has bid for bob already
    game = play_randomly(game, [alice], seed=9)
    assert game.status == Game.Status.FINISHED


def test_chat_is_for_players_and_reaches_the_log(make_user: Callable[..., User]) -> None:
    game, users = _bid_table(make_user, players=2)
    chat_post(game_id=game.pk, user=users[0], text="  good luck  ")
    with pytest.raises(NotAllowed):
        chat_post(game_id=game.pk, user=make_user(), text="hi")
    entries = [e for e in documents.game_log(game=game, user=users[1]) if e["type"] == "chat"]
    assert [e["text"] for e in entries] == ["good luck"]


def test_mark_seen_never_moves_backwards(make_user: Callable[..., User]) -> None:
    game, users = _bid_table(make_user, players=2)
    seat_mark_seen(game_id=game.pk, user=users[0], version=5)
    seat_mark_seen(game_id=game.pk, user=users[0], version=2)
    assert Seat.objects.get(game=game, user=users[0]).last_seen_version == 5


def test_every_named_effect_is_imported_at_startup() -> None:
    """``GamesConfig.ready`` imports each effect named by its path (in a fresh process), so
    no move pays for an app's import (``games.records.ratings`` loads openskill, which the first
    move to end a game in each process would otherwise import)."""
    script = (
        "import json, sys, django\n"
        "django.setup()\n"
        "from games.moves import effects\n"
        "named = [e for e in (*effects.DURABLE, *effects.DURABLE_FINISH, *effects.AFTER_COMMIT)"
        " if isinstance(e, str)]\n"
        "missing = [n for n in named if n.rsplit('.', 1)[0] not in sys.modules]\n"
        "print(json.dumps([len(named), missing]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "colorado.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    count, missing = json.loads(done.stdout.strip().splitlines()[-1])
    assert count > 0
    assert missing == []
