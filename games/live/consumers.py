"""The live table: ``/ws/games/<id>/``.

Auth by the session cookie, a single-use ``?ticket=`` from ``POST /api/socket-ticket``, or an
``Authorization: Bearer`` header (scripts); never ``?token=``, which would put a long-lived
token into access logs. The consumer checks that the caller may watch the game before joining
its group, ``game-<id>``. Frames are ``{"type": "game", "version", "status", "my_seat",
"seats", "view", "legal_actions", "to_act", "result", "events"}`` with the same filtering as
``GET /api/games/<id>``:

* after a move, the server builds each seat's frame once (``games.live.frames.move_frames``) and
  sends them together in one ``game.frame`` message; a socket sends on the entry of the
  seat its user holds (spectators: the public entry) and nothing else, when it follows the
  version it showed last, and otherwise reads its own document (so a lost or reordered
  message costs a query, never a wrong view);
* any other change (a join, the start, a seat handed to a bot, an abort) is announced with
  its version only; each socket then reads its own document (with ``"refresh": true`` when
  the version stays the same: a hand-over, a replace vote cast);
* a client that reconnects sends ``{"type": "hello", "version": n}`` and gets the current
  document with the events after ``n``;
* a player moves with ``{"type": "action", "action" (or the page's "form"), "version",
  "client_id"}`` and gets ``{"type": "answer", "client_id", "status", "body"}``: what
  ``POST /api/games/<id>/actions`` answers, from the same service (``games.moves.answer``),
  run in the process's database threads (``games.store.db_threads``), a game's moves that wait
  there together made in one transaction (``games.moves.queue``);
* group messages are not kept (Redis Pub/Sub): one sent while the channel layer was down is
  lost. So every ``SOCKET_RESYNC_SECONDS`` each server process reads the versions of the
  games its sockets show, in one query, and a socket that is behind and got nothing for a
  second reads its document (``games.live.watch.VersionWatch``): a socket is up to date at
  most about ``SOCKET_RESYNC_SECONDS`` + 1 s after a change, whatever the layer did, for
  every client.

A move's private frames cross the channel layer (Redis) only inside the server — the same
trust as the database, which holds every hand and the seed — and reach a socket only as
its own seat's entry; the seat is re-read with every document (a join, a seat handed over).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, TypeVar
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from accounts.services import socket_ticket_user, token_user
from colorado.throttling import UserRateThrottle
from games.live.broadcast import frame_key, group_name
from games.live.frames import socket_frame
from games.live.reads import chat_entry_read, socket_payload
from games.live.seen_marks import seen_marks
from games.live.socket_limits import CLOSE_TOO_MANY, Bucket, key_of, socket_counts
from games.live.watch import version_watch
from games.moves import answer as move_answer
from games.moves import queue as move_queue
from games.selectors import documents
from games.store import db_threads, jsontext

T = TypeVar("T")
log = logging.getLogger(__name__)


async def database(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` (database work) in the process's database threads
    (``games.store.db_threads``: as many as the connection pool holds)."""
    return await db_threads.run(fn, *args)


CLOSE_NOT_ALLOWED = 4403
CLOSE_NOT_FOUND = 4404
MAX_ID = 2**63  # ids are PostgreSQL bigints (and SQLite integers): none reaches this
MAX_FRAME = 4096


def _token_user(ticket: str, bearer: str) -> Any:
    """The user of a socket ticket (``?ticket=``) or of an ``Authorization: Bearer`` header."""

    return socket_ticket_user(ticket=ticket) if ticket else token_user(token=bearer)


