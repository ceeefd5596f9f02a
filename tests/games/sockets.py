"""An in-process WebSocket client for the socket tests: ASGI straight to the routed
consumers (no server). Its tests use the in-memory channel layer (the root plugin's
``in_memory_layer`` fixture)."""

from __future__ import annotations

from typing import Any

from asgiref.testing import ApplicationCommunicator


def application() -> Any:
    """The site's socket routes."""
    from channels.routing import URLRouter

    from colorado.routing import websocket_urlpatterns

    return URLRouter(websocket_urlpatterns)


class Socket:
    """A WebSocket client speaking ASGI to the routed consumers (no server, no daphne)."""

    def __init__(self, path: str, token: str) -> None:
        scope = {
            "type": "websocket",
            "path": path,
            "query_string": b"",
            "headers": [(b"authorization", f"Bearer {token}".encode())],
            "subprotocols": [],
        }
        self.app = ApplicationCommunicator(application(), scope)

    async def connect(self) -> None:
        await self.app.send_input({"type": "websocket.connect"})
        assert (await self.app.receive_output(10))["type"] == "websocket.accept"

    async def receive_from(self, timeout: float) -> str:
        message = await self.app.receive_output(timeout)
        assert message["type"] == "websocket.send", message
        return str(message["text"])

    async def disconnect(self) -> None:
        await self.app.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.app.wait(5)


async def connect(game_id: int, token: str) -> Socket:
    """A socket on the game's page, connected."""
    socket = Socket(f"/ws/games/{game_id}/", token)
    await socket.connect()
    return socket
