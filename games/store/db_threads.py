"""The threads that do a server process's database work for moves and sockets.

Django runs a synchronous view of an ASGI process in a thread of the request's own, and
Channels runs ``database_sync_to_async`` work on one shared thread per process; neither is
sized to what the database can take at once. Here one ``ThreadPoolExecutor`` per process,
of ``DB_THREADS`` threads, does the synchronous work of every move (socket and HTTP) and
every socket read. ``DB_THREADS`` is the size of the process's PostgreSQL connection pool
(``DATABASE_POOL_MAX_SIZE``, 10 by default): each thread can hold a connection and none
waits for one, so a process serves that many moves at once, and a move that waits on a
locked table never stops another table's move (docs/server.md, "Concurrency").

Each job starts with ``close_old_connections`` (a connection that broke or outlived its age
is dropped, as Django does around a request) and, with the pool, hands its connection back
when it is done. In embedded mode (SQLite, one file) the moves' writes take turns
(``games.store.backends.Store.writing``).

A request's thread that hands a move to the threads gives its own connection back to the
pool first (``call``): with every connection held by a waiting request thread, the database
threads could never get one.

A caller already inside a transaction (a test wrapped in one, a service calling another)
runs the job in its own thread: a transaction cannot move to another thread's connection.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, close_old_connections, connection

T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _pooled() -> bool:
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


def size() -> int:
    """The number of database threads of this process: the connection pool's size with
    PostgreSQL's pool, 4 otherwise (SQLite, or the pool turned off)."""
    from django.conf import settings

    options = settings.DATABASES["default"].get("OPTIONS")
    pool = options.get("pool") if isinstance(options, dict) else None
    if isinstance(pool, dict) and pool.get("max_size"):
        return int(pool["max_size"])
    return 4


def executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=size(), thread_name_prefix="db")
        return _executor


def job(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` as a database thread's job: old connections closed first, a broken kept
    connection tried again once, the connection back to the pool after."""
    close_old_connections()
    try:
        try:
            return fn(*args)
        except (InterfaceError, OperationalError):
            if connection.in_atomic_block:
                raise
            connection.close()  # a broken kept connection: reconnect once
            return fn(*args)
    finally:
        if _pooled():
            connection.close()  # back to the pool


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` (database work) in a database thread, from async code."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), functools.partial(job, fn, *args))


def release() -> None:
    """Before a request's thread waits for a database thread: hand its connection back to
    the pool. A request thread waiting with a connection while the database threads wait
    for one would deadlock the pool."""
    if _pooled():
        connection.close()


def call(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a database thread, from synchronous code (a request's thread): the
    caller waits. Inside a transaction, in the caller's own thread."""
    if connection.in_atomic_block:
        return fn(*args)
    release()
    return executor().submit(job, fn, *args).result()
