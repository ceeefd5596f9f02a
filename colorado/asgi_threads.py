"""Django's ASGI handler, with each request's thread taken from a pool instead of started.

Under ASGI, Django runs a request's synchronous code (its signals, synchronous middleware
and views) in a thread of the request's own: ``ASGIHandler`` enters a fresh
``asgiref.sync.ThreadSensitiveContext`` per request, whose executor starts a new thread on
the request's first synchronous call and stops it at the end. A profile of a server taking
moves over HTTP put about 9 % of its interpreter time in starting and stopping those
threads (``Thread.start``, the executor's shutdown), once per request.

Here each request still gets a thread of its own for its whole length — one request's
synchronous code never shares a thread with another running request's, as before — but the
single-thread executor comes from a pool of idle ones and goes back to it when the request
ends, as the threads of a WSGI server serve one request after another. asgiref supports this
directly (``ThreadSensitiveContext(executor=...)``: the caller owns the executor). An
executor whose request failed or was cancelled may still be busy with that request's last
synchronous call, so it is shut down instead of reused; at most ``MAX_IDLE`` wait idle.
(Django itself ends a request whose client went away without waiting for a synchronous
view that is still running, which no thread can be made to stop; an executor given back
then finishes that call before the next request's first one, as a WSGI server's thread
would.)
"""

from __future__ import annotations

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

#: Idle request threads kept for the next requests (each one ~8 MB of address space,
#: mostly never touched).
MAX_IDLE = 64


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()
        self._numbers = itertools.count()

    def _take(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return ThreadPoolExecutor(
            max_workers=1, thread_name_prefix=f"request-{next(self._numbers)}"
        )

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < MAX_IDLE:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # Django's own refusal
            return
        executor = self._take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        except BaseException:
            executor.shutdown(wait=False)  # it may still run the request's last call
            raise
        self._give_back(executor)


def application() -> PooledThreadsASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` does, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsASGIHandler()
