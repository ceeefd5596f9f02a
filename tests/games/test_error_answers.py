"""One mapping from service errors to answers (``games.errors.error_body``): a refusal reads
the same on the JSON API, the clock API and the pages, and a stale version carries the
caller's current game document under ``current`` everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.api.kit import STATUS_CODES
from games.errors import (
    BadRequest,
    Conflict,
    GameError,
    IllegalMove,
    NotAllowed,
    NotFound,
    NotSignedIn,
    StaleVersion,
)
from games.models import Game
from games.selectors import documents
from tests.games.fixtures import ApiClient, running_pair

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ERRORS = [
    BadRequest("Odd request.", code="odd_request"),
    NotSignedIn("Sign in, please."),
    NotAllowed("Not yours.", code="not_yours"),
    NotFound("Gone.", code="gone"),
    Conflict("Moved on.", code="moved_on"),
    IllegalMove("Against the rules.", code="against_the_rules"),
]


def client_for(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def raising(exc: GameError) -> Callable[..., Any]:
    def service(**_kwargs: Any) -> Any:
        raise exc

    return service


@pytest.mark.parametrize("exc", ERRORS, ids=lambda e: f"{e.status}-{e.code}")
def test_a_service_error_reads_the_same_on_every_surface(
    exc: GameError, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, (alice, _bob) = running_pair(make_user)
    # Every surface's move goes through the batch service (one move: a batch of one).
    monkeypatch.setattr("games.moves.answer.submit", raising(exc))
    # The pages and the clock API each import the resign service by name.
    monkeypatch.setattr("games.web.posts.seat_resign", raising(exc))
    monkeypatch.setattr("games.api.clock.seat_resign", raising(exc))
    api = ApiClient(alice)
    answers = {
        "api": api.post(f"/api/games/{game.pk}/actions", {"action": {"type": "bid"}}),
        "clock api": api.post(f"/api/games/{game.pk}/resign"),
        "page": client_for(alice).post(
            f"/games/{game.pk}/act/", {"kind": "bid"}, headers={"Accept": "application/json"}
        ),
        "page resign": client_for(alice).post(
            f"/games/{game.pk}/resign/", headers={"Accept": "application/json"}
        ),
    }
    for surface, answer in answers.items():
        assert (surface, answer.status_code) == (surface, exc.status)
        assert (surface, answer.json()) == (surface, {"code": exc.code, "message": exc.message})
    # Without the script, the page goes back to the game and shows the same sentence.
    shown = client_for(alice).post(f"/games/{game.pk}/act/", {"kind": "bid"}, follow=True)
    assert shown.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert exc.message in shown.content.decode()


def test_a_stale_move_from_the_page_answers_the_current_table_as_current(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = running_pair(make_user)
    seen = documents.game_document(game=game, user=alice)["version"]
    c_alice = client_for(alice)
    assert (
        c_alice.post(f"/games/{game.pk}/act/", {"kind": "bid", "version": seen}).status_code == 302
    )
    client_for(bob).post(f"/games/{game.pk}/act/", {"kind": "bid"})
    game.refresh_from_db()
    assert game.version == seen + 2  # both bids in: Alice's choices changed
    stale = c_alice.post(
        f"/games/{game.pk}/act/",
        {"kind": "bid", "version": seen + 1},
        headers={"Accept": "application/json"},
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "stale_version"
    assert body["message"] == StaleVersion().message
    assert "document" not in body
    assert body["current"] == documents.game_document(game=game, user=alice)
    assert body["current"]["version"] == game.version
    # The API answers the same refusal with the same document under the same name.
    api_stale = ApiClient(alice).post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "bid", "cowboys": []}, "version": seen + 1},
    )
    assert api_stale.status_code == 409
    assert api_stale.json() == body
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_each_errors_default_code_is_the_one_the_schema_documents_for_its_status() -> None:
    for kind in {type(exc) for exc in ERRORS}:
        assert STATUS_CODES[kind.status] == kind.code, kind
