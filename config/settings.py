"""Settings, read from the environment.

The embedded defaults run the product on a bare machine: SQLite in ``var/db.sqlite3`` and
Celery tasks run eagerly in the calling process. The environment switches each part:

- ``DJANGO_ENV``: ``development`` (default) or ``production``. Production refuses to start
  without ``DJANGO_SECRET_KEY`` and ``DJANGO_ALLOWED_HOSTS`` and turns on HTTPS-only cookies,
  HSTS and the SSL redirect, so ``manage.py check --deploy`` is clean.
- ``DATABASE_URL``: e.g. ``postgres://user@host:5432/pymtheg`` (dj-database-url).
- ``CELERY_BROKER_URL``: e.g. ``redis://127.0.0.1:6379/0``; unset means eager tasks.
- ``PUBLIC_BASE_URL``: the address players reach the site at, for the QR codes on printed
  cards (default: the address the organiser's browser used).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from engine.games import game_static_folders

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PYMTHEG_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def cache_url_beside(broker_url: str | None) -> str | None:
    """The shared cache's Redis when only a Redis broker is given: the same server, the next
    database. Cache and queue stay apart: clearing one never touches the other, and neither
    reads the other's keys."""
    if not (broker_url or "").startswith(("redis://", "rediss://")):
        return None
    parts = urlsplit(broker_url)
    database = parts.path.strip("/") or "0"
    following = int(database) + 1 if database.isdigit() else 1
    return urlunsplit(parts._replace(path=f"/{following}"))


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development")
if DJANGO_ENV not in ("development", "production"):
    raise ImproperlyConfigured(
        f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}"
    )
PRODUCTION = DJANGO_ENV == "production"

if PRODUCTION:
    SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
    if not SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_ENV=production")
else:
    # Development only: production refuses to start without its own key.
    SECRET_KEY = os.environ.get(
        "DJANGO_SECRET_KEY", "dev-only-key-pymtheg-not-for-production-use-0123456789"
    )

DEBUG = env_bool("DJANGO_DEBUG", not PRODUCTION)

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_ENV=production")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # The interactive API page's scripts and styles, served by the product (no CDN).
    "drf_spectacular_sidecar",
    "rest_framework.authtoken",
    # The organisers' optional second factor: an authenticator app (config/sign_in.py).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "tournaments",
    "scoring",
    # The double-dummy table of every dealt board, solved by a job after dealing.
    "analysis",
    "publishing",
    # Featured tables: their recorders and the live broadcast of their play.
    "broadcast",
    # Backup, simulation and the demo: above the three apps (pyproject.toml, import contracts).
    "operations",
    # Clubs: member lists, entrants linked to members, players' pages (docs/clubs.md).
    "clubs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The page's language: the reader's choice, the tournament's, the browser's.
    "tournaments.languages.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "tournaments.public.NotPublishedMiddleware",
    # Answers a sign-in made while its wait lasts (429) and remembers known devices.
    "config.sign_in.SignInMiddleware",
]

# The team-code API's requests skip the rest (config/wsgi.py): they use no session or sign-in.
TEAM_API_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tournaments.languages.chooser",
            ],
        },
    },
]

