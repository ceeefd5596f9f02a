"""Reading settings from the environment, failing loudly on bad values.

Modelled on healthchecks' ``envbool``/``envint``: every reader takes the variable's name,
returns a typed value and raises ``ImproperlyConfigured`` with a sentence that names the
variable and says what is accepted.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is too small; the minimum is {minimum}.")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is too large; the maximum is {maximum}.")
    return value


def env_float(
    name: str, default: float, *, minimum: float | None = None, maximum: float | None = None
) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number.") from None
    if value != value or value in (float("inf"), float("-inf")):  # NaN, infinities
        raise ImproperlyConfigured(f"{name}={raw!r} is not a finite number.")
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is too small; the minimum is {minimum}.")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is too large; the maximum is {maximum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = os.environ.get(name, default).strip().lower()
    if raw not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of: {', '.join(choices)}.")
    return raw


def _sqlite_config(path: Path) -> dict[str, object]:
    """The embedded database: the default without ``DATABASE_URL``, and a ``sqlite:///`` URL."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        # BEGIN IMMEDIATE: a transaction takes the write lock when it starts and waits
        # (timeout) for another writer, instead of failing with "database is locked"
        # when two simultaneous moves both try to upgrade a read lock.
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        # Tests use a file beside it, not Django's shared-cache in-memory database: that
        # one answers "database table is locked" at once to a read while another thread
        # writes, where the site's file waits out the write (its timeout).
        "TEST": {"NAME": str(path.with_name(f"test-{path.name}"))},
    }


def database_config(name: str, default_sqlite: Path) -> dict[str, object]:
    """``DATABASE_URL`` as a Django DATABASES entry; unset means a local SQLite file."""
    import dj_database_url

    raw = os.environ.get(name, "").strip()
    if not raw:
        return _sqlite_config(default_sqlite)
    scheme = raw.split(":", 1)[0].lower()
    if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name} must be a postgres://user@host:port/dbname (or sqlite:///path) URL, "
            f"not {scheme!r}."
        )
    try:
        config = dj_database_url.parse(raw, conn_max_age=0, conn_health_checks=True)
    except Exception as exc:  # dj-database-url raises assorted errors on garbage
        raise ImproperlyConfigured(f"{name} could not be read: {exc}") from None
    if config.get("ENGINE", "").endswith("sqlite3"):
        path = str(config.get("NAME") or "")
        if not path or path == ":memory:":
            raise ImproperlyConfigured(
                f"{name} must name a SQLite file, e.g. sqlite:////srv/colorado/site.sqlite3."
            )
        return _sqlite_config(Path(path))
    if config.get("ENGINE", "").endswith("postgresql"):
        if not config.get("NAME"):
            raise ImproperlyConfigured(
                f"{name} must name a database, e.g. postgres://host/colorado."
            )
        # A connection pool per process (psycopg_pool through Django's "pool" option). Under
        # ASGI every request runs in a thread of its own, so persistent connections
        # (CONN_MAX_AGE) would pile up; without either, every request pays for a new
        # PostgreSQL connection. DATABASE_POOL_MAX_SIZE=0 turns the pool off.
        size = env_int("DATABASE_POOL_MAX_SIZE", 10, minimum=0, maximum=500)
        if size:
            options = dict(config.get("OPTIONS") or {})
            options["pool"] = {
                "min_size": min(2, size),
                "max_size": size,
                "timeout": env_int("DATABASE_POOL_TIMEOUT", 20, minimum=1),
            }
            config["OPTIONS"] = options
            # With a pool, Django passes ``ConnectionPool.check_connection`` to it only when
            # health checks are on: each borrowed connection is then checked (one empty
            # round trip) and replaced if it died, so after a PostgreSQL restart no request
            # gets a dead connection (the fault drill saw one 503 per idle pooled
            # connection with the checks off).
            config["CONN_HEALTH_CHECKS"] = True
        # The move's statements are prepared once per connection (games.store.rows.prepared_cursor)
        # and should be planned once too. PostgreSQL's plan cache plans a prepared statement
        # for its parameters five times and then keeps doing so whenever the generic plan's
        # estimate looks dearer, which for the move's lock and writes was 30-57 % of their
        # executions (docs/benchmarks/history.md, "Ninth pass"): force the generic plan.
        # Django's own cursors bind client-side, so their statements are planned as before.
        options = dict(config.get("OPTIONS") or {})
        if "plan_cache_mode" not in str(options.get("options", "")):
            given = str(options.get("options", "")).strip()
            options["options"] = f"{given} -c plan_cache_mode=force_generic_plan".strip()
        config["OPTIONS"] = options
    return dict(config)


