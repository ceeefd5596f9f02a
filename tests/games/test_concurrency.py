"""Real PostgreSQL concurrency: players acting at the same moment, each on their own
connection. The game row lock serialises them; nothing is lost or applied twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from accounts.models import User
from games import moves
from games.errors import GameError
from games.models import Game, Move
from games.selectors import documents
from games.tables import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _run_together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run ``jobs`` in threads released at the same instant; each on its own connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = jobs[i]()
        except Exception as exc:  # collected and checked by the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _bid_job(game_id: int, user: User, cowboys: list[int], client_id: str) -> Callable[[], Any]:
    return lambda: moves.action_submit(
        game_id=game_id,
        user=user,
        action={"type": "bid", "cowboys": cowboys},
        version=1,
        client_id=client_id,
    )


def test_four_simultaneous_bids_reveal_exactly_once_fifty_times(
    make_user: Callable[..., User], settings: Any
) -> None:
    settings.TABLES_PER_HOUR = 100  # fifty tables by one creator (games.tables.capacity)
    users = [make_user() for _ in range(4)]
    for round_no in range(50):
        game = lifecycle.game_create(creator=users[0], players=4, options={"flags": "random"})
        for user in users[1:]:
            lifecycle.game_join(game_id=game.pk, user=user)
        game.refresh_from_db()
        jobs = []
        for i, user in enumerate(users):
            hand = documents.game_document(game=game, user=user)["view"]["hand"]
            jobs.append(_bid_job(game.pk, user, hand[: i % 3], f"{round_no}-{i}"))
        results = _run_together(jobs)
        assert not [r for r in results if isinstance(r, Exception)], results
        game.refresh_from_db()
        made = list(Move.objects.filter(game=game).order_by("version"))
        assert [m.version for m in made] == [2, 3, 4, 5]
        assert sorted(m.seat for m in made) == [0, 1, 2, 3]
        reveals = [e for m in made for e in m.events if e["type"] == "bids_revealed"]
        assert len(reveals) == 1
        assert any(e["type"] == "bids_revealed" for e in made[-1].events)
        assert game.version == 5
        assert sorted(b["seat"] for e in reveals for b in e["bids"]) == [0, 1, 2, 3]
        assert game.to_act != [0, 1, 2, 3]


def test_the_same_retry_sent_twice_at_once_is_applied_once(
    make_user: Callable[..., User],
) -> None:
    users = [make_user() for _ in range(3)]
    game = lifecycle.game_create(creator=users[0], players=3, options={"flags": "random"})
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    for _ in range(10):
        results = _run_together(
            [_bid_job(game.pk, users[0], hand[:1], "same-id") for _ in range(4)]
        )
        assert all(isinstance(r, Game) for r in results), results
    assert Move.objects.filter(game=game).count() == 1


def test_two_claims_for_the_same_turn_one_wins_one_is_refused(
    make_user: Callable[..., User],
) -> None:
    """The claimer's two concurrent claims (double click on two cards): one applies, the
    other is refused as stale or illegal, never both."""
    users = [make_user() for _ in range(2)]
    game = lifecycle.game_create(creator=users[0], players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    for user in users:
        hand = documents.game_document(game=game, user=user)["view"]["hand"]
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": hand[:1]})
    game.refresh_from_db()
    claimer = next(u for u in users if game.seats.get(user=u).seat in game.to_act)
    doc = documents.game_document(game=game, user=claimer)
    claims = [a for a in doc["legal_actions"] if a["type"] == "claim"]
    cards = {a["card"]: a for a in claims}
    assert len(cards) >= 2
    first, second = list(cards.values())[:2]
    version = doc["version"]
    results = _run_together(
        [
            lambda: moves.action_submit(
                game_id=game.pk, user=claimer, action=first, version=version
            ),
            lambda: moves.action_submit(
                game_id=game.pk, user=claimer, action=second, version=version
            ),
        ]
    )
    applied = [r for r in results if isinstance(r, Game)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(applied) == 1
    assert len(refused) == 1
    assert refused[0].status in (409, 422)
    assert Move.objects.filter(game=game, version__gt=version).count() == 1


def test_two_sweeps_at_once_take_each_pending_turn_mail_once(
    make_user: Callable[..., User],
) -> None:
    """A "your turn" mail waits on its seat; two sweeps running at the same moment (two
    schedulers, or a slow one overlapping the next) each take a share, never the same one."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat
    from notifications.turn_mails import turn_mails_claim

    for _ in range(10):
        alice, bob = make_user(), make_user()
        game = lifecycle.game_create(
            creator=alice, players=2, invite=[bob.username], options={"flags": "random"}
        )
        lifecycle.game_join(game_id=game.pk, user=bob)
    pending = set(
        Seat.objects.filter(turn_mail_version__isnull=False).values_list("pk", "turn_mail_version")
    )
    assert len(pending) == 20  # both players of each table bid at once: both are due
    later = timezone.now() + timedelta(hours=1)
    taken = _run_together([lambda: turn_mails_claim(now=later) for _ in range(4)])
    claimed = [pair for share in taken for pair in share]
    assert len(claimed) == len(set(claimed))  # nobody took one twice
    assert set(claimed) == pending  # and none was left behind
    # Each stays leased on its seat until its task has run: none is due again meanwhile.
    assert turn_mails_claim(now=later) == []
