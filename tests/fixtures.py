"""Project-wide test setup.

Tests that need PostgreSQL or Redis carry the ``postgres`` / ``redis`` marks. Without the
service they are skipped, except under ``REQUIRE_SERVICES=1`` (CI), where they fail: a
green CI run therefore proves they ran.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from typing import Any

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def pytest_configure(config: pytest.Config) -> None:
    """The tests' own password hasher (``tests.hashers``): the same algorithm, fewer
    iterations. Only this process's: the servers a test starts keep the site's."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["tests.hashers.QuickPBKDF2PasswordHasher"]
    quiet_hypothesis_clock()


def quiet_hypothesis_clock() -> None:
    """Hypothesis's own clocks off for the whole suite: its per-example ``deadline`` and its
    ``too_slow`` health check time the machine, not the code, and failed on a loaded
    two-processor machine (tests/ops/test_test_hygiene.py: no wall-clock asserts in tests).
    Loaded here, before the test modules are imported, so each ``@settings`` builds on it."""
    from hypothesis import HealthCheck
    from hypothesis import settings as hypothesis_settings

    hypothesis_settings.register_profile(
        "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    hypothesis_settings.load_profile("suite")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the translation catalogues, as ``dev.py`` does, so a bare ``pytest`` run
    sees the same languages as ``python3 dev.py test``. Once, in the process that starts
    the run: pytest-xdist's workers start after it and would write the same files at once."""
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker
        return
    from scripts.catalogues import compile_all

    compile_all()


#: The tests that touch no database, task queue or channel layer, by place: the rules' own
#: tests. Other modules say it with ``pytestmark = pytest.mark.modeless``.
MODELESS_PLACES = (
    "tests/engine/*",
    "tests/conformance/test_rules_contract.py",
    "titles/*/tests/engine/*",
)
#: What a modeless test may not use: the database, the task queue, the channel layer, a
#: server of the site. A modeless test that asks for one is an error, not a silent skip.
STORAGE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_setup",
        "live_server",
        "client",
        "async_client",
        "admin_client",
        "real_worker",
        "in_memory_layer",
        "asgi_server",
    }
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--skip-modeless",
        action="store_true",
        help="leave out the modeless tests (no database, task queue or channel layer), which "
        "cannot differ between the services and the embedded mode: CI's embedded run",
    )


def _modeless(item: pytest.Item) -> bool:
    if item.get_closest_marker("modeless") is not None:
        return True
    place = item.nodeid.split("::")[0]
    return any(fnmatch.fnmatch(place, pattern) for pattern in MODELESS_PLACES)


#: Why a test marked modeless may not be (what storage it asks for): it fails at setup.
NOT_MODELESS = pytest.StashKey[str]()


