"""Plays Colorado County through the game page the way a person would: clicking lit cells,
ticking cowboys, choosing cards. Used by the browser tests and the screenshot script.

Also the browser tests' ways of waiting (``wait_js``, ``page_wait_until``, ``page_stays``,
``play_until_over``): with ``tests/waiting.py`` the only places of the tests that pause."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.waiting import WaitTimeout

T = TypeVar("T")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@dataclass
class Tally:
    flags: int = 0
    bids: int = 0
    claims: int = 0
    rotated_claims: int = 0
    sales: int = 0
    sale_answers: int = 0
    actions: list[str] = field(default_factory=list)


def wait_js(page: Page, script: str, arg: object = None, timeout: float = 15000) -> object:
    """Wait until ``script`` (a JavaScript expression, or a function of ``arg``) is truthy
    on ``page``, polled from here with ``page.evaluate``. Playwright's own
    ``wait_for_function`` builds its predicate with ``new Function`` inside the page, which
    the site's Content-Security-Policy (no ``'unsafe-eval'``) refuses once it has to poll;
    ``evaluate`` goes through the browser's debugging protocol, which the policy does not
    govern, so the tests keep the policy on."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(script, arg) if arg is not None else page.evaluate(script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"not true within {timeout:.0f} ms: {script[:80]}")
        page.wait_for_timeout(50)


def page_wait_until(
    page: Page,
    condition: Callable[[], T],
    *,
    timeout: float = 15.0,
    interval: float = 0.05,
    message: str | Callable[[], str] = "",
) -> T:
    """``tests.waiting.wait_until`` for a test that drives a page: between two looks at
    ``condition()`` the pause is the page's own (``wait_for_timeout``), so Playwright keeps
    handling the page's events (dialogs, requests, script errors) meanwhile. ``timeout`` and
    ``interval`` in seconds."""
    deadline = time.monotonic() + timeout
    while True:
        last = condition()
        if last:
            return last
        if time.monotonic() >= deadline:
            text = message() if callable(message) else message
            raise WaitTimeout(
                f"not within {timeout:g} s: {text or 'the condition'} (last value: {last!r})"
            )
        page.wait_for_timeout(interval * 1000)


def page_stays(page: Page, condition: Callable[[], object], seconds: float) -> None:
    """``tests.waiting.stays`` for a page: ``condition()`` holds at every look for
    ``seconds`` (a double click sends no second move, …)."""
    until = time.monotonic() + seconds
    while True:
        assert condition(), "stopped holding"
        if time.monotonic() >= until:
            return
        page.wait_for_timeout(100)


def play_until_over(
    page: Page, play: Callable[[], bool], *, stall: float = 60.0, max_moves: int = 2000
) -> int:
    """Call ``play()`` (one move through the page if it offers one, returning whether it
    did) until the game is over; returns the number of calls. Fails when the page's version
    has not changed for ``stall`` seconds (the game stopped moving) or after ``max_moves``."""
    calls, last, progressed = 0, "", time.monotonic()
    while not is_over(page):
        version = act_version(page)
        if version != last:
            last, progressed = version, time.monotonic()
        if time.monotonic() - progressed > stall:
            raise WaitTimeout(f"the page showed no new version for {stall:g} s")
        if not play():
            # Nothing to do yet: a bot is thinking (its move comes over the socket), or the
            # panel is being refreshed. Look again shortly.
            page.wait_for_timeout(250)
        calls += 1
        assert calls < max_moves, "the game did not end"
    return calls


def act_version(page: Page) -> str:
    return page.eval_on_selector(".act", "el => el.dataset.version")


def wait_for_change(page: Page, before: str, timeout: float = 30000) -> None:
    """Wait until the page shows a newer version than ``before`` and has caught up."""
    wait_js(
        page,
        "v => { const a = document.querySelector('.act');"
        " if (document.querySelector('.final-scores')) return true;"
        " return a && a.dataset.version !== v && !window.GameTable.busy(); }",
        arg=before,
        timeout=timeout,
    )


