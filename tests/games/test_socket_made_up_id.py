"""A socket opened on a game id that no game can have (a made-up or mistyped URL): a clean
close with 4404, as for any game that does not exist, and nothing in the server's log. An
id of more than about 90 digits makes a channel-layer group name that the layer refuses;
the socket used to try to join that group, log a warning, and raise from its disconnect."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

from tests.games.sockets import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_memory_layer")]


@pytest.mark.parametrize(
    "game_id",
    ["0", "9223372036854775808", "9" * 40, "1" + "0" * 119],
    ids=["zero", "past-bigint", "40-digits", "120-digits"],
)
def test_a_made_up_game_id_closes_with_4404_and_logs_nothing(
    game_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    scope = {
        "type": "websocket",
        "path": f"/ws/games/{game_id}/",
        "query_string": b"",
        "headers": [],
        "subprotocols": [],
    }

    async def scenario() -> dict[str, Any]:
        app = ApplicationCommunicator(application(), scope)
        await app.send_input({"type": "websocket.connect"})
        closed = await app.receive_output(10)
        await app.send_input({"type": "websocket.disconnect", "code": 4404})
        await app.wait(5)  # raises what the consumer raised on its way out
        return dict(closed)

    with caplog.at_level(logging.WARNING):
        closed = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": 4404}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
