"""Settings shared by every environment; the other modules import * from here."""

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from games.registry import PACKAGES

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_list(name: str, default: Iterable[str] = ()) -> list[str]:
    """A comma-separated environment variable as a list, blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = False
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "daphne",  # first: its runserver replaces Django's with the ASGI one
    # No django.contrib.admin: no model is managed through it (hosts run their party
    # from the dashboard), and an unused login page is only something to brute-force.
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "events",
    "tables",
    "relay",
    "printables",
    "story",
]

# The games the party hosts (games/registry.py): each package is also a Django app, so
# its own static/ (its screens' modules), templates/ and locale/ are found as any app's
# (docs/GAMES.md). The test settings add their test-only games here; tables/apps.py registers
# every package listed with the registry.
HEIST_GAME_PACKAGES: list[str] = list(PACKAGES)
INSTALLED_APPS += HEIST_GAME_PACKAGES

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.headers.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common: each request reads its language (events/party/language.py
    # then applies the party's where the page is the room's, not a person's).
    "django.middleware.locale.LocaleMiddleware",
    # Before the first that checks the Host (CommonMiddleware): the health probe from
    # the same box is answered whatever its Host header, as production's ALLOWED_HOSTS
    # lists only the party's name (config/health.py). The ones above it add their
    # headers to its answer and never read the Host for /healthz.
    "config.health.LoopbackHealthMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

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
                "tables.context_processors.screen_rules",  # the engine's rules for ui.js
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages a party plays in (issue 32): each has a complete catalogue under locale/,
# and tests/i18n fails when a marked string has no translation in one of them.
LANGUAGES = [("en", "English"), ("es", "Español"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switch on every page sets it (Django's set_language); a year, like a phone's setting.
LANGUAGE_COOKIE_NAME = "heist_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT: str | Path = BASE_DIR / "staticfiles"  # production.py may name another (a str)
# Serve /static/ from the ASGI app itself (config/asgi.py). On for the embedded box,
# which runs daphne with nothing in front; off in production, where nginx serves it.
SERVE_STATIC = False

# HTTP requests in Django's threads at once per process; the rest wait on the event loop
# (config/admission.py). Each such thread borrows a database connection, and the
# sockets borrow from the same pool: production.py sizes this below the pool.
HTTP_CONCURRENCY = int(os.environ.get("HEIST_HTTP_CONCURRENCY", "12"))
HTTP_ADMISSION_WAIT = 20.0  # seconds in line before a plain 503 "busy" with Retry-After
# A web process whose event loop has not run for this long exits (config/watchdog.py),
# and compose restarts it; None: never (bin/serve, the tests; production sets it).
LOOP_WATCHDOG_SECONDS: float | None = None

# PostgreSQL: a table action's one optimistic statement is sent from the event loop on
# connections of its own (tables/loopwrite.py), at most this many per process, outside
# Django's pool; 0 sends every act through the threads (events/live/lanes.py) instead.
ACTS_ON_LOOP_CONNECTIONS = int(os.environ.get("HEIST_ACTS_ON_LOOP_CONNECTIONS", "4"))

# How long a thread may hold the interpreter lock while another waits for it, in the
# server process (config/asgi.py): Python's default is 5 ms, too long for the event
# loop to wait behind Django's HTTP threads.
SWITCH_INTERVAL_SECONDS = float(os.environ.get("HEIST_SWITCH_INTERVAL", "0.001"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cookies and headers. The Secure flag is off here because the embedded host is
# reached over plain HTTP on a LAN; production.py turns it on.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Everything from this origin only ('self' covers the party's ws:/wss: socket), nothing
# inline, no plugins, no <base>, never framed (config/headers.py sends it). Images may
# also be data: URLs: a tablet's pairing QR code carries a one-time secret, so the host
# page draws it from a data: URL rather than a URL a log or proxy could keep.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

# Celery reads every CELERY_* setting (config/celery.py, namespace "CELERY").
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Periodic jobs, run by the `beat` service (docker-compose.yml).
CELERY_BEAT_SCHEDULE = {
    # Rooms expire seven days after creation (events/tasks.py); hourly is plenty.
    "expire-parties": {"task": "events.tasks.expire_parties", "schedule": crontab(minute=17)},
    # A quiet guest's step the server plays (events/party/clocks.py); each daphne sweeps too.
    "sweep-clocks": {"task": "events.tasks.sweep_clocks", "schedule": 5.0},
}
# How often each server process sweeps the step clocks from its event loop
# (events/live/clockloop.py); 0 turns it off. A pass fires at most this late.
CLOCK_SWEEP_SECONDS = 1.0

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# The address phones open (events/party/public_url.py): every join link, QR code and pairing
# link uses it when set ("https://heist.example.org", or "http://partybox.local:8000").
# Production sets it. Unset, a link uses the address the page was asked for, except
# that a page asked for as localhost/127.0.0.1 names the first LAN address instead.
HEIST_PUBLIC_URL = os.environ.get("HEIST_PUBLIC_URL", "").strip().rstrip("/")
if HEIST_PUBLIC_URL and not HEIST_PUBLIC_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"HEIST_PUBLIC_URL must start with http:// or https://, not {HEIST_PUBLIC_URL!r}")
# This machine's LAN addresses, phones' way in when nothing else names one: a list in
# the embedded settings (bin/serve, config/lan.py), None where nobody looked for them
# (production behind its proxy, the tests' servers).
LAN_ADDRESSES: list[str] | None = None
# bin/serve's daphne faces the LAN with nothing in front (config/front_door.py): a
# connection must send a whole request within `request_seconds` of opening (or of its
# last response), and one address holds at most `per_address` connections that have not
# proven a party secret. None here: production's nginx does this before daphne, and
# every connection daphne sees there comes from nginx's one address.
FRONT_DOOR: dict[str, float] | None = None

# Rate limits per client address (events/access/ratelimit.py). Generous: a whole party may
# share one venue Wi-Fi address, and 100 guests joining in a minute is a good party.
RATE_LIMITS = {
    "join": (150, 60),  # joins and seat claims by code: (count, seconds)
    "connect": (600, 60),  # WebSocket connects
    "create": (10, 600),  # new parties: a host makes one (1,000 in 8 s was possible)
    "page": (600, 60),  # party pages by code (/j/ /p/ /host/ /screen/ /qr/)
    # Unknown join codes asked for (pages, joins, sockets). Past this, every party page
    # answers 429 to the address, whether the code exists or not: guessing codes
    # (36^6 of them) stops at 60 per 10 minutes.
    "miss": (60, 600),
}
# Client addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For is
# believed (events/access/ratelimit.py); from anyone else the header is ignored. Production
# reads TRUSTED_PROXIES from the environment (compose: nginx's fixed address).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# Sockets (events/live/consumers.py). A hello must come within HELLO_TIMEOUT_SECONDS of the
# handshake. Open sockets are capped per seat (a phone and a tablet, a reload or two)
# and per address (a venue NAT carries the whole party: 100 guests, screens), counted
# per daphne process.
HELLO_TIMEOUT_SECONDS = 10
SOCKET_LIMITS = {"per_seat": 4, "per_address": 400}
# Frames per socket: a token bucket of (frames per second, burst); frames beyond it
# get `rate_limited`, and after the third number of refusals in a row the socket is
# closed (4429). A phone sends a few frames a minute.
FRAME_RATE = (20, 60, 100)
# Resync frames per socket: (burst, seconds per token). Beyond it the socket gets the
# snapshot it was last sent (`"cached": true`) instead of a new database read.
RESYNC_RATE = (5, 2.0)
