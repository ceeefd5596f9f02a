"""The safety net of the game sockets: ``VersionWatch`` brings a socket that missed a frame
(a channel layer that lost it) up to date from the database (``games.live.consumers``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from django.conf import settings
from django.db import InterfaceError, OperationalError

from games.models import Game
from games.store import db_threads

log = logging.getLogger(__name__)


class Watched(Protocol):
    """What the watch needs of a game socket (``games.live.consumers.GameConsumer``)."""

    game_id: int
    version: int
    last_sent: float
    joined: bool

    async def join_group(self) -> None: ...

    async def resync(self) -> None: ...


def _versions(game_ids: list[int]) -> dict[int, int]:

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


# A socket that sent something this recently is not resynchronised yet: the frame of a move
# committed a moment ago may still be on its way (the database is ahead of the layer).
QUIET_SECONDS = 1.0
_WATCH_BATCH = 500


class VersionWatch:
    """The safety net for group messages the channel layer lost (an outage of Redis, a
    reconnect): every ``SOCKET_RESYNC_SECONDS`` one query reads the current version of
    every game with an open socket in this process, and each socket that shows an older
    version and has been quiet for ``QUIET_SECONDS`` reads its own document. Cost: one
    indexed query per process per period (per 500 games), nothing per socket while the
    layer works; and it needs only the database, so sockets keep following the games at
    that pace while Redis is down. A socket that opened while Redis was down joins its
    group here once Redis is back."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[Watched]] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, consumer: Watched) -> None:
        self.sockets.setdefault(consumer.game_id, set()).add(consumer)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, consumer: Watched) -> None:
        group = self.sockets.get(consumer.game_id)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[consumer.game_id]

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(settings.SOCKET_RESYNC_SECONDS)
            try:
                await self.check()
            except (InterfaceError, OperationalError) as exc:  # the database is down
                log.warning("socket version check failed: %s", exc)
            except Exception:
                log.exception("socket version check failed")

    async def check(self) -> None:
        """Bring every socket that is behind its game's version up to date."""
        for group in list(self.sockets.values()):
            for consumer in list(group):
                if not consumer.joined:
                    await consumer.join_group()
        ids = sorted(self.sockets)
        for start in range(0, len(ids), _WATCH_BATCH):
            versions = await db_threads.run(_versions, ids[start : start + _WATCH_BATCH])
            now = asyncio.get_running_loop().time()
            for game_id, version in versions.items():
                for consumer in list(self.sockets.get(game_id, ())):
                    if consumer.version < version and now - consumer.last_sent >= QUIET_SECONDS:
                        try:
                            await consumer.resync()
                        except OSError:  # its client left meanwhile (uvicorn: ClientDisconnected)
                            log.debug("socket of game %s closed before its resync", game_id)
                        except Exception:  # one broken socket must not stop the others'
                            log.exception("socket of game %s could not resync", game_id)


version_watch = VersionWatch()