def modeless_items(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the modeless tests (``MODELESS_PLACES`` and the ``modeless`` mark) and with
    ``--skip-modeless`` leave them out (they ran in the services run, on the same code:
    CI's embedded run need not run them again). A modeless test that asks for storage is
    kept, and fails at setup saying so (``pytest_runtest_setup``)."""
    kept, left_out = [], []
    for item in items:
        if not _modeless(item):
            kept.append(item)
            continue
        item.add_marker(pytest.mark.modeless)
        info = getattr(item, "_fixtureinfo", None)
        uses = STORAGE_FIXTURES.intersection(info.names_closure if info else ())
        if item.get_closest_marker("django_db") is not None:
            uses.add("the django_db mark")
        if uses:
            item.stash[NOT_MODELESS] = ", ".join(sorted(uses))
            kept.append(item)
        else:
            left_out.append(item)
    if config.getoption("skip_modeless") and left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With the tests spread over workers (``python3 dev.py test``: ``--dist loadgroup``),
    the tests of a module that share a module-scoped fixture (a private server, a scratch
    copy of the repository) form one ``xdist_group``: one worker runs them one after
    another and makes the fixture once, instead of once per worker."""
    modeless_items(config, items)
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        for name in info.names_closure:
            defs = info.name2fixturedefs.get(name)
            if defs and defs[-1].scope == "module":
                item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
                break


def _missing(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def redis_available() -> bool:
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def pytest_runtest_setup(item: pytest.Item) -> None:
    if NOT_MODELESS in item.stash:
        pytest.fail(
            "a modeless test may not touch the database, task queue or channel layer, and "
            f"this one uses {item.stash[NOT_MODELESS]}: drop the modeless mark or move it "
            "out of MODELESS_PLACES (tests/fixtures.py)",
            pytrace=False,
        )
    if item.get_closest_marker("postgres"):
        from django.conf import settings

        if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
            _missing("this test needs PostgreSQL: set DATABASE_URL=postgres://…")
    if item.get_closest_marker("redis") and not redis_available():
        _missing("this test needs Redis: set REDIS_URL=redis://… to a running server")


@pytest.fixture(autouse=True)
def fresh_cache(settings: Any, worker_id: str) -> None:
    """Throttling counts live in the cache: each test gets its own key prefix, so one test's
    requests cannot throttle another's. Never ``cache.clear()`` on Redis: that is FLUSHDB,
    which would also wipe the Celery queue and the channel groups that tests running at the
    same time in other workers rely on (a bot task or a socket's group membership lost
    mid-game looked like a stalled table)."""
    import uuid

    from django.core.cache import cache

    from colorado.throttling import local_counts

    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    prefix = caches["default"].get("KEY_PREFIX", "")
    caches["default"]["KEY_PREFIX"] = f"{prefix}-{worker_id}-{uuid.uuid4().hex[:12]}"
    settings.CACHES = caches
    if "locmem" in caches["default"]["BACKEND"]:
        cache.clear()  # this process's memory only
    local_counts.clear()
    layers = settings.CHANNEL_LAYERS
    if "prefix" in layers["default"].get("CONFIG", {}):
        # Channel groups are named game-<id>; ids repeat across test databases, so each
        # test worker talks on its own prefix (the live server gets the same one).
        config = {**layers["default"]["CONFIG"], "prefix": channel_prefix(worker_id)}
        settings.CHANNEL_LAYERS = {"default": {**layers["default"], "CONFIG": config}}


@pytest.fixture
def in_memory_layer(settings: Any) -> None:
    """The in-memory channel layer, as the embedded mode runs: the socket tests that talk
    to the consumers in this process (``pytest.mark.usefixtures("in_memory_layer")``)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def english_by_default() -> Iterator[None]:
    """Each test starts in the site's default language. A request served through the test
    client activates its language in the test's thread and leaves it there, so a test that
    rendered a Japanese page had the next test of the same worker render in Japanese."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


def channel_prefix(worker_id: str) -> str:
    """The channel layer prefix of a test worker (the live servers it starts share it)."""
    return f"{os.environ.get('CHANNEL_PREFIX', 'colorado')}-test-{worker_id}"


@pytest.fixture
def eager_tasks(settings: Any) -> Iterator[None]:
    """Run Celery tasks (bot moves, mails) eagerly, in the caller's thread. Autouse in the
    packages whose tests all want it (tests/games, tests/notifications)."""
    from colorado.celery import app as celery_app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def real_worker(settings: Any, tmp_path: Any, worker_id: str) -> Any:
    """A real Celery worker (threads of this process) on the Redis broker, on a queue of this
    test process's own, so two test processes never take each other's tasks."""
    from colorado.celery import app as celery_app
    from colorado.embedded import worker_and_scheduler

    settings.CELERY_TASK_ALWAYS_EAGER = False
    conf = celery_app.conf
    saved = {k: conf[k] for k in ("task_always_eager", "broker_url", "task_default_queue")}
    conf.task_always_eager = False
    conf.broker_url = settings.REDIS_URL
    conf.task_default_queue = f"test-worker-{worker_id}"
    try:
        with worker_and_scheduler(
            celery_app, schedule_filename=str(tmp_path / "beat-schedule"), concurrency=2, beat=False
        ):
            yield
    finally:
        conf.update(saved)


@pytest.fixture
def tiny_title() -> Iterator[Any]:
    """The test-only title ``tiny-duel`` (tests/tiny_title.py), registered for one test:
    its rules only, so the site shows it with the generic web side."""
    from tests.tiny_title import registered

    with registered() as rules:
        yield rules
