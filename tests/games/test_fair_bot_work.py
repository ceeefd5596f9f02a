"""Fair bot capacity (issue 41, item 1): a worker serves the bot work owed most — tables
where a person waits before tables only bots play, one account's tables sharing one worker
at a time, the longest waiting table first — whichever game queued the task; and a table
with no person left can be aborted by its creator or an admin, unrated."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.bots import fair_queue
from games.bots.tasks import bot_move
from games.models import Game, Seat
from games.moves import action_submit
from games.selectors import documents
from games.tables import lifecycle
from tests.games.fixtures import ApiClient

pytestmark = [pytest.mark.django_db]


def _bot(kind: str = "greedy", n: int = 1) -> User:
    name = f"bot-{kind}" if n == 1 else f"bot-{kind}-{n}"
    user, _ = User.objects.get_or_create(username=name, defaults={"is_bot": True, "bot_kind": kind})
    return user


def _due_table(owner: User, *, person_plays: bool, waited: float) -> Game:
    """A running table of ``owner``'s where the bot of seat 1 is to act, waiting ``waited``
    seconds; ``person_plays``: the owner still plays seat 0 (else a bot took it over)."""
    game = Game.objects.create(
        title="colorado-county",
        num_players=2,
        status=Game.Status.RUNNING,
        created_by=owner,
        seed="s",
        seed_hash=hashlib.sha256(b"s").hexdigest(),
        version=3,
        to_act=[1],
    )
    Seat.objects.create(
        game=game,
        user=owner,
        seat=0,
        bot_kind="" if person_plays else "greedy",
        resigned=not person_plays,
    )
    Seat.objects.create(game=game, user=_bot(), seat=1, bot_kind="greedy")
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=waited))
    return game


def test_a_table_where_a_person_waits_goes_before_tables_of_bots_alone(
    make_user: Callable[..., User],
) -> None:
    abuser, player = make_user(), make_user()
    for n in range(5):
        _due_table(abuser, person_plays=False, waited=300 + n)
    mine = _due_table(player, person_plays=True, waited=1)
    claim = fair_queue.claim_next()
    assert claim is not None
    assert claim.due.game_id == mine.pk
    claim.release()


def test_an_accounts_tables_share_one_worker(make_user: Callable[..., User]) -> None:
    busy, other = make_user(), make_user()
    tables = [_due_table(busy, person_plays=True, waited=300 - n) for n in range(4)]
    theirs = _due_table(other, person_plays=True, waited=5)
    first = fair_queue.claim_next()
    assert first is not None
    assert first.due.game_id == tables[0].pk  # the longest waiting
    second = fair_queue.claim_next()
    assert second is not None
    assert second.due.game_id == theirs.pk  # not another of busy's: its share is in use
    assert fair_queue.claim_next() is None  # busy's other tables wait for its worker
    # Its move is made: the table has waited least now.
    Game.objects.filter(pk=tables[0].pk).update(version=4, updated_at=timezone.now())
    first.release()
    third = fair_queue.claim_next()
    assert third is not None
    assert third.due.game_id == tables[1].pk  # then busy's next table, in turn
    for claim in (second, third):
        claim.release()


def test_tables_of_bots_alone_never_take_a_second_worker(make_user: Callable[..., User]) -> None:
    one, two, person = make_user(), make_user(), make_user()
    _due_table(one, person_plays=False, waited=100)
    _due_table(two, person_plays=False, waited=90)
    held = fair_queue.claim_next()
    assert held is not None
    assert fair_queue.claim_next() is None  # the bots-only share is taken
    waiting = _due_table(person, person_plays=True, waited=1)
    claim = fair_queue.claim_next()
    assert claim is not None
    assert claim.due.game_id == waiting.pk
    held.release()
    claim.release()


def test_a_token_serves_the_work_owed_most_not_the_game_that_queued_it(
    make_user: Callable[..., User], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the real task and a real move: the abuser's table queued the token, the
    player's waiting bot is served."""
    from colorado.celery import app as celery_app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(bot_move, "delay", lambda *args: queued.append(args))
    abuser = make_user()
    held = _due_table(abuser, person_plays=False, waited=600)
    player = make_user()
    game = lifecycle.game_create(
        creator=player, players=2, bots=["medium"], options={"flags": "random"}
    )
    game.refresh_from_db()
    doc = documents.game_document(game=game, user=player)
    if doc["legal_actions"]:
        action_submit(
            game_id=game.pk, user=player, action=doc["legal_actions"][0], version=game.version
        )
    game.refresh_from_db()
    before = game.version
    assert Seat.objects.filter(game=game, seat__in=game.to_act).exclude(bot_kind="").exists()
    result = bot_move.run(held.pk, held.version)  # the abuser's token
    assert result == "moved"
    game.refresh_from_db()
    assert game.version > before
    held.refresh_from_db()
    assert held.version == 3  # untouched
    assert queued  # the abuser's work is left for the next token


def test_the_creator_may_abort_a_table_only_bots_play(make_user: Callable[..., User]) -> None:
    alice, bob, admin = make_user(), make_user(), make_user(is_staff=True)
    bots_only = _due_table(alice, person_plays=False, waited=10)
    playing = _due_table(alice, person_plays=True, waited=10)
    refused = ApiClient(bob).post(f"/api/games/{bots_only.pk}/abort")
    assert refused.status_code == 403
    assert refused.json()["code"] == "not_allowed"
    busy = ApiClient(alice).post(f"/api/games/{playing.pk}/abort")
    assert busy.status_code == 409
    assert busy.json()["code"] == "people_playing"
    done = ApiClient(alice).post(f"/api/games/{bots_only.pk}/abort")
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "aborted"
    # An admin may abort any table that has not ended.
    assert ApiClient(admin).post(f"/api/games/{playing.pk}/abort").status_code == 200
    assert not Game.objects.filter(status="running", pk__in=[bots_only.pk, playing.pk]).exists()


def test_the_page_offers_the_abort_to_the_creator_once_only_bots_play(
    make_user: Callable[..., User],
) -> None:
    alice = make_user()
    game = lifecycle.game_create(
        creator=alice, players=2, bots=["easy"], options={"flags": "random"}
    )
    client = Client()
    client.force_login(alice)
    assert f"/games/{game.pk}/abort/" not in client.get(f"/games/{game.pk}/").content.decode()
    # Resigned: the bot plays both seats (with eager tasks the game may even end at once).
    client.post(f"/games/{game.pk}/resign/")
    game.refresh_from_db()
    if game.status == Game.Status.RUNNING:
        assert f"/games/{game.pk}/abort/" in client.get(f"/games/{game.pk}/").content.decode()
        page = client.post(f"/games/{game.pk}/abort/", follow=True)
        assert page.status_code == 200
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED


def test_the_sweep_tells_tables_waiting_their_turn_from_lost_tokens(
    make_user: Callable[..., User], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from colorado.celery import app as celery_app
    from games.bots.stalled import bots_requeue

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    queued: list[Any] = []
    # The sweep queues the bot task by its name (games.bots.wakeup): catch what it sends.
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args=(), **kw: queued.append((name, args))
    )
    owner = make_user()
    for n in range(5):
        _due_table(owner, person_plays=False, waited=120 + n)
    # Nothing moved lately: every stalled table's token is queued again.
    assert bots_requeue() == 5
    assert len(queued) == 5
    assert {name for name, _args in queued} == {bot_move.name}
    queued.clear()
    # The workers are making moves: the tables wait for their turn; one token is enough.
    fair_queue.note_move()
    assert bots_requeue() == 1
    assert len(queued) == 1
