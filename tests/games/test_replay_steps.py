"""Issue 15: a replay worth watching. Each step carries the log lines of that step, the
face-up cards, the bids revealed and the scores (``WebTitle.replay_facts``), for every
title through the generic hooks; La Conquista del Oeste's steps have their map, drawn on
the server (``WebTitle.replay_board``). Nothing that was private at a step shows in it."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Game, Move
from games.tables import lifecycle
from tests.accounts.factories import make_user
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Celery runs eagerly here."""


def _finished(title: str, seed: int) -> Game:
    alice = make_user("alice")
    options = {"flags": "random"} if title == "colorado-county" else None
    game = lifecycle.game_create(
        creator=alice, title=title, players=2, bots=["random"], options=options
    )
    game = play_randomly(game, [alice], seed=seed)
    assert game.status == Game.Status.FINISHED
    return game


def test_colorado_county_steps_say_what_happened_with_cards_bids_and_scores() -> None:
    game = _finished("colorado-county", seed=3)
    data = Client().get(f"/games/{game.pk}/replay.json").json()
    steps = data["steps"]
    assert data["board"] == "client"  # its board script draws each step
    # Every move has at least one line of its own in words, not just "who: type".
    assert all(step["log"] for step in steps[1:])
    lines = [line for step in steps for line in step["log"]]
    assert len(set(lines)) > len(steps) // 3
    facts = [fact for step in steps for fact in step["facts"]]
    assert any(f.startswith("Face-up cards: ") for f in facts)
    assert any(f.startswith("Bids revealed: ") for f in facts)
    assert steps[-1]["facts"][-1].startswith("Scores: ")
    assert "alice" in steps[-1]["facts"][-1]
    # What was private at a step (a sealed bid's content, told only to its owner) is not
    # in it, although the game is over: only what the table saw then.
    from games.titles import web_title

    title = web_title(game.title)
    private_lines = 0
    for step in steps[1:]:
        move = Move.objects.get(game=game, version=step["move"] + 1)
        for event in move.events:
            to = event.get("visible_to", "all")
            if to != "all":
                text = title.describe(event, data["names"], to[0])
                if text:
                    private_lines += 1
                    assert text not in step["log"], text
                    assert text not in json.dumps(step)
    assert private_lines  # the game had sealed steps


def test_la_conquista_steps_have_their_map_and_facts() -> None:
    game = _finished("la-conquista-del-oeste", seed=1)
    client = Client()
    data = client.get(f"/games/{game.pk}/replay.json").json()
    assert data["board"] == "server"
    steps = data["steps"]
    assert all(step["log"] for step in steps[1:])
    assert any(" in " in fact and "$" in fact for fact in steps[-1]["facts"])
    first = client.get(f"/games/{game.pk}/replay/0/board/")
    last = client.get(f"/games/{game.pk}/replay/{len(steps) - 1}/board/")
    assert first.status_code == 200
    assert 'class="lc-map"' in first.content.decode()
    assert first.content != last.content  # the pawns moved
    assert client.get(f"/games/{game.pk}/replay/{len(steps)}/board/").status_code == 404
    cc = _finished_other()
    assert client.get(f"/games/{cc.pk}/replay/0/board/").status_code == 404


def _finished_other() -> Game:
    bob = make_user("bob")
    game = lifecycle.game_create(
        creator=bob, players=2, bots=["random"], options={"flags": "random"}
    )
    return play_randomly(game, [bob], seed=2)
