"""Moves at the same game made together (``games.moves.submit``, ``games.moves.queue``): one
transaction, one set of frames, and for each move the answer it would have had alone."""

from __future__ import annotations

import gc
import json
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games import moves
from games.errors import GameError
from games.live import broadcast
from games.management.commands.replay_check import replay_problem
from games.models import Game, Move, Seat
from games.moves import answer as move_answer
from games.moves import queue as move_queue
from games.selectors import documents
from games.store import db_threads
from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)


def _table(make_user: Callable[..., User], players: int = 4) -> tuple[Game, list[User]]:
    """A running table (everyone bids first), and its people in seat order."""
    users = [make_user() for _ in range(players)]
    game = lifecycle.game_create(creator=users[0], players=players, options={"flags": "random"})
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    by_seat = {s.user_id: s.seat for s in game.seats.all()}
    return game, sorted(users, key=lambda u: by_seat[u.pk])


def _bid(game: Game, user: User, take: int, client_id: str, version: int = 1) -> move_answer.Sent:
    hand = documents.game_document(game=game, user=user)["view"]["hand"]
    action = {"type": "bid", "cowboys": hand[:take]}
    return move_answer.Sent(user=user, action=action, version=version, client_id=client_id)


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every message the moves send to a game's group, once committed."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append(message))
    return sent


def test_three_bids_made_together_answer_as_if_one_after_the_other(
    make_user: Callable[..., User], frames: list[dict[str, Any]]
) -> None:
    game, users = _table(make_user)
    sent = [_bid(game, users[i], 1, f"b{i}") for i in range(3)]
    answers = move_answer.answers(game.pk, sent)
    assert [status for status, _body in answers] == [200, 200, 200]
    assert [body["applied_version"] for _s, body in answers] == [2, 3, 4]
    assert [body["replayed"] for _s, body in answers] == [False, False, False]
    # Each mover sees the table after the last of them, from their own seat.
    assert [(body["version"], body["my_seat"]) for _s, body in answers] == [(4, 0), (4, 1), (4, 2)]
    made = list(Move.objects.filter(game=game).order_by("version"))
    assert [(m.version, m.seat, m.client_id) for m in made] == [
        (2, 0, "b0"),
        (3, 1, "b1"),
        (4, 2, "b2"),
    ]
    game.refresh_from_db()
    assert (game.version, game.to_act) == (4, [3])
    assert replay_problem(game) is None
    # One set of frames for the three moves: it follows version 1 and carries each move's
    # events, and a seat's frame never shows another seat's sealed bid.
    (message,) = [m for m in frames if m.get("type") == "game.frame"]
    assert (message["since"], message["version"]) == (1, 4)
    seat3 = json.loads(message["frames"]["3"])
    # Each bid: its commitment (games.records.sealed_moves), then the engine's public event.
    assert [(e["version"], e["type"]) for e in seat3["events"]] == [
        (v, kind) for v in (2, 3, 4) for kind in ("sealed_commitment", "bid_submitted")
    ]
    assert seat3["my_seat"] == 3
    assert seat3["view"]["my_bid"] is None
    assert "cowboys" not in json.dumps(seat3["events"])  # the sealed bids stay sealed
    for number in ("0", "1", "2"):
        own = json.loads(message["frames"][number])
        assert own["view"]["my_bid"] == sent[int(number)].action["cowboys"]


def test_a_refused_move_in_a_batch_writes_nothing_and_the_others_go_on(
    make_user: Callable[..., User],
) -> None:
    game, users = _table(make_user)
    outsider = make_user()
    (before,) = move_answer.answers(game.pk, [_bid(game, users[1], 1, "earlier")])
    assert before[1]["applied_version"] == 2
    sent = [
        _bid(game, users[0], 1, "first"),
        _bid(game, users[0], 2, "first"),  # the same client id again: a retry of the first
        _bid(game, users[1], 2, "earlier"),  # a retry of a move made before the batch
        move_answer.Sent(users[1], {"type": "bid", "cowboys": [999]}, 2, "bad"),
        _bid(game, users[2], 1, "old", version=0),  # older than the seat's decision
        move_answer.Sent(outsider, {"type": "bid", "cowboys": []}, 1, "who"),
        move_answer.Sent(users[3], {"type": "bid", "cowboys": []}, "one", "typo"),
        _bid(game, users[3], 1, "last"),
    ]
    answers = move_answer.answers(game.pk, sent)
    codes = [body.get("code") if status != 200 else status for status, body in answers]
    assert codes == [
        200,
        200,
        200,
        "cowboy_not_held",
        "stale_version",
        "not_a_player",
        "bad_version",
        200,
    ]
    applied = [(body.get("applied_version"), body.get("replayed")) for _s, body in answers]
    assert applied[:3] == [(3, False), (3, True), (2, True)]
    assert applied[7] == (4, False)
    assert answers[4][1]["current"]["version"] == 4  # the table as the batch left it
    made = list(Move.objects.filter(game=game).order_by("version"))
    assert [(m.version, m.seat, m.client_id) for m in made] == [
        (2, 1, "earlier"),
        (3, 0, "first"),
        (4, 3, "last"),
    ]
    game.refresh_from_db()
    assert game.version == 4
    assert replay_problem(game) is None


