"""The load's client side, for ``api_load.py`` and the other benches: a keep-alive HTTP
client (``Http``), the figures (``Stats``, ``pct``), the players and their tables
(``Player``, ``open_table``, ``table``), the bench users (``make_users``) and the client
processes' garbage-collector policy (``quiet_collector``).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import h11
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]

#: The longest a request, a move's answer or a socket's opening may take before the bench
#: gives up on it (an error, not a figure): a bench never waits without a deadline.
ANSWER_SECONDS = 60.0


async def until(done: Any, seconds: float, what: str) -> None:
    """Poll ``done()`` every 0.2 s until it is true; past ``seconds``, ``TimeoutError``
    saying ``what`` was awaited."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up after {seconds:.0f} s waiting for {what}")
        await asyncio.sleep(0.2)


# --- a small keep-alive HTTP/1.1 client (h11 comes with uvicorn) --------------------------


class Http:
    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.conn = h11.Connection(h11.CLIENT)

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.conn = h11.Connection(h11.CLIENT)

    def close(self) -> None:
        """Close the keep-alive connection (the next request opens another)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The answer's status and JSON body; a connection that breaks is opened again
        once; no answer within ``ANSWER_SECONDS``: ``TimeoutError``."""
        for attempt in range(2):
            try:
                return await asyncio.wait_for(self._request(method, path, body), ANSWER_SECONDS)
            except (ConnectionError, h11.RemoteProtocolError, asyncio.IncompleteReadError):
                self.writer = None
                if attempt:
                    raise
            except TimeoutError:
                self.close()
                raise TimeoutError(
                    f"no answer to {method} {path} in {ANSWER_SECONDS:.0f} s"
                ) from None
        raise AssertionError("unreachable")

    async def _request(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if self.writer is None or self.conn.our_state is not h11.IDLE:
            await self._connect()
        assert self.reader is not None
        assert self.writer is not None
        data = orjson.dumps(body) if body is not None else b""
        headers = [
            ("Host", f"{self.host}:{self.port}"),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(data))),
        ]
        if self.token:
            headers.append(("Authorization", f"Bearer {self.token}"))
        out = self.conn.send(h11.Request(method=method, target=path, headers=headers))
        out += self.conn.send(h11.Data(data=data)) if data else b""
        out += self.conn.send(h11.EndOfMessage())
        self.writer.write(out)
        status, chunks = 0, []
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                raw = await self.reader.read(65536)
                self.conn.receive_data(raw)
                if not raw:
                    raise ConnectionError("server closed the connection")
                continue
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
        else:
            self.writer.close()
            self.writer = None
        raw_body = b"".join(chunks)
        try:
            return status, orjson.loads(raw_body) if raw_body else None
        except ValueError:
            return status, {"code": f"non_json_{status}", "body": raw_body[:200].decode()}


# --- statistics ---------------------------------------------------------------------------


@dataclass
class Stats:
    post_latency: list[float] = field(default_factory=list)
    post_started: list[float] = field(default_factory=list)  # each answered move's send time
    socket_latency: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, version)
    mover: dict[tuple[int, int], int] = field(default_factory=dict)
    idle_latency: list[float] = field(default_factory=list)
    sockets_per_worker: list[int] = field(default_factory=list)
    idle_send_latency: list[float] = field(default_factory=list)
    idle_moves: int = 0
    idle_open: int = 0
    idle_peak: int = 0
    idle_opened: int = 0  # idle sockets that opened, whether still open or not
    idle_failed: int = 0  # idle sockets that did not open
    idle_closed: int = 0  # idle sockets the server closed while the bench held them
    rss_during: list[int] = field(default_factory=list)
    idle_rss_during: list[int] = field(default_factory=list)
    idle_rss_before: int = 0
    idle_rss_rest: int = 0
    idle_cpu_start: float = 0.0
    idle_cpu_end: float = 0.0
    client_cpu_start: float = 0.0
    client_lag: list[float] = field(default_factory=list)
    client_cpu_end: float = 0.0
    cpu_start: float = 0.0
    cpu_end: float = 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


# --- players ------------------------------------------------------------------------------


