"""Settings come from the environment and fail loudly, naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.core.exceptions import ImproperlyConfigured

from colorado import env
from tests.games.outage import private_postgres, private_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (
        "FLAG",
        "NUMBER",
        "DATABASE_URL",
        "REDIS_URL",
        "EMAIL_URL",
        "SITE_URL",
        "SECRET_KEY",
        "DATABASE_POOL_MAX_SIZE",
    ):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("yes", True), ("off", False), ("0", False)]
)
def test_bool_words(clean_env: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    clean_env.setenv("FLAG", raw)
    assert env.env_bool("FLAG", not expected) is expected


def test_bad_bool_names_the_variable(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match=r"FLAG='maybe' is not a boolean"):
        env.env_bool("FLAG", False)


def test_int_bounds_and_garbage(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("NUMBER", "eighty")
    with pytest.raises(ImproperlyConfigured, match="NUMBER='eighty' is not a whole number"):
        env.env_int("NUMBER", 1)
    clean_env.setenv("NUMBER", "70000")
    with pytest.raises(ImproperlyConfigured, match="maximum is 65535"):
        env.env_int("NUMBER", 1, maximum=65535)
    clean_env.setenv("NUMBER", "8080")
    assert env.env_int("NUMBER", 1, maximum=65535) == 8080


def test_database_url_unset_means_local_sqlite(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = env.database_config("DATABASE_URL", tmp_path / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "db.sqlite3")
    # Two simultaneous moves must queue for the write lock, not fail with "database is
    # locked" when both try to upgrade a read lock (seen with simultaneous bids).
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"  # type: ignore[index]


@pytest.mark.parametrize(
    ("url", "where"),
    [
        ("postgres://alice:s3cret@db.example:6543/colorado", ("db.example", 6543, "alice")),
        # PostgreSQL on the same machine: its Unix socket's directory, percent-encoded, as
        # the host (docs/operations.md, "PostgreSQL").
        (
            "postgres://alice@%2Fvar%2Frun%2Fpostgresql/colorado",
            ("/var/run/postgresql", "", "alice"),
        ),
    ],
)
def test_database_url_postgres_is_parsed(
    clean_env: pytest.MonkeyPatch, tmp_path: Path, url: str, where: tuple[str, object, str]
) -> None:
    clean_env.setenv("DATABASE_URL", url)
    config = env.database_config("DATABASE_URL", tmp_path / "x")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["USER"]) == where
    assert config["NAME"] == "colorado"
    # Every process keeps a pool of connections (ASGI requests each run in a new thread).
    assert config["OPTIONS"]["pool"]["max_size"] == 10  # type: ignore[index]


@pytest.mark.parametrize(
    ("redis_url", "broker_url"),
    [
        ("redis://cache.example:6379/2", "redis://cache.example:6379/2"),
        (
            "unix:///run/redis/redis.sock?db=3",
            "redis+socket:///run/redis/redis.sock?virtual_host=3",
        ),
        ("unix:///run/redis/redis.sock", "redis+socket:///run/redis/redis.sock?virtual_host=0"),
        (
            "unix://:s3cret@/run/redis.sock?db=1",
            "redis+socket://:s3cret@/run/redis.sock?virtual_host=1",
        ),
    ],
)
def test_celery_reads_a_redis_unix_socket_in_kombus_words(redis_url: str, broker_url: str) -> None:
    assert env.celery_broker_url(redis_url) == broker_url


def test_database_pool_size_comes_from_the_environment(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_env.setenv("DATABASE_URL", "postgres://alice@db.example/colorado")
    clean_env.setenv("DATABASE_POOL_MAX_SIZE", "0")
    assert "pool" not in env.database_config("DATABASE_URL", tmp_path / "x").get("OPTIONS", {})  # type: ignore[operator]
    clean_env.setenv("DATABASE_POOL_MAX_SIZE", "many")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_MAX_SIZE"):
        env.database_config("DATABASE_URL", tmp_path / "x")


def test_postgres_connections_plan_prepared_statements_once_keeping_the_operators_options(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_env.setenv("DATABASE_URL", "postgres://u@db.example/colorado")
    config = env.database_config("DATABASE_URL", tmp_path / "x")
    assert config["OPTIONS"]["options"] == "-c plan_cache_mode=force_generic_plan"  # type: ignore[index]
    clean_env.setenv(
        "DATABASE_URL", "postgres://u@db.example/colorado?options=-c%20statement_timeout%3D5000"
    )
    config = env.database_config("DATABASE_URL", tmp_path / "x")
    assert (
        config["OPTIONS"]["options"]  # type: ignore[index]
        == "-c statement_timeout=5000 -c plan_cache_mode=force_generic_plan"
    )
    clean_env.setenv(
        "DATABASE_URL", "postgres://u@db.example/colorado?options=-c%20plan_cache_mode%3Dauto"
    )
    config = env.database_config("DATABASE_URL", tmp_path / "x")
    assert config["OPTIONS"]["options"] == "-c plan_cache_mode=auto"  # type: ignore[index]


def test_a_sqlite_url_is_the_embedded_database_with_its_test_file_and_write_lock(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_env.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/site.sqlite3")
    config = env.database_config("DATABASE_URL", tmp_path / "unused.sqlite3")
    assert config["NAME"] == str(tmp_path / "site.sqlite3")
    # As without DATABASE_URL: simultaneous moves queue for the write lock, and the tests
    # use a file beside the site's, not Django's shared-cache in-memory database.
    assert config["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    assert config["TEST"] == {"NAME": str(tmp_path / "test-site.sqlite3")}


@pytest.mark.parametrize(
    "raw",
    # A SQLite URL without a file: the site's data in memory, gone at the next start.
    ["mysql://x@y/z", "not a url", "postgres://host", "sqlite://", "sqlite:///:memory:"],
)
def test_bad_database_url_is_refused(
    clean_env: pytest.MonkeyPatch, tmp_path: Path, raw: str
) -> None:
    clean_env.setenv("DATABASE_URL", raw)
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env.database_config("DATABASE_URL", tmp_path / "x")


def test_redis_url_must_be_redis(clean_env: pytest.MonkeyPatch) -> None:
    assert env.redis_url("REDIS_URL") is None
    clean_env.setenv("REDIS_URL", "http://127.0.0.1:6379")
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must be a redis://"):
        env.redis_url("REDIS_URL")
    clean_env.setenv("REDIS_URL", "redis://127.0.0.1:6379/1")
    assert env.redis_url("REDIS_URL") == "redis://127.0.0.1:6379/1"


def test_email_urls(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert env.email_config("EMAIL_URL", "console:", tmp_path).backend.endswith(
        "console.EmailBackend"
    )
    clean_env.setenv("EMAIL_URL", "smtp+tls://mailer:p%40ss@mail.example:2525")
    config = env.email_config("EMAIL_URL", "console:", tmp_path)
    assert config.backend.endswith("smtp.EmailBackend")
    assert (config.host, config.port, config.user, config.password, config.use_tls) == (
        "mail.example",
        2525,
        "mailer",
        "p@ss",
        True,
    )
    clean_env.setenv("EMAIL_URL", "smtp://localhost:1025")
    assert env.email_config("EMAIL_URL", "console:", tmp_path).port == 1025
    clean_env.setenv("EMAIL_URL", "file:")
    assert env.email_config("EMAIL_URL", "console:", tmp_path).file_path == str(tmp_path / "mail")
    clean_env.setenv("EMAIL_URL", "pigeon://coop")
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL='pigeon://coop' is not understood"):
        env.email_config("EMAIL_URL", "console:", tmp_path)
    clean_env.setenv("EMAIL_URL", "smtp://mail.example:port")
    with pytest.raises(ImproperlyConfigured, match="port that is not a number"):
        env.email_config("EMAIL_URL", "console:", tmp_path)


def test_site_url_must_be_absolute(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("SITE_URL", "example.org")
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        env.site_url("SITE_URL", "http://127.0.0.1:8000")
    clean_env.setenv("SITE_URL", "https://play.example.org/")
    assert env.site_url("SITE_URL", "x") == "https://play.example.org"


def test_secret_key_generated_once_locally(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    first = env.secret_key("SECRET_KEY", production=False, data_dir=tmp_path)
    assert len(first) >= 50
    assert env.secret_key("SECRET_KEY", production=False, data_dir=tmp_path) == first


def test_secret_key_required_and_strong_in_production(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        env.secret_key("SECRET_KEY", production=True, data_dir=tmp_path)
    clean_env.setenv("SECRET_KEY", "short")
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        env.secret_key("SECRET_KEY", production=True, data_dir=tmp_path)


def _manage(
    args: list[str], extra_env: dict[str, str], tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v for k, v in os.environ.items() if k not in {"DJANGO_ENV", "DEBUG", "SECRET_KEY"}
    }
    environ.update({"DATA_DIR": str(tmp_path), **extra_env})
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=environ,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_bad_value_stops_the_site_with_a_clear_message(tmp_path: Path) -> None:
    result = _manage(["check"], {"DEBUG": "sometimes"}, tmp_path)
    assert result.returncode != 0
    assert "DEBUG='sometimes' is not a boolean" in result.stderr


PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "x7Gq2-vN9pLw4Rt8Zc1Ks6Hd3Fb0Ym5Ej2Ua7Io9Py4Tr1We8Qs3Xd6Cv0Bn5Mk",
    "SITE_URL": "https://play.example.org",
}


def test_production_mode_check_deploy_is_clean(tmp_path: Path) -> None:
    result = _manage(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION_ENV, tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_production_refuses_debug(tmp_path: Path) -> None:
    result = _manage(["check"], {**PRODUCTION_ENV, "DEBUG": "1"}, tmp_path)
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_production_needs_secret_key(tmp_path: Path) -> None:
    environ = dict(PRODUCTION_ENV)
    del environ["SECRET_KEY"]
    result = _manage(["check"], environ, tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_request_threads_share_one_redis_pool_for_the_cache() -> None:
    """Each ASGI request runs in a new thread with its own cache object; they must not each
    open a Redis connection (the API throttles read the cache on every call)."""
    import threading

    from colorado.cache import SharedConnectionPool

    pools: list[object] = []

    def grab() -> None:
        pools.append(SharedConnectionPool.from_url("redis://127.0.0.1:6379/9", socket_timeout=5))

    threads = [threading.Thread(target=grab) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(p) for p in pools}) == 1
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/8") is not pools[0]


# The site over Unix sockets (docs/operations.md): what its own PostgreSQL connection reports
# and the outage probe's fresh one; a task queued (the broker), a cache entry and a
# channel-layer message over Redis's.
POSTGRES_PROBE = """
from django.db import connection
from colorado.outage import database_answers
with connection.cursor() as cursor:
    cursor.execute("SELECT inet_client_addr() IS NULL, current_setting('plan_cache_mode')")
    print(cursor.fetchone(), database_answers())
