"""Waiting in tests without fixed sleeps: poll a condition until a deadline.

A test never sleeps a guessed number of seconds and hopes the thing it waits for is done:
on a busy two-processor machine (CI, or tests running side by side in xdist workers) a
guess is either too short (a flaky failure) or too long (a slow suite). Instead it names
what it waits for and polls it:

* ``wait_until(condition)``: until ``condition()`` is true; returns that value. Fails with
  ``message`` (and the last value) when the deadline passes.
* ``await async_wait_until(condition)``: the same in a coroutine (``condition`` may be a
  coroutine function), so the event loop keeps running while it waits.
* ``stays(condition, seconds)``: the opposite, for a test whose point is that something
  *keeps* holding for a while (a socket stays open, a mail is not sent twice): polls it over
  the whole span and fails as soon as it stops holding.

These are the only places under ``tests/`` that call ``time.sleep`` or ``asyncio.sleep``
(``tests/ops/test_test_hygiene.py`` checks it).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: The default deadline: long enough for a loaded machine, short enough to fail in time.
TIMEOUT = 30.0
#: The default pause between two looks.
INTERVAL = 0.05


class WaitTimeout(AssertionError):
    """The condition did not hold before the deadline."""


def _describe(message: str | Callable[[], str], last: object, timeout: float) -> str:
    text = message() if callable(message) else message
    return f"not within {timeout:g} s: {text or 'the condition'} (last value: {last!r})"


def wait_until(
    condition: Callable[[], T],
    *,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    message: str | Callable[[], str] = "",
) -> T:
    """Poll ``condition()`` until it returns a true value, and return that value. Raises
    ``WaitTimeout`` (an ``AssertionError``) once ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        last = condition()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise WaitTimeout(_describe(message, last, timeout))
        time.sleep(interval)


async def async_wait_until(
    condition: Callable[[], T] | Callable[[], Awaitable[T]],
    *,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    message: str | Callable[[], str] = "",
) -> T:
    """``wait_until`` for coroutines: ``condition`` may be plain or a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        last = condition()
        if inspect.isawaitable(last):
            last = await last
        if last:
            return last  # type: ignore[return-value]  # awaited above when it was awaitable
        if time.monotonic() >= deadline:
            raise WaitTimeout(_describe(message, last, timeout))
        await asyncio.sleep(interval)


def stays(
    condition: Callable[[], object],
    seconds: float,
    *,
    interval: float = 0.1,
    message: str | Callable[[], str] = "",
) -> None:
    """Check that ``condition()`` holds at every look for ``seconds`` seconds: fails at the
    first look where it does not."""
    until = time.monotonic() + seconds
    while True:
        last = condition()
        if not last:
            text = message() if callable(message) else message
            raise AssertionError(f"stopped holding: {text or 'the condition'} ({last!r})")
        if time.monotonic() >= until:
            return
        time.sleep(interval)


async def async_stays(
    condition: Callable[[], object] | Callable[[], Awaitable[object]],
    seconds: float,
    *,
    interval: float = 0.1,
    message: str | Callable[[], str] = "",
) -> None:
    """``stays`` for coroutines."""
    until = time.monotonic() + seconds
    while True:
        last = condition()
        if inspect.isawaitable(last):
            last = await last
        if not last:
            text = message() if callable(message) else message
            raise AssertionError(f"stopped holding: {text or 'the condition'} ({last!r})")
        if time.monotonic() >= until:
            return
        await asyncio.sleep(interval)
