"""``colorado.asgi_threads``: a request's synchronous code runs in a thread of its own for
the whole request, taken from a pool of idle ones instead of started for each request."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_started

from colorado.asgi_threads import PooledThreadsASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


def scope(path: str = "/healthz") -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }


async def get(app: PooledThreadsASGIHandler) -> int:
    talk = ApplicationCommunicator(app, scope())
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await talk.receive_output(10)
    while (await talk.receive_output(10)).get("more_body"):
        pass
    await talk.wait(10)
    return int(start["status"])


@pytest.fixture
def threads_seen() -> Any:
    """The name of the thread each request's ``request_started`` receivers ran in (a
    synchronous receiver runs in the request's own thread), and a barrier there: with one
    set, each request waits until as many requests as it counts are inside at once."""
    seen: list[str] = []
    gate: dict[str, threading.Barrier | None] = {"barrier": None}

    def record(**_: Any) -> None:
        seen.append(threading.current_thread().name)
        if (barrier := gate["barrier"]) is not None:
            barrier.wait()  # raises BrokenBarrierError (a 500) if they never meet

    request_started.connect(record, dispatch_uid="test-asgi-threads")
    yield seen, gate
    request_started.disconnect(dispatch_uid="test-asgi-threads")


def test_requests_one_after_another_reuse_one_thread(threads_seen: Any) -> None:
    seen, _ = threads_seen
    app = PooledThreadsASGIHandler()

    async def three() -> list[int]:
        return [await get(app) for _ in range(3)]

    assert asyncio.run(three()) == [200, 200, 200]
    # Django's own handler starts a new executor (named anew) for every request.
    assert len(seen) == 3
    assert len(set(seen)) == 1, seen


def test_requests_at_once_each_have_their_own_thread(threads_seen: Any) -> None:
    seen, gate = threads_seen
    # The four requests meet inside the view's start: one after another, the first would
    # wait in vain (the barrier breaks after its timeout and the requests answer 500).
    gate["barrier"] = threading.Barrier(4, timeout=8)
    app = PooledThreadsASGIHandler()

    async def together() -> list[int]:
        return list(await asyncio.gather(*(get(app) for _ in range(4))))

    assert asyncio.run(together()) == [200] * 4
    assert len(set(seen)) == 4, seen
