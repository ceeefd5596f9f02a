"""One rule for who may see a table, on every channel (``games.selectors.documents.can_watch``): a
public table (anyone may join) is open to everyone, running or finished; an invitation-only
table only to its players (and the people invited to it). The same matrix — anonymous, a
player, another signed-in user; public and invitation-only; running and finished — for the
page, the API document, the export, the replay, the verification and the socket."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import token_create
from games.models import Game
from games.tables import lifecycle
from tests.games.test_socket_auth import _handshake
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


def _game(make_user: Callable[..., User], *, public: bool, finished: bool) -> tuple[Game, User]:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(
        creator=alice,
        players=2,
        options={"flags": "random"},
        invite=[bob.username],
        open_seats=public,
    )
    lifecycle.game_join(game_id=game.pk, user=bob)
    if finished:
        game = play_randomly(game, [alice, bob], seed=3)
        assert game.status == Game.Status.FINISHED
    return game, alice


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _seen(channel: str, game: Game, viewer: User | None) -> str:
    """What ``viewer`` got on ``channel``: "shown", "not_finished" (allowed, but the record
    waits for the end), or the refusal ("sign_in" for anonymous, "refused" signed in)."""
    finished = game.status == Game.Status.FINISHED
    if channel == "socket":  # as the page opens it: from our Origin
        headers = [(b"origin", b"http://localhost")]
        if viewer is not None:
            headers.append((b"authorization", f"Bearer {token_create(user=viewer)}".encode()))
        answer = _handshake(game.pk, headers=headers)
        if answer["type"] == "websocket.accept":
            return "shown"
        if answer.get("code") != 4403:
            return f"unexpected {answer}"
        return "sign_in" if viewer is None else "refused"
    if channel == "api":
        headers = {"Authorization": f"Bearer {token_create(user=viewer)}"} if viewer else {}
        response = Client().get(f"/api/games/{game.pk}", headers=headers)
    elif channel == "export":
        headers = {"Authorization": f"Bearer {token_create(user=viewer)}"} if viewer else {}
        response = Client().get(f"/api/games/{game.pk}/export", headers=headers)
    else:
        path = {
            "page": f"/games/{game.pk}/",
            "replay": f"/games/{game.pk}/replay.json",
            "verify": f"/games/{game.pk}/verify/",
            "verify_json": f"/games/{game.pk}/verify/?format=json",
        }[channel]
        response = _client(viewer).get(path)
    status = response.status_code
    if status == 200:
        return "shown"
    if status == 409 and not finished and channel in {"export", "replay", "verify", "verify_json"}:
        return "not_finished"
    if channel in {"page", "verify"}:  # HTML: sign in first, or a clear refusal
        if viewer is None and status == 302 and "/accounts/login/" in response["Location"]:
            return "sign_in"
        if viewer is not None and status == 403:
            return "refused"
        return f"unexpected {status}"
    body = response.json()
    if viewer is None and (status, body.get("code")) == (401, "not_signed_in"):
        return "sign_in"
    if viewer is not None and (status, body.get("code")) == (403, "not_a_player"):
        return "refused" if body.get("message") else "no message"
    return f"unexpected {status} {body}"


CHANNELS = ["page", "api", "socket", "export", "replay", "verify", "verify_json"]


def test_one_rule_for_every_channel(make_user: Callable[..., User]) -> None:
    outsider = make_user()
    wrong = []
    for public in (True, False):
        for finished in (False, True):
            game, player = _game(make_user, public=public, finished=finished)
            for who, viewer in (("anonymous", None), ("player", player), ("other", outsider)):
                allowed = public or who == "player"
                for channel in CHANNELS:
                    got = _seen(channel, game, viewer)
                    if allowed:
                        record = channel in {"export", "replay", "verify", "verify_json"}
                        want = "not_finished" if record and not finished else "shown"
                    else:
                        want = "sign_in" if viewer is None else "refused"
                    if got != want:
                        table = "public" if public else "invitation-only"
                        state = "finished" if finished else "running"
                        wrong.append(f"{table} {state}, {who}, {channel}: {got} (want {want})")
    assert wrong == []


def test_an_invited_player_may_look_at_the_table_before_joining(
    make_user: Callable[..., User],
) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username], open_seats=False)
    assert _client(bob).get(f"/games/{game.pk}/").status_code == 200
    assert _seen("api", game, bob) == "shown"
    assert _seen("api", game, make_user()) == "refused"
