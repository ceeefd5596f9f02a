"""Settings for the site, read from the environment (see README "Configuration").

Every value comes from an environment variable with a local default; a bad value stops the
process with ``ImproperlyConfigured`` naming the variable. ``DJANGO_ENV=production`` turns on
the production checks (``manage.py check --deploy`` is clean in that mode).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from colorado import env
from colorado.settings_limits import *  # noqa: F403 (the limits and delays, one module of settings)
from titles import TITLE_PACKAGES

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env.env_str("DATA_DIR", str(BASE_DIR / "var"))).resolve()

DJANGO_ENV = env.env_choice("DJANGO_ENV", "local", ("local", "production", "test"))
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env.env_bool("DEBUG", not PRODUCTION)
SECRET_KEY = env.secret_key("SECRET_KEY", production=PRODUCTION, data_dir=DATA_DIR)
SITE_URL = env.site_url("SITE_URL", f"http://127.0.0.1:{env.env_int('PORT', 8000)}")
PORT = env.env_int("PORT", 8000, minimum=1, maximum=65535)

_site_host = urlsplit(SITE_URL).hostname or "localhost"
ALLOWED_HOSTS = env.env_list(
    "ALLOWED_HOSTS",
    [_site_host] if PRODUCTION else [_site_host, "127.0.0.1", "localhost", "[::1]", "testserver"],
)
CSRF_TRUSTED_ORIGINS = [SITE_URL]

# The titles the site hosts: one Django app per title (``titles/<package>/``, its rules in
# ``titles/<package>/engine/``), from the one list of titles (``titles.TITLE_PACKAGES``).
TITLE_APPS = [f"titles.{package}" for package in TITLE_PACKAGES]
#: The title a link or form means when it names none (empty: the first title).
DEFAULT_TITLE = env.env_str("DEFAULT_TITLE", "")
#: The site's name in page titles, the home page, and every mail: its sender's name and
#: the subject's prefix (``MAIL_SUBJECT_PREFIX``). The site hosts several titles, so its name
#: is not a title's ("Colorado County" alone would read as that game in a mail about
#: another): docs/operations.md, "Mail".
SITE_NAME = env.env_str("SITE_NAME", "Colorado County online")
#: Its short form where room is short: the header's brand, the installed app's name.
SITE_SHORT_NAME = env.env_str("SITE_SHORT_NAME", "Colorado County")
#: The one prefix of every mail's subject: account mails (allauth), game mails, tournament
#: mails and the operators' (Django's ``EMAIL_SUBJECT_PREFIX``).
MAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
EMAIL_SUBJECT_PREFIX = MAIL_SUBJECT_PREFIX

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    # django-ninja's own app: /api/docs then loads Swagger UI from our static files
    # (ninja/static/ninja/), not from a CDN, so the docs work without internet.
    "ninja",
    "allauth",
    "allauth.account",
    "colorado",
    "accounts",
    "games",
    "notifications",
    "webhooks",
    "tournaments",
    *TITLE_APPS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "colorado.security_headers.SecurityHeadersMiddleware",  # CSP, Permissions-Policy
    "colorado.outage.DatabaseOutageMiddleware",  # outside all that reads the database
    "colorado.input_guard.InputGuardMiddleware",  # before anything reads the request
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
]

if PRODUCTION:
    # Production serves collected static files through WhiteNoise; locally the ASGI app
    # serves them from the source tree (colorado/asgi.py).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "colorado.urls"
WSGI_APPLICATION = "colorado.wsgi.application"
ASGI_APPLICATION = "colorado.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context.site",
            ],
        },
    },
]

DATABASES = {"default": env.database_config("DATABASE_URL", DATA_DIR / "colorado.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Accounts: django-allauth (docs/accounts.md) ---------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",  # admin, API tokens' password exchange
    "allauth.account.auth_backends.AuthenticationBackend",  # username or e-mail
]
ACCOUNT_ADAPTER = "players.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_USERNAME_MIN_LENGTH = 2
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bot", "system", "me"]
ACCOUNT_EMAIL_SUBJECT_PREFIX = MAIL_SUBJECT_PREFIX
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if PRODUCTION else "http"
# Throttles (counted in the cache): failed sign-ins per address and per login name.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "confirm_email": "1/3m/key",
}

LANGUAGE_CODE = "en"
# Each language is listed in its own name (the switcher shows it to people who read it).
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["colorado.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Redis: channel layer, cache and Celery broker -------------------------------------
REDIS_URL = env.redis_url("REDIS_URL")
# Embedded mode: no Redis. The web process then also runs the task worker and the periodic
# scheduler in threads (``manage.py serve``), so the in-memory channel layer and the
# in-memory broker are shared by everything that needs them.
EMBEDDED = REDIS_URL is None

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis Pub/Sub: a group send is one PUBLISH and each server process receives a
            # message once for all its sockets (docs/server.md, Broadcast). Messages are not
            # kept: a socket that misses one reads its document at the next (``since``).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # A generous read timeout for idle connections (channels_redis#422). RESP2:
                # redis-py's RESP3 parser formats every Pub/Sub message for a debug log
                # line even when nothing logs it (a frame message is ~25 KB): 120 against
                # 50 µs of CPU per message received (docs/benchmarks/history.md).
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "protocol": 2}],
                "prefix": env.env_str("CHANNEL_PREFIX", "colorado"),
            },
        }
    }
    CACHES = {
        "default": {
            # Falls back to process memory while Redis is down (colorado/cache.py).
            "BACKEND": "colorado.cache.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.env_str("CACHE_PREFIX", "colorado"),
            # One pool per process, not one per request thread (colorado/cache.py).
            "OPTIONS": {"pool_class": "colorado.cache.SharedConnectionPool"},
        }
    }
    CELERY_BROKER_URL = env.celery_broker_url(REDIS_URL)  # a Unix socket in kombu's words
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://localhost/"  # with a host: no kombu "No hostname" warning

# The queue the worker takes tasks from and everything is sent to. Two sites sharing one
# Redis database need different ones, as they need other CHANNEL_PREFIX and CACHE_PREFIX
# values (the tests run several sites at once on one Redis database).
CELERY_TASK_DEFAULT_QUEUE = env.env_str("CELERY_QUEUE", "celery")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 90
CELERY_TASK_ALWAYS_EAGER = env.env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
# Surviving the loss of a worker or of the broker (docs/operations.md, "What survives what").
# A task is acknowledged when it is done (acks_late): a worker killed mid-task leaves its
# message unacknowledged, and Redis hands it out again after the visibility timeout. That
# timeout must be longer than the longest task may run (CELERY_TASK_TIME_LIMIT, and each
# task's own time_limit), or a slow task would be handed to a second worker while it runs;
# minutes, not an hour, so a task a dead worker held comes back soon. Nothing waits on it
# anyway: the sweep queues a stalled bot again after BOT_STALL_SECONDS.
CELERY_VISIBILITY_TIMEOUT_SECONDS = env.env_int(
    "CELERY_VISIBILITY_TIMEOUT_SECONDS", 300, minimum=CELERY_TASK_TIME_LIMIT + 30
)
# The worker reconnects to a restarted broker for ever instead of exiting, and notices a
# dead connection within seconds: TCP keepalive, a socket timeout on every command and a
# PING on idle connections (health_check_interval). A Redis restart loses the queue;
# the sweep notices the bots that should have moved and queues them again.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_TIMEOUT = 5
# Tasks running when the connection drops are stopped: their messages cannot be acknowledged
# on the lost connection, so they are handed out again (after the visibility timeout, or by
# the sweep if Redis lost them) and run again from the start.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A consumer that survives the broker's restart, without Gossip and Mingle
# (colorado.celery.Consumer says why).
CELERY_WORKER_CONSUMER = "colorado.celery:Consumer"
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT_SECONDS,
    "socket_timeout": 10,
    "socket_connect_timeout": 5,
    "socket_keepalive": True,
    "health_check_interval": 10,
}
if EMBEDDED:
    # The in-memory broker is polled, once a second by default: every bot move waited up to
    # a second for its worker thread to notice it, and a bot that plays several actions in
    # a row (a La Conquista turn) took seconds to answer on an idle site. A poll every 50 ms
    # costs nothing measurable (docs/benchmarks.md, "Bot capacity").
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = 0.05
# Publishing (a bot move queues the next one, beat queues the sweep) retries briefly while
# the broker is away, then gives up: the sweep redoes what was lost.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 3,
    "interval_start": 0,
    "interval_step": 1,
    "interval_max": 2,
}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# Task modules that ``autodiscover_tasks`` (which only finds ``<app>.tasks``) would miss.
# The mail tasks are ``notifications.tasks`` (autodiscovered), registered under their old
# names ``games.tasks_mail.*``, and the deadline sweep under ``games.tasks_clock.*``, so
# that queued messages and the schedule below still match.
CELERY_IMPORTS = ["games.bots.tasks", "games.clocks.tasks"]
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "heartbeat": {
        "task": "colorado.tasks.heartbeat",
        "schedule": float(env.env_int("HEARTBEAT_SECONDS", 60, minimum=1)),
    },
    # Missed deadlines, vacation days and reminders (docs/clocks.md).
    "sweep-deadlines": {
        "task": "games.tasks_clock.sweep_deadlines",
        "schedule": float(env.env_int("SWEEP_SECONDS", 60, minimum=1)),
    },
    # "Your turn" mails after their grace period, reminders, pushes of a deadline drawing
    # near, and account mails and pushes whose task was lost (docs/operations.md).
    "sweep-notifications": {
        "task": "notifications.tasks.sweep_notifications",
        "schedule": float(env.env_int("SWEEP_SECONDS", 60, minimum=1)),
    },
    # Webhook deliveries whose task was lost (docs/webhooks.md).
    "sweep-webhooks": {
        "task": "webhooks.tasks.sweep_deliveries",
        "schedule": float(env.env_int("SWEEP_SECONDS", 60, minimum=1)),
    },
    # Tournaments: rounds start, late tables are played out (docs/tournaments.md).
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep_tournaments",
        "schedule": float(env.env_int("SWEEP_SECONDS", 60, minimum=1)),
    },
    # Runs hourly; each digest reader gets one mail a day, at 07:00 in their time zone.
    "send-digests": {"task": "games.tasks_mail.send_digests", "schedule": 3600.0},
}

# --- E-mail ------------------------------------------------------------------------------
_email = env.email_config("EMAIL_URL", "console:", DATA_DIR)
EMAIL_BACKEND = _email.backend
EMAIL_HOST = _email.host
EMAIL_PORT = _email.port
EMAIL_HOST_USER = _email.user
EMAIL_HOST_PASSWORD = _email.password
EMAIL_USE_TLS = _email.use_tls
EMAIL_USE_SSL = _email.use_ssl
EMAIL_FILE_PATH = _email.file_path
EMAIL_TIMEOUT = 20
# The VAPID key (a PEM); empty: DATA_DIR/vapid_private.pem, made at first use. Its subject
# (a mailto: or https: address the push services may contact): empty, DEFAULT_FROM_EMAIL.
VAPID_PRIVATE_KEY = env.env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env.env_str("VAPID_SUBJECT", "")
# Tests only: accept a push endpoint other than the browsers' push services.
PUSH_ANY_ENDPOINT = env.env_bool("PUSH_ANY_ENDPOINT", False)
DEFAULT_FROM_EMAIL = env.env_str("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@{_site_host}>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Security ----------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the game page's small script reads it for fetch() calls
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if DEBUG:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production.")
    if not env.env_list("ALLOWED_HOSTS", []) and _site_host in {"127.0.0.1", "localhost"}:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "Set SITE_URL (and ALLOWED_HOSTS if other names serve the site) in production."
        )

# --- Request input: body limit, client addresses behind proxies ------------------------
# One limit for every request body, API and pages alike (colorado/input_guard.py answers
# 413 above it); Django's own form parsing is held to the same number.
MAX_REQUEST_BODY_BYTES = env.env_int("MAX_REQUEST_BODY_BYTES", 256 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES
# How many proxies of our own stand in front of the server. 0 (the default): the client is
# the connection's address and X-Forwarded-For is ignored, since anyone can send one. N > 0:
# the Nth address from the right of X-Forwarded-For (the one our outermost proxy saw). It is
# applied once, before Django (colorado/client_address.py), so REMOTE_ADDR is the client's:
# the API's throttles and allauth's rate limits count by it, and trust no proxy themselves.
TRUSTED_PROXY_COUNT = env.env_int("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)
ALLAUTH_TRUSTED_PROXY_COUNT = 0
NINJA_NUM_PROXIES = 0

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.env_str("LOG_LEVEL", "INFO").upper()},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery": {"level": "WARNING"},
        "kombu": {"level": "WARNING"},
    },
}