@pytest.mark.postgres
def test_a_batch_locks_once_and_writes_once(make_user: Callable[..., User]) -> None:
    game, users = _table(make_user)
    sent = [_bid(game, users[i], 1, f"b{i}") for i in range(3)]
    statements: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        answers = move_answer.answers(game.pk, sent)
    assert [status for status, _body in answers] == [200, 200, 200]
    assert sum("FOR UPDATE" in sql for sql in statements) == 1
    assert sum(sql.startswith("WITH i0 AS (INSERT") for sql in statements) == 1


def _cyclic_garbage(make: Callable[[], object]) -> list[str]:
    """What ``make()`` leaves that only the cycle collector would free: the games, seats,
    users and game errors among it, by type name. A web worker under load made about seventeen
    objects of cyclic garbage a move this way, and each pass of the collector stops the
    whole process (docs/benchmarks/history.md, "Seventeenth pass")."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        make()
        gc.collect()
        kinds = (Game, Seat, User, GameError)
        return sorted(type(o).__name__ for o in gc.garbage if isinstance(o, kinds))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("surface", ["answers", "action_submit"])
def test_a_refused_move_leaves_no_reference_cycle_behind(
    make_user: Callable[..., User], surface: str
) -> None:
    """A refusal (a stale version, an illegal action) is kept as the move's outcome: with
    its traceback it held the frame that held it, and that cycle kept the game, its seats
    and their users alive until the collector's next pass."""
    game, users = _table(make_user)
    move_answer.answers(game.pk, [_bid(game, users[0], 1, "first")])
    stale = _bid(game, users[1], 1, "late", version=0)
    illegal = move_answer.Sent(users[2], {"type": "bid", "cowboys": [999]}, 2, "bad")

    def refuse() -> None:
        if surface == "answers":
            answers = move_answer.answers(game.pk, [stale, illegal])
            assert [body["code"] for _status, body in answers] == [
                "stale_version",
                "cowboy_not_held",
            ]
            return
        for sent in (stale, illegal):
            with pytest.raises(GameError):
                moves.action_submit(
                    game_id=game.pk,
                    user=sent.user,
                    action=sent.action,
                    version=sent.version,
                    client_id=sent.client_id,
                )

    assert _cyclic_garbage(refuse) == []


def test_random_games_played_in_random_batches_replay_from_their_logs(
    make_user: Callable[..., User],
) -> None:
    """Whole games where, at each step, every seat due sends one of its legal actions, and
    random runs of those are made together: the log replays to the snapshot, versions go up
    by one, and each accepted answer names its own move."""
    rng = random.Random(17)  # noqa: S311
    for _game in range(2):
        game, users = _table(make_user, players=rng.choice([2, 3, 4]))
        for _step in range(400):
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING:
                break
            sent = []
            for seat in game.to_act:
                doc = documents.game_document(game=game, user=users[seat])
                if doc["legal_actions"]:
                    action = rng.choice(doc["legal_actions"])
                    cid = f"{game.version}-{seat}"
                    sent.append(move_answer.Sent(users[seat], action, doc["version"], cid))
            rng.shuffle(sent)
            cut = rng.randint(1, len(sent))
            for part in (sent[:cut], sent[cut:]):
                if not part:
                    continue
                for item, (status, body) in zip(
                    part, move_answer.answers(game.pk, part), strict=True
                ):
                    if status == 200:
                        move = Move.objects.get(game=game, version=body["applied_version"])
                        assert (move.client_id, move.action) == (item.client_id, item.action)
                    else:
                        assert body["code"] in {"stale_version", "game_over"}, body
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        versions = list(Move.objects.filter(game=game).values_list("version", flat=True))
        assert sorted(versions) == list(range(2, game.version + 1))
        assert replay_problem(game) is None