_DEFAULT_DATABASE_URL = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.config(
        default=_DEFAULT_DATABASE_URL,
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60 if PRODUCTION else 0),
    )
}
# PostgreSQL plans a statement once per connection after it has run this many times (server-
# side binding and prepared statements): planning costs the database more than running the
# scorers' statements. 0 turns it off, as a pooler in transaction mode (pgbouncer) needs.
DATABASE_PREPARE_THRESHOLD = env_int("DATABASE_PREPARE_THRESHOLD", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DATABASE_PREPARE_THRESHOLD:
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=DATABASE_PREPARE_THRESHOLD
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database lives in var/ (git-ignored); make sure the folder exists.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Organisers' and the admin's sign-in: wrong passwords slow the next attempt for a few seconds
# per account and address, with a ceiling per account; nothing locks (config/sign_in.py).
AUTHENTICATION_BACKENDS = ["config.sign_in.ThrottledBackend"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:list"
LOGOUT_REDIRECT_URL = "login"

# English by default; French for the clubs (tournaments/languages.py picks the page's language:
# the reader's choice, the tournament's, the browser's). The catalogues are in locale/,
# compiled .mo files committed beside their .po (docs/languages.md).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# English keeps ISO short dates (config/formats/en); French takes Django's.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Each game serves its own entry script and style from its package (games/<id>/...).
STATICFILES_DIRS = [BASE_DIR / "static", *game_static_folders()]
# Production serves the collected files (manage.py collectstatic); development serves them
# straight from the app and static folders.
if PRODUCTION or os.environ.get("DJANGO_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
WHITENOISE_USE_FINDERS = not PRODUCTION
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

# Uploaded team lists are read in memory; anything bigger is not a team list.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.BoundedJSONParser"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate card tournaments",
    "VERSION": "0.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scoring.api.schema.add_problem_responses",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

# Celery: a broker URL switches to real workers; without one, tasks run in-process.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or None
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Workers and beat wait out a broker outage of any length and carry on (the default gives up
# after 100 tries, and the worker then stops for good).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery closes every database connection before and after each task unless told to reuse
# them, yet the standings task runs every second or so during a round, and each new
# connection is a new PostgreSQL process that plans its statements afresh. Reuse them (Celery
# still recycles them after this many tasks); config.celery closes one that is broken or
# older than CONN_MAX_AGE around each task, as Django does around a web request.
CELERY_DB_REUSE_MAX = 1000
CELERY_TIMEZONE = TIME_ZONE

# Printed cards carry a QR code of the scorer link; it must use the public address.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
# The URL name of the page players open with their access code (see tournaments/urls.py).
SCORER_ENTRY_URL_NAME = os.environ.get("SCORER_ENTRY_URL_NAME", "scorer-entry")

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if env_bool("DJANGO_BEHIND_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Scoring: the API's errors are problem details; scorers' writes are throttled per address;
# bodies beyond what any board record needs are refused.
REST_FRAMEWORK.update(
    {
        "EXCEPTION_HANDLER": "scoring.api.problems.api_exception_handler",
        "DEFAULT_AUTHENTICATION_CLASSES": [
            "rest_framework.authentication.TokenAuthentication",
            "rest_framework.authentication.SessionAuthentication",
        ],
    }
)
# Writes per address (a whole venue may share one): "<count>/<second|minute|hour|day>".
SCORER_WRITE_RATE = os.environ.get("SCORER_WRITE_RATE", "600/minute")
# Writes on a board once the team's code is checked, per team and per board of a match and
# team (scoring/api/access.py): a table sends a handful; a flooding phone gets 429.
SCORER_PHONE_WRITE_RATE = os.environ.get("SCORER_PHONE_WRITE_RATE", "60/minute")
SCORER_BOARD_WRITE_RATE = os.environ.get("SCORER_BOARD_WRITE_RATE", "20/hour")
# A wrong access code waits this long on the server before its answer, and under a flood of
# wrong codes a tournament's codes are checked one each this often (scoring/api/access.py).
CODE_GUESS_SECONDS = float(os.environ.get("CODE_GUESS_SECONDS", "1.0"))
SCORER_MAX_BODY_BYTES = 32 * 1024
# The scorer pages ask the server whether anything changed this often while they are shown
# (whole seconds, at least 1: every open phone of the room asks).
SCORER_POLL_SECONDS = env_int("SCORER_POLL_SECONDS", 6)
if SCORER_POLL_SECONDS < 1:
    raise ImproperlyConfigured(f"SCORER_POLL_SECONDS must be 1 or more, not {SCORER_POLL_SECONDS}")
# A worker and the web processes must agree on the queue; tests give each run its own.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
# A broker that is down must not hold up a confirmation: give up publishing quickly (the
# standings are then stale until the periodic reconcile).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# A message a worker held when Redis went away is delivered again after visibility_timeout
# (config/broker.py); it must outlast the longest task and countdown.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "visibility_timeout": 600,
}
STANDINGS_RECONCILE_SECONDS = env_int("STANDINGS_RECONCILE_SECONDS", 15)
# Beat wakes at least this often (config/liveness.py: its sign of life for /healthz).
CELERY_BEAT_MAX_LOOP_INTERVAL = 5
# /healthz says "degraded" once a tournament's standings have been behind its results longer.
HEALTH_STALE_STANDINGS_SECONDS = env_int("HEALTH_STALE_STANDINGS_SECONDS", 10)
# The standings task runs this long after the first confirmation of a burst. Short: the
# recomputes of a tournament take turns, and the one under way gathers the results that come
# in meanwhile (scoring/standings.py).
STANDINGS_DEBOUNCE_SECONDS = float(os.environ.get("STANDINGS_DEBOUNCE_SECONDS", "0.25"))
# A worker process reserves one message at a time: with Celery's default of four, a process
# busy with an export or a standings update held back messages an idle one could run, and a
# killed worker took its reserved ones down with it (until redelivery or the reconcile).
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {
        "task": "scoring.tasks.reconcile_standings",
        "schedule": STANDINGS_RECONCILE_SECONDS,
    },
}
# Shared by every web process in production (Redis), so throttles and cached page fragments
# hold across processes; in development a per-process memory cache is enough.
REDIS_CACHE_URL = os.environ.get("REDIS_CACHE_URL") or cache_url_beside(CELERY_BROKER_URL)
CACHES = {
    "default": {
        **(
            {
                "BACKEND": "config.cache.RedisCache",
                "LOCATION": REDIS_CACHE_URL,
                # A Redis that does not answer costs a request at most this long (then the
                # cache fails open: config/cache.py).
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
            if REDIS_CACHE_URL
            else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        ),
        # Keeps apart deployments, and test runs, that share one Redis.
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "pymtheg"),
    }
}

# Analysis: each part of a board's double-dummy table (``Game.analysis_parts``) is solved within
# this many seconds, else the board is left "not analysed". Dealing starts the job when a worker
# takes the tasks ("worker"), or "always" / "never".
ANALYSIS_PART_SECONDS = float(os.environ.get("ANALYSIS_PART_SECONDS", "120"))
# The organiser's retry of a part that ran out of time gives it this long.
ANALYSIS_RETRY_SECONDS = float(
    os.environ.get("ANALYSIS_RETRY_SECONDS", str(4 * ANALYSIS_PART_SECONDS))
)
ANALYSIS_AFTER_DEALING = os.environ.get("ANALYSIS_AFTER_DEALING", "worker")

# Publishing: export files live under var/exports; the newest few per tournament are kept.
PUBLISHING_EXPORT_ROOT = Path(os.environ.get("PUBLISHING_EXPORT_ROOT", VAR_DIR / "exports"))
PUBLISHING_EXPORTS_KEEP = env_int("PUBLISHING_EXPORTS_KEEP", 5)
# Where export files are kept (publishing/storage.py): "folder", PUBLISHING_EXPORT_ROOT on this
# host's disk, or "database", which every web host and worker reaches (several machines, no
# shared folder).
EXPORT_STORAGES = {
    "folder": "publishing.storage.ExportFolderStorage",
    "database": "publishing.storage.DatabaseStorage",
}
_export_storage = os.environ.get("PUBLISHING_EXPORT_STORAGE") or "folder"
if _export_storage not in EXPORT_STORAGES:
    raise ImproperlyConfigured(
        f"PUBLISHING_EXPORT_STORAGE must be 'folder' or 'database', not {_export_storage!r}"
    )
STORAGES["exports"] = {"BACKEND": EXPORT_STORAGES[_export_storage]}
PUBLISHING_CHART_LINES = env_int("PUBLISHING_CHART_LINES", 16)
PUBLISHING_PLACES_MAX_MATCHES = env_int("PUBLISHING_PLACES_MAX_MATCHES", 200_000)
# Charts and automatic publication follow the standings at most once this often.
PUBLISHING_CHART_DEBOUNCE_SECONDS = float(os.environ.get("PUBLISHING_CHART_DEBOUNCE_SECONDS", "5"))
CELERY_BEAT_SCHEDULE["cleanup-exports"] = {
    "task": "publishing.tasks.cleanup_exports_task",
    "schedule": env_int("PUBLISHING_CLEANUP_SECONDS", 3600),
}
