"""No long-lived secret in the server's access log (docs/api.md, "The game socket"): a
script opens its sockets the documented ways against a real uvicorn that logs every
request, and the log holds the handshakes but not the API token."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from accounts.services import token_create
from games.tables import lifecycle
from tests.fixtures import channel_prefix
from tests.games.live import Socket, live_server, socket_ticket

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]


def test_the_access_log_never_holds_an_api_token(
    django_db_blocker: Any,
    worker_id: str,
    tmp_path: Path,
    make_user: Callable[..., User],
) -> None:
    alice, bob = make_user(), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username])
    lifecycle.game_join(game_id=game.pk, user=bob)
    token = token_create(user=alice)
    log = tmp_path / "access.log"
    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    with live_server(
        database_name=name, channel_prefix=channel_prefix(worker_id), access_log=log
    ) as base:
        url = base.replace("http", "ws", 1) + f"/ws/games/{game.pk}/"
        ticket = socket_ticket(base, token)
        sockets = [
            Socket(f"{url}?ticket={ticket}", origin=None),
            Socket(url, origin=None, headers={"Authorization": f"Bearer {token}"}),
        ]
        try:
            for sock in sockets:
                assert sock.wait_for(lambda f: f["type"] == "game")["my_seat"] is not None
        finally:
            for sock in sockets:
                sock.close()
    text = log.read_text()
    assert f"/ws/games/{game.pk}/" in text  # the handshakes were logged...
    assert "/api/socket-ticket" in text
    assert token not in text  # ...without the token