"""
REDIS_PROBE = """
import asyncio
from channels.layers import get_channel_layer
from django.core.cache import cache
from colorado.celery import app
app.send_task("colorado.probe")
cache.set("probe", 7)
async def layer():
    channels = get_channel_layer()
    name = await channels.new_channel()
    await channels.send(name, {"type": "probe"})
    return (await channels.receive(name))["type"]
print(cache.get("probe"), asyncio.run(layer()))
"""


def _last_line(result: subprocess.CompletedProcess[str]) -> list[str]:
    """What a ``manage.py shell -c`` probe printed last (after the shell's own banner)."""
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip().splitlines()[-1:]


@pytest.mark.postgres
def test_the_site_reaches_postgresql_over_its_unix_socket(tmp_path: Path) -> None:
    with private_postgres() as server:
        url = f"postgres://postgres@{quote(str(server.folder), safe='')}:{server.port}/postgres"
        result = _manage(["shell", "-c", POSTGRES_PROBE], {"DATABASE_URL": url}, tmp_path)
    # Over the socket (no client address), with the site's startup options, and the outage
    # probe (colorado.outage) reaches the same server the same way.
    assert _last_line(result) == ["(True, 'force_generic_plan') True"]


@pytest.mark.redis
def test_the_site_queues_caches_and_broadcasts_over_a_redis_unix_socket(tmp_path: Path) -> None:
    with private_redis() as server:
        url = f"unix://{server.socket_path}?db=3"
        result = _manage(["shell", "-c", REDIS_PROBE], {"REDIS_URL": url}, tmp_path)
        assert _last_line(result) == ["7 probe"]
        queued = redis.Redis(unix_socket_path=str(server.socket_path), db=3).llen("celery")
    assert queued == 1  # the task is waiting in the broker's queue, in the URL's database
