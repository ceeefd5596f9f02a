"""Private notes (games.tables.notes): a notepad per player per table that no one else ever reads.

Checked as the hidden hands are: a secret written by one seat in the middle of a game
reaches no other seat, spectator or visitor on any channel — pages, panels, the API's
document and log, the export, the replay, the verification, the download, socket frames,
mails, the admin, error messages — and no other row of the database holds it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.core import mail, serializers
from django.test import Client

from accounts.models import User
from games.models import Game, GameNote
from games.tables import lifecycle, notes
from games.tables.limits import note_throttle
from tests.games.fixtures import ApiClient
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Bluff-the-river-7Q"


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


class JsonClient(ApiClient):
    def put(self, path: str, body: Any) -> Any:
        return self.client.put(
            path, json.dumps(body), content_type="application/json", headers=self.headers
        )


def running_pair(make_user: Callable[..., User]) -> tuple[Game, list[User]]:
    """A running Colorado County table of two new people."""
    users = [make_user(), make_user()]
    game = lifecycle.game_create(
        creator=users[0], title="colorado-county", players=2, options={"flags": "random"}
    )
    lifecycle.game_join(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_each_player_reads_and_writes_only_their_own_note(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = running_pair(make_user)
    path = f"/api/games/{game.pk}/notes"
    assert JsonClient(alice).get(path).json() == {"text": "", "updated_at": None}
    saved = JsonClient(alice).put(path, {"text": SECRET})
    assert saved.status_code == 200, saved.content
    assert saved.json()["text"] == SECRET
    assert JsonClient(alice).get(path).json()["text"] == SECRET
    # Bob's notepad is his own: empty, and his note leaves alice's alone.
    assert JsonClient(bob).get(path).json()["text"] == ""
    assert JsonClient(bob).put(path, {"text": "mine"}).status_code == 200
    assert JsonClient(alice).get(path).json()["text"] == SECRET
    assert JsonClient(bob).get(path).json()["text"] == "mine"
    # An empty text clears it.
    assert JsonClient(bob).put(path, {"text": ""}).json()["text"] == ""


def test_refusals_are_clear_and_never_repeat_the_note(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = running_pair(make_user)
    carol = make_user()
    path = f"/api/games/{game.pk}/notes"
    JsonClient(alice).put(path, {"text": SECRET})
    anonymous = JsonClient(None).get(path)
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "not_signed_in"
    for answer in (JsonClient(carol).get(path), JsonClient(carol).put(path, {"text": SECRET})):
        assert answer.status_code == 403
        assert answer.json()["code"] == "not_a_player"
        assert SECRET not in answer.content.decode()
    too_long = JsonClient(alice).put(path, {"text": SECRET + "x" * notes.NOTE_MAX})
    assert too_long.status_code == 400
    assert too_long.json()["code"] == "note_too_long"
    assert SECRET not in too_long.content.decode()
    not_text = JsonClient(alice).put(path, {"text": {"secret": SECRET}})
    assert not_text.status_code == 400
    assert SECRET not in not_text.content.decode()
    unknown = JsonClient(alice).get("/api/games/999999/notes")
    assert unknown.status_code == 404
    # The page's form answers the same.
    page = _signed_in(carol).post(
        f"/games/{game.pk}/notes/", {"text": SECRET}, headers={"Accept": "application/json"}
    )
    assert page.status_code == 403
    assert SECRET not in page.content.decode()
    # Nothing of the refused writes was kept; alice's note is as she left it.
    assert JsonClient(alice).get(path).json()["text"] == SECRET
    assert GameNote.objects.count() == 1


def test_saving_is_rate_limited_on_the_page_and_the_api_together(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, (alice, _bob) = running_pair(make_user)
    monkeypatch.setattr(note_throttle, "num_requests", 2)
    client = _signed_in(alice)
    json_headers = {"Accept": "application/json"}
    first = client.post(f"/games/{game.pk}/notes/", {"text": "a"}, headers=json_headers)
    assert first.status_code == 200
    assert JsonClient(alice).put(f"/api/games/{game.pk}/notes", {"text": "b"}).status_code == 200
    third = JsonClient(alice).put(f"/api/games/{game.pk}/notes", {"text": "c"})
    assert third.status_code == 429
    assert third.json()["code"] == "throttled"
    page = client.post(f"/games/{game.pk}/notes/", {"text": "d"}, headers=json_headers)
    assert page.status_code == 429
    assert JsonClient(alice).get(f"/api/games/{game.pk}/notes").json()["text"] == "b"


def _everything_seen(game: Game, viewer: User | None) -> str:
    """Every channel's answer to ``viewer`` about ``game``, as one text."""
    page = Client() if viewer is None else _signed_in(viewer)
    api = ApiClient(viewer)
    out = []
    for path in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/panels/",
        f"/games/{game.pk}/replay.json",
        f"/games/{game.pk}/verify/",
        f"/games/{game.pk}/verify/?format=json",
        f"/games/{game.pk}/download/",
        f"/games/{game.pk}/replay/1/board/",
        "/games/inbox/",
        "/",
    ):
        out.append(page.get(path).content.decode())
    for path in (
        f"/api/games/{game.pk}",
        f"/api/games/{game.pk}/log",
        f"/api/games/{game.pk}/export",
        f"/api/games/{game.pk}/notes",
        "/api/games?status=finished",
    ):
        out.append(api.get(path).content.decode())
    return "\n".join(out)


