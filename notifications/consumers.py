"""The live socket of every signed-in page: ``/ws/live/`` (``?lobby=1`` on the lobby).

It carries two things, both small and never hidden information:

* ``{"type": "inbox", "count": n}``: the number of games waiting for the user (their move
  is due, or an invitation is unanswered: ``games.selectors.inbox.inbox_count``), sent on
  connect and whenever their inbox may have changed (group ``inbox-<user id>``);
* ``{"type": "lobby"}``: the open tables changed (group ``lobby``, lobby pages only); the
  page fetches the list it may see itself, with its own session.

Auth by the session cookie (same origin, ``colorado.asgi``); an anonymous socket is
refused. The groups are fed by ``notifications.live``. A nudge lost with the channel
layer is caught up by a re-read every ``LIVE_POLL_SECONDS``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from games.live.socket_limits import CLOSE_TOO_MANY, Bucket, key_of, socket_counts
from games.selectors.inbox import inbox_count
from games.store import db_threads
from notifications.live import LOBBY_GROUP, inbox_group

log = logging.getLogger(__name__)

CLOSE_NOT_SIGNED_IN = 4401
LIVE_POLL_SECONDS = 60.0


def _count(user: Any) -> int:

    return inbox_count(user=user)


class LiveConsumer(AsyncWebsocketConsumer):
    user: Any = None
    groups_joined: list[str]
    count: int | None = None
    poll: asyncio.Task[None] | None = None
    lobby = False
    share: str | None = None  # the socket share it counts in (games.live.socket_limits)
    asks: Bucket | None = None

    async def connect(self) -> None:
        self.groups_joined = []
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        share = key_of(user, self.scope)
        if not socket_counts.take(share):  # the account's sockets are all open
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.share = share
        self.user = user
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        groups = [inbox_group(user.pk)]
        self.lobby = (query.get("lobby") or [""])[0] == "1"
        if self.lobby:
            groups.append(LOBBY_GROUP)
        for group in groups:
            try:
                await self.channel_layer.group_add(group, self.channel_name)
                self.groups_joined.append(group)
            except Exception as exc:  # Redis down: the poll below keeps the count right
                log.warning("live socket could not join %s: %s", group, exc)
        await self.accept()
        await self.send_count(force=True)
        self.poll = asyncio.get_running_loop().create_task(self._poll())

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(LIVE_POLL_SECONDS)
            try:
                await self.send_count()
                if self.lobby:
                    await self.send(text_data=json.dumps({"type": "lobby"}))
            except Exception:
                log.exception("live socket poll failed")

    async def disconnect(self, code: int) -> None:
        if self.share is not None:
            socket_counts.give_back(self.share)
            self.share = None
        if self.poll is not None:
            self.poll.cancel()
        for group in getattr(self, "groups_joined", []):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:
                log.warning("live socket could not leave %s: %s", group, exc)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.asks is None:
            self.asks = Bucket()
        if not self.asks.allow():  # each ask counts the inbox again
            await self.send(text_data=json.dumps({"type": "error", "code": "throttled"}))
            return
        await self.send_count(force=True)  # any message: "tell me again"

    async def send_count(self, *, force: bool = False) -> None:
        # In the database threads, not Channels' one thread: every live socket of a user
        # counts again when their inbox may have changed.
        count = await db_threads.run(_count, self.user)
        if force or count != self.count:
            self.count = count
            await self.send(text_data=json.dumps({"type": "inbox", "count": count}))

    async def inbox_changed(self, event: dict[str, Any]) -> None:
        await self.send_count()

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "lobby"}))