def _bearer(scope: dict[str, Any]) -> str:
    """The token of an ``Authorization`` header; another scheme's value is returned whole,
    matching no token, so that handshake is refused rather than let through on a cookie
    without the Origin check (``colorado.asgi.OriginCheck``)."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            text = value.decode("latin1").strip()
            scheme, _sep, token = text.partition(" ")
            return token.strip() if scheme.lower() == "bearer" and token.strip() else text or "-"
    return ""


def _open(
    game_id: int, user: Any, ticket: str, bearer: str
) -> tuple[Any, int | None, str, dict[str, Any] | None]:
    """What a new socket needs from the database, in one job: its user (from a ticket or a
    bearer token when it came with one), the game and its seats read once, the check that
    the user may watch it, and the first document. Returns ``(user, close code or None,
    the game's title, the first frame)``. The frame carries no events: the page holds the
    table as of its own version and says so in its hello."""
    if ticket or bearer:
        user = _token_user(ticket, bearer)
        if user is None:
            return None, CLOSE_NOT_ALLOWED, "", None
    user = user if getattr(user, "is_authenticated", False) else None
    found = documents.game_with_seats(game_id)
    if found is None:
        return user, CLOSE_NOT_FOUND, "", None
    game, seats = found
    if not documents.can_watch(game=game, user=user, seats=seats):
        return user, CLOSE_NOT_ALLOWED, "", None
    return (
        user,
        None,
        game.title,
        socket_frame(documents.game_document(game=game, user=user, seats=seats), []),
    )


#: The same per-player allowance as the HTTP endpoint's, counted in the same bucket.
MOVE_THROTTLE = UserRateThrottle("1200/min", scope="moves")


class GameConsumer(AsyncWebsocketConsumer):
    game_id: int
    group: str
    user: Any
    version: int
    title: str = ""
    seat: int | None = None
    last_sent: float = 0.0  # the loop's clock when this socket last sent something
    joined = False  # a member of the game's group (False: Redis was down when it opened)
    opened = False  # accepted: the caller may watch the game
    share: str | None = None  # the socket share it counts in (games.live.socket_limits)
    _lock: asyncio.Lock | None = None
    _hellos: Bucket | None = None

    @property
    def hellos(self) -> Bucket:
        """This socket's allowance of hellos (``games.live.socket_limits``)."""
        if self._hellos is None:
            self._hellos = Bucket()
        return self._hellos

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its handler, without Channels' ``aclose_old_connections``
        around each one: that is a hop to the process's one ``sync_to_async`` thread and
        back for every frame of every socket (about a millisecond of the two cores per
        move, measured), and this consumer never touches the database on the event loop:
        its database work runs in ``games.store.db_threads``, whose every job starts with
        ``close_old_connections`` itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        finally:
            if str(message.get("type", "")).startswith("game."):
                # Channels' receive loop keeps the last message in a local variable until
                # the next one comes; a move's message carries every seat's frame, so on a
                # quiet table each socket held one move's frames for as long as the table
                # stayed quiet (~25 KB a socket, measured). Each consumer gets its own copy
                # of a group message (both layers copy it per receive), so emptying it is
                # safe.
                message.clear()

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.version = 0
        if not 0 < self.game_id < MAX_ID:  # a made-up URL: no game, and no valid group name
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = group_name(self.game_id)
        user = self.scope.get("user")
        query = parse_qs(
            self.scope.get("query_string", b"").decode("latin1"), keep_blank_values=True
        )
        ticket, bearer = (query.get("ticket") or [""])[0], _bearer(self.scope)
        if "token" in query:  # a long-lived token in a URL (and so in logs): never
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        # The group is joined before the document is read, so that no move's frame falls
        # between the two: the consumer handles its messages one at a time, and a frame
        # that comes meanwhile waits for ``connect`` to finish (it is dropped unless the
        # socket opened: ``opened``).
        await self.join_group()
        user, refused, title, payload = await database(_open, self.game_id, user, ticket, bearer)
        if refused is not None or payload is None:
            await self.close(code=refused or CLOSE_NOT_FOUND)
            return
        share = key_of(user, self.scope)
        if not socket_counts.take(share):  # the account's (or address's) sockets are all open
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.share = share
        self.user, self.title, self.opened = user, title, True
        await self.accept()
        async with self.sending:
            await self._show(payload, mark=True)
        version_watch.add(self)

    async def join_group(self) -> None:
        """Join the game's group. With Redis down that fails: the socket opens all the same
        and follows the game through the version watch, which joins it again later."""
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as exc:
            self.joined = False
            log.warning("socket of game %s could not join its group yet: %s", self.game_id, exc)
        else:
            self.joined = True

    async def disconnect(self, code: int) -> None:
        if self.share is not None:
            socket_counts.give_back(self.share)
            self.share = None
        if hasattr(self, "game_id"):
            version_watch.discard(self)
        group = getattr(self, "group", None)
        if self.channel_layer is not None and group:
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "user", None) is not None and group:
            await seen_marks.flush([(self.game_id, self.user.pk)])

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            if text_data is None or len(text_data) > MAX_FRAME:
                raise ValueError
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._error("bad_message")
            return
        if isinstance(message, dict) and message.get("type") == "action":
            await self._act(message)
            return
        if not isinstance(message, dict) or message.get("type") != "hello":
            await self._error("unknown_message")
            return
        if not self.hellos.allow():  # each hello reads and sends a whole document
            await self._error("throttled")
            return
        since = message.get("version", 0)
        if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since < 2**62:
            since = 0
        await self._send_document(since=since, mark=True)

    async def _act(self, message: dict[str, Any]) -> None:
        """A move sent over the socket: the same service and the same answer as ``POST
        /api/games/<id>/actions`` (``games.moves.answer``), sent back as ``{"type":
        "answer", "client_id", "status", "body"}`` — ``status`` and ``body`` are what the
        HTTP endpoint would answer. The move runs in a database thread; meanwhile this
        socket's other messages wait, so the answer comes before the frames that follow
        the move, and the move's own frame is not sent again to the mover."""
        client_id = message.get("client_id")
        status: int
        body: dict[str, Any]
        if self.user is not None and not MOVE_THROTTLE.allow_request(
            # The throttle reads only these three of a request.
            SimpleNamespace(auth=self.user, user=self.user, META={})  # type: ignore[arg-type]
        ):
            status, body = (
                429,
                {
                    "code": "throttled",
                    "message": _("Too many requests; slow down a little."),
                },
            )
        else:
            status, body = await move_queue.run(
                self.game_id,
                move_answer.Sent(
                    user=self.user,
                    action=message.get("action"),
                    version=message.get("version"),
                    client_id=client_id,
                    form=message.get("form"),
                    title=self.title,
                ),
            )
        text = jsontext.dumps(
            {
                "type": "answer",
                "client_id": client_id if isinstance(client_id, str) else None,
                "status": status,
                "body": body,
            }
        )
        async with self.sending:
            if status == 200:
                self.version = max(self.version, body["version"])
                self.seat = body["my_seat"]
            await self.send(text_data=text)

    async def _error(self, code: str) -> None:
        await self.send(text_data=jsontext.dumps({"type": "error", "code": code}))

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        self.last_sent = asyncio.get_running_loop().time()
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    @property
    def sending(self) -> asyncio.Lock:
        """Held while this socket reads and sends a document or passes on a frame: the
        version watch runs beside the consumer's own handlers, and an older document must
        never be sent after a newer frame."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def resync(self) -> None:
        """Called by the version watch: the game moved on and this socket heard nothing."""
        async with self.sending:
            await self._read_and_send(since=self.version)

    async def _send_document(
        self, *, since: int, mark: bool = False, refresh: bool = False
    ) -> None:
        async with self.sending:
            await self._read_and_send(since=since, mark=mark, refresh=refresh)

    async def _read_and_send(
        self, *, since: int, mark: bool = False, refresh: bool = False
    ) -> None:
        payload = await database(socket_payload, self.game_id, self.user, since)
        if payload is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if refresh:
            payload["refresh"] = True  # same version, other facts: redraw anyway
        await self._show(payload, mark=mark)

    async def _show(self, payload: dict[str, Any], *, mark: bool) -> None:
        """Send a document read for this socket. When the user holds a seat and looks at it
        (``mark``: it opened or said hello) or the seat is due, the seat has seen this
        version: no "your turn" mail is needed (``games.live.seen_marks``, written within a
        second)."""
        self.version = max(self.version, payload["version"])
        self.seat = payload["my_seat"]  # a join or a hand-over changes it
        await self.send(text_data=jsontext.dumps(payload))
        seated = self.seat is not None and self.user is not None
        if seated and (mark or self.seat in payload["to_act"]):
            seen_marks.add(self.game_id, self.user.pk, payload["version"])

    # --- group messages (a move's frames; otherwise ids and versions) ------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        if not self.opened:  # refused: the group was joined before the check
            return
        version = event.get("version")
        refresh = event.get("refresh") is True  # a change that keeps the version
        if isinstance(version, int) and version <= self.version and not refresh:
            return
        await self._send_document(since=self.version, refresh=refresh)

    async def game_frame(self, event: dict[str, Any]) -> None:
        """A move's frames: this socket sends on its own seat's (or the spectators') entry,
        never another's, and only if it follows the version the socket showed."""
        if not self.opened:
            return
        async with self.sending:
            await self._pass_on(event)

    async def _pass_on(self, event: dict[str, Any]) -> None:
        version, since = event.get("version"), event.get("since")
        if not isinstance(version, int) or version <= self.version:
            return
        frames = event.get("frames")
        text = frames.get(frame_key(self.seat)) if isinstance(frames, dict) else None
        if since != self.version or not isinstance(text, str):
            await self._read_and_send(since=self.version)  # missed one: read it all
            return
        self.version = version
        await self.send(text_data=text)
        to_act = event.get("to_act") or []
        if self.seat is not None and self.user is not None and self.seat in to_act:
            # Watching live: the seat has seen this version (no "your turn" mail needed).
            seen_marks.add(self.game_id, self.user.pk, version)

    async def game_chat(self, event: dict[str, Any]) -> None:
        message_id = event.get("message_id")
        if not self.opened or not isinstance(message_id, int):
            return
        entry = await database(chat_entry_read, self.game_id, message_id)
        if entry is not None:
            await self.send(text_data=jsontext.dumps(entry))