def is_over(page: Page) -> bool:
    return page.locator(".final-scores").count() > 0


def sideways_spill(page: Page) -> tuple[int, list[str]]:
    """How many pixels the page scrolls sideways, and the first elements past the window's
    right edge (outside any scrolling box), each as its tag, class, right edge and text."""
    overflow = int(
        page.evaluate(
            "document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
        )
    )
    wide: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
            .filter(e => { for (let a = e.parentElement; a; a = a.parentElement) {
              const o = getComputedStyle(a).overflowX;
              if (o === 'auto' || o === 'scroll' || o === 'hidden') return false; }
              return true; })
            .slice(0, 5)
            .map(e => `${e.tagName}.${e.className.baseVal ?? e.className} ` +
              `${Math.round(e.getBoundingClientRect().right)}px ` +
              e.textContent.trim().slice(0, 50))"""
    )
    return overflow, wide


def sign_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_login", username)  # allauth: username or e-mail
    page.fill("#id_password", password)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base}/")


def play_one(page: Page, tally: Tally, *, sell: bool = True) -> bool:
    """Make one move if the page offers one; return whether a move was made."""
    before = act_version(page)
    # Sale prompts first: the rest of the game waits for them.
    # An answered prompt (data-answered) only offers to change the answer: left as it is.
    if page.locator("form.prompt:not([data-answered]) button[value=no]").count():
        # Say yes once so that a sale is bought at least once, else no.
        choice = "yes" if tally.sale_answers == 0 else "no"
        page.click(f"form.prompt button[value={choice}]")
        tally.sale_answers += 1
        tally.actions.append(f"sale_interest {choice}")
    elif page.locator("form.prompt input[name=cowboy]").count():
        page.locator("form.prompt .chip").first.click()
        page.click("form.prompt button[type=submit]")
        tally.actions.append("sale_pay")
    elif page.locator("form.prompt:not([data-answered]) input[name=cowboys]").count():
        page.locator("form.prompt .chip").first.click()
        page.click("form.prompt button[type=submit]")
        tally.actions.append("sale_bid")
    elif sell and tally.sales == 0 and tally.claims >= 2 and page.locator("#sell-box").count():
        page.click("#sell-box summary")
        page.once("dialog", lambda d: d.accept())
        page.locator("#board .cell.target").first.click()
        tally.sales += 1
        tally.actions.append("sell")
    elif page.locator("#flag-form").count():
        page.once("dialog", lambda d: d.accept())  # a flag asks first, as a sale does
        page.locator("#board .cell.target").first.click()
        tally.flags += 1
        tally.actions.append("flag")
    elif page.locator("#claim-form").count():
        page.locator("#claim-form .card-choice").first.click()
        step = page.locator("#board .cell.target:not(.pick-second)")
        if step.count() and not page.locator("#board .cell.selected").count():
            step.first.click()
        seconds = page.locator("#board .cell.target.pick-second")
        if seconds.count():
            # Prefer a turned placement: not the first listed rotation when there is a choice.
            (seconds.nth(1) if seconds.count() > 1 else seconds.first).click()
            if seconds.count() >= 1:
                tally.rotated_claims += 1
        page.click("#claim-submit")
        tally.claims += 1
        tally.actions.append("claim")
    elif (
        page.locator("#bid-form").count()
        and page.locator("#bid-form .badge, #bid-form p.muted").count() == 0
    ):
        chips = page.locator("#bid-form .chip")
        for i in range(min(2, chips.count())):
            chips.nth(i).click()
        page.click("#bid-submit")
        tally.bids += 1
        tally.actions.append("bid")
    else:
        return False
    try:
        wait_for_change(page, before, timeout=10000)
    except PlaywrightTimeout:
        # The panel was swapped under the click (a live update landed at that moment), so
        # the move was not sent: the caller looks at the page again. A real stall is caught
        # by the caller's guard on the game's progress.
        tally.actions.append("(retry)")
    return True
