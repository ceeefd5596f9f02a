"""Browser tests: headless Chromium (Debian's) against a real ASGI server.

pytest-django's ``live_server`` speaks WSGI only, so it cannot carry the WebSocket. Instead a
``uvicorn colorado.asgi:application`` subprocess serves the test database (tests use
``transactional_db`` so that their rows are committed and visible to it), with Celery tasks
run eagerly inside that server, so bot moves happen right after the move that made them due.
The server runs without REDIS_URL: the in-memory channel layer is enough because every
request and socket lives in that one process (Redis-backed fan-out across processes is
covered by tests/games/test_live.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote
from urllib.request import urlopen

import pytest

from tests.servers import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def database_url(db: dict[str, Any]) -> str:
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("browser tests need PostgreSQL (DATABASE_URL)", pytrace=False)
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = quote(db.get("HOST") or "127.0.0.1", safe="")  # a Unix socket's directory too
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.hookimpl(trylast=True)  # after pytest-django's order (by kind of database use)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run first (a stable sort; the rest keep their order). They are the
    longest (a whole La Conquista game in Chromium takes about two minutes) and came last,
    where ``titles/`` put several of them: spread over the workers at the start, they no
    longer leave one worker finishing a long game while the others have nothing to do."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a uvicorn server running the project against the test database."""
    from django.conf import settings

    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "CELERY_TASK_ALWAYS_EAGER": "1",
        # One server process holds every page and socket, so the in-memory channel layer is
        # enough; it keeps these tests independent of a busy shared Redis.
        "REDIS_URL": "",
        "CHANNEL_PREFIX": f"browser-{port}",
        "CACHE_PREFIX": f"browser-{port}",
        "DATA_DIR": str(tmp_path_factory.mktemp("asgi-data")),
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DJANGO_ENV": "local",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        # The hard bot thinks a fifth of a second a move here (eager tasks: in the request).
        "BOT_SEARCH_SECONDS": "0.2",
    }
    log = tmp_path_factory.mktemp("asgi-log") / "uvicorn.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "colorado.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            if proc.poll() is not None:
                pytest.fail(f"uvicorn exited: {log.read_text()[-2000:]}", pytrace=False)
            try:
                with urlopen(f"{base}/healthz", timeout=1):  # noqa: S310 - local URL
                    return True
            except OSError:
                return False

        try:
            wait_until(answers, timeout=60, interval=0.1, message="uvicorn answering /healthz")
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture
def new_page() -> Iterator[Callable[..., Any]]:
    """Pages in fresh browser contexts (separate cookies); script errors fail the test.

    Chromium starts at the first call. Playwright's sync API runs an event loop in this
    thread while it is open, which would break ``async_to_sync`` (the services' broadcast)
    in code the test runs before, and in later tests, so it is started late and closed at
    the end of each test. While it is open the test's own ORM calls are allowed."""
    if not Path(CHROMIUM).exists():
        pytest.fail("install Debian's chromium (apt-get install -y chromium)", pytrace=False)
    from playwright.sync_api import sync_playwright

    from .driver import CHROMIUM_ARGS

    started: dict[str, Any] = {}
    errors: list[str] = []
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")

    def make(width: int = 1280, height: int = 800, **context: Any) -> Any:
        if not started:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            started["pw"] = sync_playwright().start()
            started["browser"] = started["pw"].chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        # ``context``: more of Playwright's context options (a phone: has_touch, is_mobile).
        ctx = started["browser"].new_context(viewport={"width": width, "height": height}, **context)
        ctx.set_default_timeout(15000)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # The site's Content-Security-Policy must hold on every page (issue 41): Chromium
        # reports each thing the policy blocked on the console, and every page answer must
        # carry the policy.
        page.on("console", lambda m: _policy_violation(m, errors))
        page.on("response", lambda r: _policy_missing(r, errors))
        return page

    try:
        yield make
    finally:
        if started:
            started["browser"].close()
            started["pw"].stop()
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before
    assert not errors, f"script errors on the page: {errors}"


def _policy_violation(message: Any, errors: list[str]) -> None:
    text = str(message.text)
    if "Content Security Policy" in text or "Permissions policy" in text:
        errors.append(f"policy violation: {text}")


def _policy_missing(response: Any, errors: list[str]) -> None:
    if response.request.resource_type != "document":
        return
    headers = response.headers
    csp = headers.get("content-security-policy", "")
    if "script-src 'self'" not in csp or "permissions-policy" not in headers:
        errors.append(f"no CSP or Permissions-Policy on {response.url}")


@pytest.fixture
def player(transactional_db: None, make_user: Callable[..., Any]) -> Callable[[str], Any]:
    """Makes a person who signs in on the page: ``<name>@example.org``, verified, password
    ``pw-<name>-2026`` (rows committed, so the ASGI server sees them)."""
    from accounts.services import email_verified_set

    def make(username: str) -> Any:
        user = make_user(username, email=f"{username}@example.org", password=f"pw-{username}-2026")
        email_verified_set(user=user)  # sign-in needs a verified address (allauth, mandatory)
        return user

    return make


@pytest.fixture
def tables(player: Callable[[str], Any]) -> tuple[Any, dict[str, int]]:
    """alice and, for every title the site offers (from the registry), a two-seat table she
    shares with bob: (alice, {slug: game id})."""
    from games.tables import lifecycle
    from games.titles import web_titles

    alice, bob = player("alice"), player("bob")
    ids = {}
    for title in web_titles():
        game = lifecycle.game_create(
            creator=alice,
            title=title.slug,
            players=2,
            invite=["bob"],
            open_seats=False,
            rated=False,
        )
        lifecycle.game_join(game_id=game.pk, user=bob)
        ids[title.slug] = game.pk
    return alice, ids
