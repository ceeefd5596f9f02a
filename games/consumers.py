"""The live table: ``/ws/games/<id>/``.

Auth by the session cookie or ``?token=<api token>``. The consumer checks that the caller
may watch the game before joining its group ``game-<id>``. Group messages carry only the
game id and version (nothing private crosses the channel layer); each socket then builds its
own payload through the selectors: ``{"type": "game", "version", "view", "legal_actions",
"to_act", "events", …}`` with the same filtering as ``GET /api/games/<id>``. A client that
reconnects sends ``{"type": "hello", "version": n}`` and gets the current document with the
events after ``n``.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError, connection

from games.services import group_name

T = TypeVar("T")

# Socket frames are built by a few long-lived threads that keep their database connection
# (Django opens one per thread; a new PostgreSQL connection costs more than the queries of
# a frame). The pool is small, so the number of connections stays bounded.
_DB_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="game-socket-db")


def _run_db(fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except (InterfaceError, OperationalError):
        connection.close()  # a broken kept connection: reconnect once
        return fn(*args)


async def database(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` (database work) in the socket pool threads."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_DB_THREADS, functools.partial(_run_db, fn, *args))


CLOSE_NOT_ALLOWED = 4403
CLOSE_NOT_FOUND = 4404
MAX_FRAME = 4096


def _token_user(token: str) -> Any:
    from accounts.services import token_user

    return token_user(token=token)


def _load(game_id: int, user: Any) -> tuple[Any, bool]:
    from games import selectors
    from games.models import Game

    game = Game.objects.filter(pk=game_id).first() if 0 < game_id < 2**62 else None
    if game is None:
        return None, False
    return game, selectors.can_watch(game=game, user=user)


def _payload(game_id: int, user: Any, since: int, mark: bool) -> dict[str, Any] | None:
    from games import selectors, services
    from games.models import Game

    game = Game.objects.select_related("created_by").filter(pk=game_id).first()
    if game is None:
        return None
    doc = selectors.game_document(game=game, user=user)
    events = selectors.game_log(game=game, user=user, since=since, chat=False, until=doc["version"])
    if doc["my_seat"] is not None and (mark or doc["my_seat"] in doc["to_act"]):
        # Watching live: the seat has seen this version (no "your turn" mail needed).
        services.seat_mark_seen(game_id=game_id, user=user, version=game.version)
    return {
        "type": "game",
        "version": doc["version"],
        "status": doc["status"],
        "my_seat": doc["my_seat"],
        "seats": doc["seats"],
        "view": doc["view"],
        "legal_actions": doc["legal_actions"],
        "to_act": doc["to_act"],
        "result": doc["result"],
        "events": events,
    }


def _chat(game_id: int, message_id: int) -> dict[str, Any] | None:
    from games import selectors
    from games.models import ChatMessage

    message = (
        ChatMessage.objects.select_related("user").filter(pk=message_id, game_id=game_id).first()
    )
    return selectors.chat_entry(message) if message is not None else None


class GameConsumer(AsyncWebsocketConsumer):
    game_id: int
    group: str
    user: Any
    version: int

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = group_name(self.game_id)
        self.version = 0
        user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        token = (query.get("token") or [""])[0]
        if token:
            user = await database(_token_user, token)
            if user is None:
                await self.close(code=CLOSE_NOT_ALLOWED)
                return
        self.user = user if getattr(user, "is_authenticated", False) else None
        game, allowed = await database(_load, self.game_id, self.user)
        if game is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not allowed:
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_document(since=game.version, mark=True)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None) and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._error("bad_message")
            return
        if not isinstance(message, dict) or message.get("type") != "hello":
            await self._error("unknown_message")
            return
        since = message.get("version", 0)
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since < 2**62:
            since = 0
        await self._send_document(since=since, mark=True)

    async def _error(self, code: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code}))

    async def _send_document(self, *, since: int, mark: bool = False) -> None:
        payload = await database(_payload, self.game_id, self.user, since, mark)
        if payload is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.version = max(self.version, payload["version"])
        await self.send(text_data=json.dumps(payload))

    # --- group messages (carry only ids and versions) ---------------------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if isinstance(version, int) and version <= self.version:
            return
        await self._send_document(since=self.version)

    async def game_chat(self, event: dict[str, Any]) -> None:
        message_id = event.get("message_id")
        if not isinstance(message_id, int):
            return
        entry = await database(_chat, self.game_id, message_id)
        if entry is not None:
            await self.send(text_data=json.dumps(entry))
