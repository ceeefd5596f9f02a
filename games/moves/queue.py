"""Moves at the same game that wait for a database thread together are made together.

A process's moves wait in its database threads' queue (``games.store.db_threads``) while the
cores are busy. Moves of one game that wait there at the same time — a table's
simultaneous bids, sent within milliseconds of each other — would each take a thread,
then wait in turn for the game's lock, and each would lock, write, commit and send every
seat a frame. Here a game's waiting moves are one job instead: the first move queues it,
the moves that come before a thread takes it up join it, and the thread makes them in one
transaction (``games.moves.answer.answers``, ``games.moves.submit``): one lock, one write, one
commit, one set of frames. Each move still gets its own answer, as if they had come one
after the other in the order they arrived.

While a game's job runs, the game's next moves wait for it in the next job (at most one
job of a game runs in a process): a thread never waits on the lock of a game this process
is already moving. That next job is made by the same thread as soon as the first ends (up
to ``IN_A_ROW`` in a row), since its moves have already waited once. A lone move is a job
of one, made as before. Nothing here outlives the process: a move that was waiting when
the process died had no answer, and its client sends it again with the same client id
(``docs/server.md``, "Moves made together").
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from games.moves import answer as move_answer
from games.store import db_threads

Answer = tuple[int, dict[str, Any]]


@dataclass
class _Job:
    sent: list[move_answer.Sent] = field(default_factory=list)
    futures: list[Future[Answer]] = field(default_factory=list)


_lock = threading.Lock()
_waiting: dict[int, _Job] = {}
_running: set[int] = set()


def submit(game_id: int, sent: move_answer.Sent) -> Future[Answer]:
    """Queue ``sent`` for the game's next job (starting one if none waits); the future
    holds its answer."""
    future: Future[Answer] = Future()
    with _lock:
        job = _waiting.get(game_id)
        start = job is None and game_id not in _running
        if job is None:
            job = _waiting[game_id] = _Job()
        job.sent.append(sent)
        job.futures.append(future)
    if start:
        _start(game_id)
    return future


def _start(game_id: int) -> None:
    db_threads.executor().submit(_run, game_id)


#: How many of a game's jobs one database thread makes in a row (``_run``) before the
#: game's next moves queue behind the other games' jobs again.
IN_A_ROW = 4


def _run(game_id: int) -> None:
    """In a database thread: the game's waiting moves, then the moves that came while they
    were made, at once (up to ``IN_A_ROW`` jobs in a row): those have already waited for
    this job, and sending them to the back of the threads' queue made them wait for every
    other game's queued job too. A move whose caller stopped waiting (its task cancelled)
    before its job began is not made, as with any job not yet started; the others can no
    longer be cancelled. Every future gets its answer or the job's error, whatever
    happens."""
    with _lock:
        job = _waiting.pop(game_id, None)
        if job is None:
            return
        _running.add(game_id)
    made, again = 0, False
    try:
        while True:
            _make(game_id, job)
            made += 1
            with _lock:  # the next job taken, or the game let go, under one lock
                job = _waiting.pop(game_id, None) if made < IN_A_ROW else None
                if job is None:
                    _running.discard(game_id)
                    again = game_id in _waiting
                    break
    except BaseException:
        with _lock:
            _running.discard(game_id)
            again = game_id in _waiting
        raise
    finally:
        if again:
            _start(game_id)


def _make(game_id: int, job: _Job) -> None:
    """One job: its moves whose callers still wait, in one ``move_answer.answers`` call, and
    each future its answer or the job's error."""
    live = [
        (sent, future)
        for sent, future in zip(job.sent, job.futures, strict=True)
        if future.set_running_or_notify_cancel()
    ]
    if not live:
        return
    try:
        answers = db_threads.job(move_answer.answers, game_id, [s for s, _f in live])
    except BaseException as exc:
        for _sent, future in live:
            future.set_exception(exc)
    else:
        for (_sent, future), answer in zip(live, answers, strict=True):
            future.set_result(answer)


async def run(game_id: int, sent: move_answer.Sent) -> Answer:
    """``sent``'s answer, from async code (the socket's consumer)."""
    return await asyncio.wrap_future(submit(game_id, sent))


def call(game_id: int, sent: move_answer.Sent) -> Answer:
    """``sent``'s answer, from a request's thread (the HTTP endpoint), which waits. Inside a
    transaction (a test wrapped in one), made alone in the caller's thread."""
    if connection.in_atomic_block:
        (only,) = move_answer.answers(game_id, [sent])
        return only
    db_threads.release()
    return submit(game_id, sent).result()
