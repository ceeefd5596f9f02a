"""Sealed moves (``games.records.sealed_moves``, ``games.records.commitments``): each sealed
action is stored with a salt and a commitment in its move's transaction; the other seats
receive the commitment and nothing else of it before the reveal (document, log, frames,
page, API, export and verify page of the running game, an error answer); once the game is
over the export and the verify page prove each sealed move against its commitment, and a
tampered one fails."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import moves
from games.live import frames as frames_module
from games.models import Game, Move, SealedMove
from games.records.commitments import COMMITMENT_EVENT, canonical_json, commitment
from games.records.fairness import verify_export
from games.selectors import documents
from games.tables import lifecycle
from tests.games.fixtures import ApiClient
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)

TITLE = "colorado-county"


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _bid_table(make_user: Callable[..., User], players: int) -> tuple[Game, list[User]]:
    """A running table of ``players`` people that opens with a sealed bid."""
    users = [make_user() for _ in range(players)]
    game = lifecycle.game_create(
        creator=users[0], players=players, title=TITLE, options={"flags": "random"}
    )
    for user in users[1:]:
        lifecycle.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, users


def _page(user: User, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:game", args=[game.pk])).content.decode()


def _everything_seen(game: Game, user: User) -> str:
    """What ``user`` can read of the running game: document, log, page, API answers, the
    socket frames of every move so far, and the export and verify answers (refused)."""
    game.refresh_from_db()
    api = ApiClient(user)
    seat = documents.seat_for_user(game=game, user=user)
    number = seat.seat if seat is not None else None
    log = list(Move.objects.filter(game=game).order_by("version"))
    frames = frames_module.move_frames(game=game, moves=log, state=None)
    parts = [
        json.dumps(documents.game_document(game=game, user=user)),
        json.dumps(documents.game_log(game=game, user=user, since=0)),
        json.dumps(frames[number]),
        _page(user, game),
        api.get(f"/api/games/{game.pk}").content.decode(),
        api.get(f"/api/games/{game.pk}/log").content.decode(),
    ]
    export = api.get(f"/api/games/{game.pk}/export")
    verify = api.get(f"/games/{game.pk}/verify/?format=json")
    assert export.status_code == verify.status_code == 409
    parts += [export.content.decode(), verify.content.decode()]
    # An error answer: a stale move by this seat carries its document.
    refused = api.post(f"/api/games/{game.pk}/actions", {"action": {"type": "nonsense"}})
    assert refused.status_code >= 400
    parts.append(refused.content.decode())
    return "\n".join(parts)


def test_a_sealed_bid_is_stored_and_only_its_commitment_reaches_the_others(
    make_user: Callable[..., User],
) -> None:
    game, users = _bid_table(make_user, players=3)
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    first, second = {"type": "bid", "cowboys": [hand[0]]}, {"type": "bid", "cowboys": hand[1:3]}
    for action in (first, second):
        moves.action_submit(game_id=game.pk, user=users[0], action=action)

    mine = documents.seat_for_user(game=game, user=users[0])
    assert mine is not None
    rows = list(SealedMove.objects.filter(game=game).order_by("version"))
    assert [r.payload for r in rows] == [first, second]
    assert {r.step for r in rows} == {"bid"}
    assert {r.seat for r in rows} == {mine.seat}
    assert rows[0].salt != rows[1].salt
    for row in rows:
        assert len(row.salt) == 32
        assert row.commitment == commitment(row.salt, row.payload)
        assert row.revealed_version is None
        assert row.committed_at is not None
    assert rows[0].replaced_version == rows[1].version  # the bid said it replaced
    assert rows[1].replaced_version is None

    for other in users[1:]:
        seen = _everything_seen(game, other)
        for row in rows:
            assert row.salt not in seen
            assert row.commitment in seen  # the whole hash in the log entry and frame
            assert row.commitment[:16] in _page(other, game)  # and in words on the page
        for cowboys in (first["cowboys"], second["cowboys"]):
            assert json.dumps({"cowboys": cowboys})[1:-1] not in seen
            assert json.dumps({"cowboys": cowboys}, separators=(",", ":"))[1:-1] not in seen
        assert '"type": "my_bid"' not in seen
        entries = [
            e
            for e in documents.game_log(game=game, user=other, since=0)
            if e["type"] == COMMITMENT_EVENT
        ]
        assert [(e["seat"], e["step"], e["commitment"]) for e in entries] == [
            (mine.seat, "bid", r.commitment) for r in rows
        ]
        assert all(
            set(e) == {"type", "seat", "step", "commitment", "version", "at", "actor"}
            for e in entries
        )
    # The bidder reads their own bid, and the salt nowhere either.
    assert rows[1].salt not in _everything_seen(game, users[0])

    for user in users[1:]:
        moves.action_submit(game_id=game.pk, user=user, action={"type": "bid", "cowboys": []})
    reveal = max(Move.objects.filter(game=game).values_list("version", flat=True))
    rows = list(SealedMove.objects.filter(game=game).order_by("version"))
    assert len(rows) == 4
    assert rows[0].revealed_version is None
    assert rows[0].replaced_version == rows[1].version
    assert [r.revealed_version for r in rows[1:]] == [reveal] * 3
    assert all(r.revealed_at is not None for r in rows[1:])
    # Still running: the salts stay on the server after the reveal too.
    for user in users:
        seen = _everything_seen(game, user)
        assert not any(r.salt in seen for r in rows)


def _finished(make_user: Callable[..., User]) -> tuple[Game, list[User], dict[str, Any]]:
    game, users = _bid_table(make_user, players=2)
    game = play_randomly(game, users, seed=5)
    assert game.status == Game.Status.FINISHED
    answer = ApiClient(users[0]).get(f"/api/games/{game.pk}/export")
    assert answer.status_code == 200
    return game, users, answer.json()


def test_the_export_and_the_verify_page_prove_every_sealed_move(
    make_user: Callable[..., User], tmp_path: Path
) -> None:
    game, _users, export = _finished(make_user)
    sealed_moves = [
        m["version"]
        for m in export["moves"]
        if m["action"].get("type") in ("bid", "sale_interest", "sale_bid")
    ]
    by_version = {m["version"]: m for m in export["moves"]}
    assert [e["version"] for e in export["sealed"]] == sealed_moves
    for entry in export["sealed"]:
        assert entry["payload"] == by_version[entry["version"]]["action"]
        assert entry["commitment"] == commitment(entry["salt"], entry["payload"])
        assert (entry["revealed_version"] is None) == (entry["replaced_version"] is not None)
    verdict = verify_export(export)
    assert verdict.ok, verdict.checks
    assert [c.name for c in verdict.checks] == ["seed", "moves", "result", "sealed"]
    assert len(verdict.sealed) == len(sealed_moves)
    assert all(r.ok for r in verdict.sealed)

    page = Client().get(f"/games/{game.pk}/verify/").content.decode()
    first = export["sealed"][0]
    for text in (first["commitment"], first["salt"], "✔"):
        assert text in page
    assert "✘" not in page
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    call_command("verify_game", str(path))


def test_a_tampered_sealed_move_fails_verification(
    make_user: Callable[..., User], tmp_path: Path
) -> None:
    _game, _users, export = _finished(make_user)
    entry = export["sealed"][0]
    cowboys = entry["payload"]["cowboys"]
    other = [c + 1 for c in cowboys] if cowboys else [1]

    # The payload changed in the sealed list only: it no longer hashes to its commitment.
    changed = copy.deepcopy(export)
    changed["sealed"][0]["payload"]["cowboys"] = other
    verdict = verify_export(changed)
    assert not verdict.ok
    assert verdict.checks[-1].name == "sealed"
    assert not verdict.checks[-1].ok
    assert not verdict.sealed[0].ok
    assert "commitment" in verdict.sealed[0].detail

    # A consistent lie (a new salt and hash for another bid) no longer matches the log.
    forged = copy.deepcopy(export)
    forged["sealed"][0]["payload"] = {**entry["payload"], "cowboys": other}
    forged["sealed"][0]["commitment"] = commitment(entry["salt"], forged["sealed"][0]["payload"])
    assert not verify_export(forged).ok
    assert not verify_export(forged).sealed[0].ok

    # A sealed move left out of the list.
    missing = copy.deepcopy(export)
    del missing["sealed"][-1]
    assert not verify_export(missing).ok

    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(changed))
    with pytest.raises(CommandError):
        call_command("verify_game", str(path))


@pytest.mark.django_db(transaction=False)
def test_the_recipe_is_the_documented_one() -> None:
    payload = {"type": "bid", "cowboys": [3, 1]}
    salt = "00" * 16
    text = salt + '{"cowboys":[3,1],"type":"bid"}'
    assert canonical_json(payload) == '{"cowboys":[3,1],"type":"bid"}'
    assert commitment(salt, payload) == hashlib.sha256(text.encode()).hexdigest()


def test_a_replacing_bid_and_a_reveal_each_send_one_update_of_the_sealed_rows(
    make_user: Callable[..., User],
) -> None:
    """The sealed rows cost a move one statement when it replaces or reveals, none
    otherwise (the new row goes out with the move's own writes)."""
    game, users = _bid_table(make_user, players=2)
    hand = documents.game_document(game=game, user=users[0])["view"]["hand"]
    table = SealedMove._meta.db_table
    statements: list[str] = []

    def record(execute: Any, sql: str, *args: Any) -> Any:
        statements.append(sql)
        return execute(sql, *args)

    seen: list[list[str]] = []
    for user, action in (
        (users[0], {"type": "bid", "cowboys": [hand[0]]}),
        (users[0], {"type": "bid", "cowboys": hand[1:3]}),  # replaces the first
        (users[1], {"type": "bid", "cowboys": []}),  # the last bid: reveals
    ):
        statements.clear()
        with connection.execute_wrapper(record):
            moves.action_submit(game_id=game.pk, user=user, action=action)
        verbs = [s.lstrip().split()[0].upper() for s in statements if table in s]
        seen.append([v for v in verbs if v in {"SELECT", "UPDATE", "DELETE"}])
    assert seen == [[], ["UPDATE"], ["UPDATE"]]
    rows = list(SealedMove.objects.filter(game=game).order_by("version"))
    assert rows[0].replaced_version == rows[1].version
    assert [r.revealed_version is not None for r in rows] == [False, True, True]
