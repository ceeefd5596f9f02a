"""La Conquista del Oeste through the whole site: a six-seat table with five bots opened
from the lobby plays to the end through the bot task; the game is rated for six, shows in
the history, verifies and replays; its players get "your turn" mails; the API plays it."""

from __future__ import annotations

import html
import json
import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail as outbox
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, User
from accounts.services import token_create
from games import moves
from games.models import Game, Move, Seat
from games.records.fairness import verify_export
from games.selectors import documents
from games.tables import lifecycle
from notifications import turn_mails
from tests.play import play_randomly

SLUG = "la-conquista-del-oeste"
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Bots move through the Celery task, run eagerly here (the root ``eager_tasks``)."""


def _person(name: str) -> User:
    return User.objects.create_user(
        username=name, password="a-long-password-42", email=f"{name}@example.org"
    )


def test_six_seats_with_five_bots_from_the_lobby_play_to_the_end() -> None:
    alice = _person("alice")
    page = Client()
    page.force_login(alice)
    form = page.get(f"/?title={SLUG}").content.decode()
    assert f'name="title" value="{SLUG}"' in form
    # The form says plainly that the map and cards are this site's own.
    assert "this site&#x27;s own" in form or "this site's own" in form
    assert "NAC (Madrid, 1982)" in form
    answer = page.post(
        "/games/new/",
        {
            "title": SLUG,
            "players": "6",
            "round_limit": "50",
            "clock": "normal",
            "on_timeout": "bot",
            "rated": "on",
            "open_seats": "on",
            "bots": "5",
            "bot_kind": "greedy",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    game = Game.objects.get(title=SLUG)
    assert game.status == Game.Status.RUNNING
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    assert len(seats) == 6
    assert len({s.user_id for s in seats}) == 6  # five bot accounts, one per seat
    assert sorted(s.colour for s in seats) == sorted(
        ["red", "blue", "green", "yellow", "black", "white"]
    )
    assert page.get(f"/games/{game.pk}/").status_code == 200
    game = play_randomly(game, [alice], seed=3)
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT).exists()
    assert len(game.result["ranks"]) == 6
    # Rated for all six, and in the history.
    assert Rating.objects.filter(game=SLUG).count() == 6
    profile = page.get(f"/users/{alice.username}/").content.decode()
    assert f"/games/{game.pk}/" in profile
    assert "La Conquista del Oeste" in profile
    # Verified and replayed from the published seed.
    export = json.loads(page.get(f"/api/games/{game.pk}/export").content)
    assert verify_export(export).ok
    call_command("replay_check", str(game.pk))
    replay = page.get(f"/games/{game.pk}/replay.json")
    assert replay.status_code == 200
    assert replay.json()["moves"] == game.version - 1


def test_a_person_gets_a_your_turn_mail_and_plays_through_the_api() -> None:
    alice, bob = _person("alice"), _person("bob")
    game = lifecycle.game_create(creator=alice, title=SLUG, players=2, invite=[bob.username])
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    grace = timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS)
    turn_mails.turn_mails_queue(now=timezone.now() + grace)
    due = Seat.objects.get(game=game, seat=game.to_act[0]).user
    # (bob also has the mail inviting him to the table)
    sent = [m for m in outbox.outbox if m.to == [due.email] and "] Your turn" in m.subject]
    assert len(sent) == 1
    assert sent[0].subject == (
        f"[Colorado County online] Your turn: La Conquista del Oeste, table {game.pk}"
    )
    client = Client()
    headers = {"Authorization": f"Bearer {token_create(user=due)}"}
    doc = client.get(f"/api/games/{game.pk}", headers=headers).json()
    assert doc["game"] == SLUG
    assert doc["legal_actions"]
    answer = client.post(
        f"/api/games/{game.pk}/actions",
        json.dumps({"action": doc["legal_actions"][0], "version": doc["version"]}),
        content_type="application/json",
        headers=headers,
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["version"] == doc["version"] + 1
    refused = client.post(
        f"/api/games/{game.pk}/actions",
        json.dumps({"action": {"type": "no_such_thing"}}),
        content_type="application/json",
        headers=headers,
    )
    assert refused.status_code in (403, 409, 422)
    assert "code" in refused.json()


def test_the_other_seats_never_see_an_opportunity_hand() -> None:
    alice, bob = _person("alice"), _person("bob")
    game = lifecycle.game_create(creator=alice, title=SLUG, players=2, invite=[bob.username])
    lifecycle.game_join(game_id=game.pk, user=bob)
    game = play_randomly(game, [alice, bob], seed=11, limit=400)
    game.refresh_from_db()
    for viewer in (alice, bob):
        doc = documents.game_document(game=game, user=viewer)
        mine = doc["my_seat"]
        for player in doc["view"]["players"]:
            if player["seat"] != mine:
                assert "hand" not in player


def test_the_page_shows_my_opportunity_cards_to_me_alone() -> None:
    """Opportunity cards in hand are seen by their holder only: not by the other player's
    page, nor a spectator's, nor in the panels they fetch."""
    from games.store.state_cache import engine_for, load_state
    from titles.la_conquista_del_oeste.engine.data import DATA

    alice, bob, carol = _person("alice"), _person("bob"), _person("carol")
    game = lifecycle.game_create(creator=alice, title=SLUG, players=2, invite=[bob.username])
    lifecycle.game_join(game_id=game.pk, user=bob)
    holder = None
    rng = random.Random(7)  # noqa: S311
    for _step in range(1500):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        mover = next(
            u
            for u in (alice, bob)
            if documents.game_document(game=game, user=u)["my_seat"] in game.to_act
        )
        doc = documents.game_document(game=game, user=mover)
        moves.action_submit(
            game_id=game.pk,
            user=mover,
            action=rng.choice(doc["legal_actions"]),
            version=doc["version"],
        )
        game.refresh_from_db()
        state = load_state(game)
        rules = engine_for(game)
        hands = {s: rules.view(state, s)["players"][s].get("hand") or [] for s in (0, 1)}
        holder = next((s for s, hand in hands.items() if hand), None)
        if holder is not None:
            break
    assert holder is not None, "no Opportunity card was drawn in the random play"
    seats = {s.seat: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    texts = [DATA.opportunity[c].text for c in hands[holder]]
    pages: dict[str, str] = {}
    for name, user in (("holder", seats[holder]), ("other", seats[1 - holder]), ("watcher", carol)):
        client = Client()
        client.force_login(user)
        page = client.get(f"/games/{game.pk}/").content.decode()
        page += client.get(f"/games/{game.pk}/panels/").content.decode()
        # As a reader sees it: a card's text with an apostrophe is &#x27; in the HTML.
        pages[name] = html.unescape(page)
    assert all(text in pages["holder"] for text in texts)
    for name in ("other", "watcher"):
        assert not any(text in pages[name] for text in texts), name


def test_a_whole_game_through_the_api_against_the_greedy_bot() -> None:
    """The API alone: open a table with a bot, play every decision by POSTing one of the
    legal actions with the version seen, to the end; then the export verifies."""
    alice = _person("alice")
    client = Client()
    headers = {"Authorization": f"Bearer {token_create(user=alice)}"}

    def post(path: str, body: dict[str, object]) -> object:
        return client.post(path, json.dumps(body), content_type="application/json", headers=headers)

    created = post("/api/games", {"game": SLUG, "players": 2, "bots": ["greedy"]})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    rng = random.Random(5)  # noqa: S311
    for _step in range(3000):
        doc = client.get(f"/api/games/{game_id}", headers=headers).json()
        if doc["status"] != "running":
            break
        assert doc["my_seat"] in doc["to_act"], "the bot did not move by itself"
        answer = post(
            f"/api/games/{game_id}/actions",
            {"action": rng.choice(doc["legal_actions"]), "version": doc["version"]},
        )
        assert answer.status_code == 200, answer.content
    assert doc["status"] == "finished"
    export = client.get(f"/api/games/{game_id}/export", headers=headers).json()
    assert verify_export(export).ok