def redis_url(name: str) -> str | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if urlsplit(raw).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"{name} must be a redis://host:port/db, rediss:// or unix:// URL, not {raw!r}."
        )
    return raw


def celery_broker_url(redis_url: str) -> str:
    """Celery's broker URL for ``REDIS_URL``. Redis's own clients read a Unix socket as
    ``unix:///path/redis.sock?db=N``; kombu has no ``unix`` transport ("No such transport:
    unix": every task would fail) and reads the same socket as
    ``redis+socket:///path/redis.sock?virtual_host=N``. The URL's other query parameters are
    redis-py's (strings kombu would hand on as they are) and are left out."""
    parts = urlsplit(redis_url)
    if parts.scheme != "unix":
        return redis_url
    query = parse_qs(parts.query)
    db = (query.get("db") or ["0"])[0]
    userinfo = parts.netloc.rpartition("@")[0]
    login = f"{userinfo}@" if userinfo else ""
    return f"redis+socket://{login}{parts.path}?virtual_host={quote(db, safe='')}"


@dataclass(frozen=True)
class EmailConfig:
    backend: str
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    file_path: str = ""


def email_config(name: str, default: str, data_dir: Path) -> EmailConfig:
    """``EMAIL_URL``: ``smtp://host:port``, ``smtp+tls://user:pass@host:port``,
    ``smtp+ssl://…``, ``console:`` or ``file:`` / ``file:///folder`` (one file per mail)."""
    raw = os.environ.get(name, default).strip()
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme == "console":
        return EmailConfig(backend="django.core.mail.backends.console.EmailBackend")
    if scheme == "file":
        folder = parts.path or str(data_dir / "mail")
        return EmailConfig(
            backend="django.core.mail.backends.filebased.EmailBackend", file_path=folder
        )
    if scheme in {"smtp", "smtp+tls", "smtp+ssl"}:
        if not parts.hostname:
            raise ImproperlyConfigured(f"{name}={raw!r} has no host; use smtp://host:port.")
        try:
            port = parts.port or (
                465 if scheme == "smtp+ssl" else 587 if scheme == "smtp+tls" else 25
            )
        except ValueError:
            raise ImproperlyConfigured(f"{name}={raw!r} has a port that is not a number.") from None
        return EmailConfig(
            backend="django.core.mail.backends.smtp.EmailBackend",
            host=parts.hostname,
            port=port,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            use_tls=scheme == "smtp+tls",
            use_ssl=scheme == "smtp+ssl",
        )
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not understood; use smtp://host:port, smtp+tls://user:pass@host:port, "
        "smtp+ssl://…, console: or file:."
    )


def site_url(name: str, default: str) -> str:
    raw = os.environ.get(name, default).strip().rstrip("/")
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ImproperlyConfigured(
            f"{name}={raw!r} must be an absolute http(s) URL such as https://example.org."
        )
    return raw


def secret_key(name: str, *, production: bool, data_dir: Path) -> str:
    """Required in production; generated once into the data folder for local use."""
    raw = os.environ.get(name, "").strip()
    if raw:
        if production and (len(raw) < 50 or len(set(raw)) < 5 or raw.startswith("django-insecure")):
            raise ImproperlyConfigured(
                f"{name} is too weak for production: use at least 50 random characters."
            )
        return raw
    if production:
        raise ImproperlyConfigured(f"{name} must be set when DJANGO_ENV=production.")
    path = data_dir / "secret_key"
    if not path.exists():
        # Written whole under another name, then linked into place: of processes starting
        # at once (test workers, the parts of ``dev.py run``) one makes it and every one
        # reads that one, never a half-written or overwritten file.
        data_dir.mkdir(parents=True, exist_ok=True)
        draft = data_dir / f".secret_key.{os.getpid()}"
        draft.write_text(secrets.token_urlsafe(64))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