class Player:
    def __init__(
        self, index: int, token: str, username: str, base: str, ws_base: str, stats: Stats
    ) -> None:
        self.index = index
        self.token = token
        self.username = username
        self.base = base
        self.ws_base = ws_base
        self.http = Http(base, token)
        self.stats = stats
        self.rng = random.Random(index)
        self.sent = 0

    async def play(self, game_id: int, deadline: float, via: str = "socket") -> None:
        ws_url = self.ws_base + f"/ws/games/{game_id}/"  # the token in a header, not the URL
        auth = {"Authorization": f"Bearer {self.token}"}
        latest: dict[str, Any] = {"version": -1}
        wake = asyncio.Event()
        acted_at = -1
        answers: dict[str, asyncio.Future[tuple[int, Any]]] = {}
        async with websockets.connect(
            ws_url, additional_headers=auth, max_size=2**24, open_timeout=ANSWER_SECONDS
        ) as ws:

            async def reader() -> None:
                try:
                    await read(ws)
                finally:  # the socket closed: no answer will come to the moves in flight
                    for waiting in answers.values():
                        if not waiting.done():
                            waiting.set_exception(ConnectionError("the game socket closed"))

            async def read(ws: Any) -> None:
                async for message in ws:
                    now = time.perf_counter()
                    frame = orjson.loads(message)
                    if frame.get("type") == "answer":
                        waiting = answers.pop(frame.get("client_id"), None)
                        if waiting is not None and not waiting.done():
                            waiting.set_result((frame["status"], frame["body"]))
                        continue
                    if frame.get("type") != "game":
                        continue
                    key = (game_id, frame["version"])
                    sent = self.stats.sent_at.get(key)
                    if sent is not None and self.stats.mover.get(key) != self.index:
                        self.stats.socket_latency.append(now - sent)
                    if frame["version"] > latest["version"]:
                        latest.clear()
                        latest.update(frame)
                        wake.set()

            task = asyncio.create_task(reader())
            try:
                while time.perf_counter() < deadline:
                    wake.clear()
                    if latest.get("status") not in (None, "running"):
                        break
                    doc = dict(latest)
                    mine = doc.get("my_seat")
                    if (
                        doc.get("version", -1) > acted_at
                        and mine in doc.get("to_act", [])
                        and doc.get("legal_actions")
                    ):
                        action = self.rng.choice(doc["legal_actions"])
                        version = doc["version"]
                        key = (game_id, version + 1)
                        start = time.perf_counter()
                        self.stats.sent_at.setdefault(key, start)
                        self.stats.mover.setdefault(key, self.index)
                        if via == "http":
                            status, body = await self.http.request(
                                "POST",
                                f"/api/games/{game_id}/actions",
                                {"action": action, "version": version},
                            )
                        else:
                            self.sent += 1
                            client_id = f"b{self.index}:{self.sent}"
                            answer = answers[client_id] = asyncio.get_running_loop().create_future()
                            await ws.send(
                                orjson.dumps(
                                    {
                                        "type": "action",
                                        "action": action,
                                        "version": version,
                                        "client_id": client_id,
                                    }
                                ).decode()  # a text frame, as the page sends
                            )
                            status, body = await asyncio.wait_for(answer, ANSWER_SECONDS)
                        self.stats.post_latency.append(time.perf_counter() - start)
                        self.stats.post_started.append(start)
                        acted_at = version
                        if status == 200:
                            self.stats.accepted += 1
                            if body["version"] > latest["version"]:
                                latest.clear()
                                latest.update(body)
                            continue
                        code = (body or {}).get("code", str(status))
                        self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
                        continue
                    try:
                        await asyncio.wait_for(
                            wake.wait(), timeout=max(0.01, deadline - time.perf_counter())
                        )
                    except TimeoutError:
                        break
            finally:
                task.cancel()


#: The title the load plays, named: the server's targets were set on it (issue 17), and the
#: site's default title is a setting whose value changed with the list of titles (at
#: ``4d198a5``, before issue 42's reshape, it was Colorado (2023), the first by name).
GAME = "colorado-county"


async def open_table(players: list[Player], size: int) -> int:
    host, guests = players[0], players[1:]
    status, doc = await host.http.request(
        "POST",
        "/api/games",
        {
            "game": GAME,
            "players": size,
            "invite": [p.username for p in guests],
            "open_seats": False,
            "clock": "fast",
        },
    )
    if status != 201:
        raise RuntimeError(f"could not open a table: {status} {doc}")
    for guest in guests:
        status, _ = await guest.http.request("POST", f"/api/games/{doc['id']}/join")
        if status != 200:
            raise RuntimeError(f"could not join: {status}")
    return int(doc["id"])


async def table(
    players: list[Player], size: int, deadline: float, stats: Stats, via: str, first: int
) -> None:
    """Play the table's games, the first one already opened, until the deadline."""
    game_id: int | None = first
    while time.perf_counter() < deadline:
        if game_id is None:
            game_id = await open_table(players, size)
        await asyncio.gather(*(p.play(game_id, deadline, via) for p in players))
        game_id = None
        if time.perf_counter() < deadline:
            stats.games_finished += 1


# --- set-up -------------------------------------------------------------------------------


def make_users(count: int, prefix: str = "bench-") -> list[tuple[str, str]]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from accounts.models import User
    from accounts.services import token_create

    out = []
    for i in range(count):
        user, _ = User.objects.get_or_create(username=f"{prefix}{i}")
        out.append((user.username, token_create(user=user, name="bench")))
    return out


def quiet_collector() -> None:
    """The web processes' garbage-collector policy in the bench's own client processes too
    (``colorado.gcpolicy``): a full collection over the client's objects stops its loop,
    and every latency it measures with it."""
    sys.path.insert(0, str(ROOT))
    from colorado import gcpolicy

    gcpolicy.tune()


def hold_collector(mode: str) -> None:
    """At the start of the timed load, in the bench's client processes (``--client-gc``):
    with ``hold``, what the client holds is frozen out of the collector's passes and the
    collector stops until the load ends (``release_collector``). The client only plays and
    timestamps; a collector pass in it stops its loop, and the frames that arrive meanwhile
    were counted as the server's latency: passes of 13-17 ms of CPU, 50-80 ms on the loaded
    cores, were the idle sockets' slowest frames (docs/benchmarks/history.md, "Ninth pass"). With
    ``policy`` the client keeps the web processes' policy (``quiet_collector``)."""
    if mode == "hold":
        gc.collect()
        gc.freeze()
        gc.disable()


def release_collector() -> None:
    gc.enable()