def test_a_note_never_reaches_another_seat_on_any_channel(
    make_user: Callable[..., User],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(
        "games.live.broadcast.group_send", lambda _group, message: sent.append(message)
    )
    game, (alice, bob) = running_pair(make_user)
    carol = make_user()
    admin_user = make_user(is_staff=True, is_superuser=True)
    # Alice writes her note in the middle of the game, on the page (as the script does).
    saved = _signed_in(alice).post(
        f"/games/{game.pk}/notes/",
        {"text": f"{SECRET} <b>not markup</b>"},
        headers={"Accept": "application/json"},
    )
    assert saved.status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        game = play_randomly(game, [alice, bob], seed=5)
    assert game.status == Game.Status.FINISHED
    assert sent, "the moves sent frames"
    # Frames and messages of the sockets, the mails.
    assert SECRET not in json.dumps(sent, default=str)
    assert all(SECRET not in str(m.message()) for m in mail.outbox)
    # Every page and API answer, to the other seat, a spectator and a visitor.
    for viewer in (bob, carol, None):
        assert SECRET not in _everything_seen(game, viewer), viewer
    # The admin's lists and pages of the table: no notes there either.
    assert GameNote not in admin.site._registry
    staff = _signed_in(admin_user)
    for path in ("/admin/games/game/", f"/admin/games/game/{game.pk}/change/"):
        answer = staff.get(path)
        assert answer.status_code == 200
        assert SECRET not in answer.content.decode()
    # No other row anywhere holds it (the outbox, the move log, the export's sources…).
    for model in apps.get_models():
        if model is GameNote:
            continue
        dumped = serializers.serialize("json", model.objects.all())
        assert SECRET not in dumped, model
    # Alice still has it after the game, on her page (escaped) and through the API.
    mine = _everything_seen(game, alice)
    assert f"{SECRET} &lt;b&gt;not markup&lt;/b&gt;" in mine
    note = ApiClient(alice).get(f"/api/games/{game.pk}/notes").json()
    assert note["text"] == f"{SECRET} <b>not markup</b>"
    # And the row's own text never prints it.
    assert SECRET not in str(GameNote.objects.get())


def test_the_page_shows_the_notepad_to_players_only(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = running_pair(make_user)
    carol = make_user()
    mine = _signed_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'id="notes-text"' in mine
    assert "notes.js" in mine
    theirs = _signed_in(carol).get(f"/games/{game.pk}/").content.decode()
    assert 'id="notes-text"' not in theirs
    # Without scripts the form posts and comes back to the notepad.
    answer = _signed_in(alice).post(f"/games/{game.pk}/notes/", {"text": "plan"})
    assert answer.status_code == 303
    assert answer["Location"].endswith("#notes")
    assert "plan" in _signed_in(alice).get(f"/games/{game.pk}/").content.decode()