class FirstJobHeld:
    """``move_answer.answers`` watched: each job's game and size are recorded, and the first
    job waits in its database thread (before its transaction) until ``release``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.jobs: list[tuple[int, int]] = []
        self.holding, self.released = threading.Event(), threading.Event()
        real = move_answer.answers

        def watched(game_id: int, sent: list[move_answer.Sent]) -> list[Any]:
            self.jobs.append((game_id, len(sent)))
            if len(self.jobs) == 1:
                self.holding.set()
                assert self.released.wait(30)
            return real(game_id, sent)

        monkeypatch.setattr(move_answer, "answers", watched)

    def wait_until_held(self) -> None:
        assert self.holding.wait(30)

    def release(self) -> None:
        self.released.set()


@dataclass
class HeldGame:
    """A four-seat game whose first move is held in its database thread (``FirstJobHeld``)
    while its three other seats' moves and a move at another game were submitted."""

    game: Game
    other: Game
    held: FirstJobHeld
    first: Future[Any]
    rest: list[Future[Any]]
    elsewhere: Future[Any]

    def versions_made(self) -> list[tuple[int, int]]:
        """Each of the game's four moves' status and the version it made, in order."""
        answers = [self.first.result(30), *(f.result(30) for f in self.rest)]
        return [(status, body["applied_version"]) for status, body in answers]


def _hold_a_game(make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch) -> HeldGame:
    game, users = _table(make_user)
    other, other_users = _table(make_user, players=2)
    held = FirstJobHeld(monkeypatch)
    first = move_queue.submit(game.pk, _bid(game, users[0], 1, "b0"))
    held.wait_until_held()
    rest = [move_queue.submit(game.pk, _bid(game, users[i], 1, f"b{i}")) for i in (1, 2, 3)]
    elsewhere = move_queue.submit(other.pk, _bid(other, other_users[0], 1, "o0"))
    return HeldGame(game, other, held, first, rest, elsewhere)


@pytest.mark.postgres
def test_moves_that_wait_while_their_game_is_being_moved_are_made_together(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With real database threads: while a game's first move is held in its database thread, the
    next three wait, then go together in one job; another game's move is not held up."""
    at = _hold_a_game(make_user, monkeypatch)
    assert at.elsewhere.result(30)[0] == 200  # the held game does not hold another game up
    at.held.release()
    assert at.versions_made() == [(200, 2), (200, 3), (200, 4), (200, 5)]
    game, other = at.game, at.other
    assert sorted(at.held.jobs) == sorted([(game.pk, 1), (other.pk, 1), (game.pk, 3)])
    game.refresh_from_db()
    assert game.version == 5
    assert replay_problem(game) is None


@pytest.mark.postgres
def test_a_move_whose_caller_stopped_waiting_is_not_made_and_the_rest_are_answered(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket's task cancelled (the page closed, the server stopping) while its move waits
    in a job: that move is not made, and the job's other moves still get their answers."""
    game, users = _table(make_user)
    held = FirstJobHeld(monkeypatch)
    first = move_queue.submit(game.pk, _bid(game, users[0], 1, "b0"))
    held.wait_until_held()
    gone = move_queue.submit(game.pk, _bid(game, users[1], 1, "b1"))
    kept = move_queue.submit(game.pk, _bid(game, users[2], 1, "b2"))
    assert gone.cancel()
    held.release()
    assert first.result(30)[1]["applied_version"] == 2
    status, body = kept.result(30)
    assert (status, body["applied_version"]) == (200, 3)
    assert held.jobs == [(game.pk, 1), (game.pk, 1)]
    made = list(Move.objects.filter(game=game).values_list("seat", flat=True))
    assert sorted(made) == [0, 2]


@pytest.mark.postgres
@pytest.mark.parametrize(("in_a_row", "order"), [(4, "game first"), (1, "queue first")])
def test_moves_that_came_while_their_game_was_moved_go_next_in_the_same_thread(
    make_user: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    in_a_row: int,
    order: str,
) -> None:
    """One database thread: while a game's first move is held in it, three more of that game
    wait for it and another game's move queues for the thread. The three have already
    waited a job: they are made next, in the same thread, before the other game's move (not
    sent to the back of the queue to wait for it too). ``IN_A_ROW`` bounds how many of a
    game's jobs go in a row: at 1, the other game's queued move goes first."""
    one_thread = ThreadPoolExecutor(max_workers=1)
    request.addfinalizer(one_thread.shutdown)  # passed or failed, its thread ends
    monkeypatch.setattr(db_threads, "_executor", one_thread)
    monkeypatch.setattr(move_queue, "IN_A_ROW", in_a_row)
    at = _hold_a_game(make_user, monkeypatch)
    at.held.release()
    assert at.versions_made() == [(200, 2), (200, 3), (200, 4), (200, 5)]
    assert at.elsewhere.result(30)[0] == 200
    game, other = at.game, at.other
    expected = {
        "game first": [(game.pk, 1), (game.pk, 3), (other.pk, 1)],
        "queue first": [(game.pk, 1), (other.pk, 1), (game.pk, 3)],
    }
    assert at.held.jobs == expected[order]
