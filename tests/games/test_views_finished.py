"""Rematch and step-by-step replay of a finished game (``games.web.finished``), on games
played to the end through the real services (people moving at random, bots through the
eager Celery task)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.errors import NotAllowed
from games.models import Game, Invitation, Seat
from games.selectors import documents
from games.tables import lifecycle
from tests.accounts.factories import make_user
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Celery runs eagerly here (the root conftest's ``eager_tasks``)."""


OPTIONS = {"flags": "random"}
CLOCK = {"initial_hours": 30, "increment_hours": 6, "max_hours": 50}


def _finished(seed: int = 5, *, open_seats: bool = False) -> tuple[Game, list[User]]:
    """A finished 3-player game: two people and a random bot, with non-default settings
    (invitation-only unless ``open_seats``)."""
    users = [make_user(), make_user()]
    game = lifecycle.game_create(
        creator=users[0],
        players=3,
        bots=["random"],
        options=OPTIONS,
        clock=CLOCK,
        on_timeout="wait",
        rated=False,
        invite=[users[1].username],
        open_seats=open_seats,
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game = play_randomly(game, users, seed=seed)
    assert game.status == Game.Status.FINISHED
    return game, users


def _signed_in(user: User, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def test_rematch_carries_players_and_settings_over() -> None:
    game, (alice, bob) = _finished()
    response = _signed_in(bob).post(f"/games/{game.pk}/rematch/")
    assert response.status_code == 302
    rematch = Game.objects.get(rematch_of=game)
    assert response["Location"] == f"/games/{rematch.pk}/"
    assert rematch.title == game.title
    assert rematch.options == game.options
    assert rematch.num_players == 3
    assert (
        rematch.clock_initial_seconds,
        rematch.clock_increment_seconds,
        rematch.clock_max_seconds,
    ) == (30 * 3600, 6 * 3600, 50 * 3600)
    assert rematch.on_timeout == "wait"
    assert rematch.rated is False
    assert rematch.created_by == bob
    seats = Seat.objects.filter(game=rematch).select_related("user")
    assert {s.user.username for s in seats if not s.user.is_bot} == {bob.username}
    assert [s.bot_kind for s in seats if s.user.is_bot] == ["random"]
    assert list(Invitation.objects.filter(game=rematch).values_list("user", flat=True)) == [
        alice.pk
    ]
    # Alice accepts; the table fills and the rematch starts.
    lifecycle.game_join(game_id=rematch.pk, user=alice)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.RUNNING


def test_a_second_request_returns_the_same_rematch() -> None:
    game, (alice, bob) = _finished()
    first = _signed_in(alice).post(f"/games/{game.pk}/rematch/")
    second = _signed_in(bob).post(f"/games/{game.pk}/rematch/")
    again = lifecycle.game_rematch(game_id=game.pk, user=alice)
    assert first["Location"] == second["Location"] == f"/games/{again.pk}/"
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_only_players_may_ask_and_only_after_the_end() -> None:
    game, (alice, _bob) = _finished()
    stranger = make_user()
    as_json = {"Accept": "application/json"}
    response = _signed_in(stranger).post(f"/games/{game.pk}/rematch/", headers=as_json)
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    # From the page: back to the game, with the reason shown.
    page = _signed_in(stranger).post(f"/games/{game.pk}/rematch/", follow=True)
    assert page.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "Only the players of this game can ask for a rematch." in page.content.decode()
    assert not Game.objects.filter(rematch_of=game).exists()
    running = lifecycle.game_create(creator=alice, players=2, bots=["random"])
    with pytest.raises(NotAllowed):
        lifecycle.game_rematch(game_id=running.pk, user=stranger)
    response = _signed_in(alice).post(f"/games/{running.pk}/rematch/", headers=as_json)
    assert (response.status_code, response.json()["code"]) == (409, "not_finished")
    assert not Game.objects.filter(rematch_of=running).exists()
    assert Client().get(f"/games/{game.pk}/rematch/").status_code == 405


def test_rematch_needs_the_csrf_token() -> None:
    game, (alice, _bob) = _finished()
    client = _signed_in(alice, csrf=True)
    assert client.post(f"/games/{game.pk}/rematch/").status_code == 403
    assert not Game.objects.filter(rematch_of=game).exists()
    page = client.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert f'action="/games/{game.pk}/rematch/"' in html
    token = page.cookies["csrftoken"].value
    response = client.post(f"/games/{game.pk}/rematch/", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_replay_gives_every_public_view_up_to_the_final_one() -> None:
    game, (_alice, _bob) = _finished(seed=9, open_seats=True)
    response = Client().get(f"/games/{game.pk}/replay.json")  # a public table: anyone
    assert response.status_code == 200
    data = response.json()
    moves = game.version - 1
    assert data["moves"] == moves
    steps = data["steps"]
    assert len(steps) == moves + 1
    final = documents.game_document(game=game, user=AnonymousUser())["view"]
    assert steps[-1]["view"] == final
    assert [p["score"] for p in steps[-1]["view"]["players"]] == game.result["scores"]
    assert steps[0]["move"] is None
    assert all(s["move"] == i for i, s in enumerate(steps[1:], start=1))
    assert {s["seat"] for s in steps[1:]} == {0, 1, 2}
    assert steps[1]["type"] in steps[1]["text"]
    # Public views only: the same as a spectator's, no player's hand in any step.
    assert steps[0]["view"] != steps[-1]["view"]
    assert all("hand" not in s["view"] and "my_bid" not in s["view"] for s in steps)
    assert all(s["view"]["seat"] is None for s in steps)


def test_replay_is_refused_while_the_game_runs() -> None:
    alice = make_user()
    running = lifecycle.game_create(creator=alice, players=2, bots=["random"])
    response = _signed_in(alice).get(f"/games/{running.pk}/replay.json")
    assert response.status_code == 409
    assert response.json()["code"] == "not_finished"
    assert Client().get("/games/999999/replay.json").status_code == 404


def test_finished_page_has_the_replay_panel_and_rematch_button() -> None:
    game, (alice, _bob) = _finished(open_seats=True)  # so that a spectator may look
    html = _signed_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'id="replay"' in html
    assert f'data-url="/games/{game.pk}/replay.json"' in html
    for step in ("first", "back", "forward", "last"):
        assert f'data-step="{step}"' in html
    assert 'id="replay-step" aria-live="polite"' in html
    assert "js/replay.js" in html
    assert ">Rematch</button>" in html
    # A spectator sees the replay but no rematch button.
    html = _signed_in(make_user()).get(f"/games/{game.pk}/").content.decode()
    assert 'id="replay"' in html
    assert ">Rematch</button>" not in html


def test_the_finished_game_pages_keep_their_paths() -> None:
    assert reverse("games:verify", args=[7]) == "/games/7/verify/"
    assert reverse("games:rematch", args=[7]) == "/games/7/rematch/"
    assert reverse("games:replay", args=[7]) == "/games/7/replay.json"


def test_the_record_verdict_and_replay_are_rate_limited_like_the_api_export() -> None:
    """Each call reads (to verify: replays) the whole game: an address hammering the record
    gets 429 ``throttled`` with Retry-After, as ``GET /api/games/<id>/export`` answers, and
    nothing else changes."""
    game, (alice, _bob) = _finished(open_seats=True)
    visitor = Client()
    for path in ("download/", "verify/", "replay.json"):
        assert visitor.get(f"/games/{game.pk}/{path}").status_code == 200
    for _ in range(17):
        assert visitor.get(f"/games/{game.pk}/download/").status_code == 200
    refused = visitor.get(f"/games/{game.pk}/download/")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) >= 1
    assert visitor.get(f"/games/{game.pk}/verify/?format=json").status_code == 429
    # A signed-in player has a limit of their own.
    assert _signed_in(alice).get(f"/games/{game.pk}/download/").status_code == 200
