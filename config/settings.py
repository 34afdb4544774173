"""Scorekeeper settings, driven by the environment (README, "Settings").

DATABASE_URL  default: SQLite file db.sqlite3 in the project folder
REDIS_URL     a shared cache for several app servers (default: files in
              CACHE_DIR, .cache/django in the project folder)
SECRET_KEY    default: the key file beside the SQLite database, made on the
              first run (config/secret_key.py); SECRET_KEY_FILE names
              another file. Required (the same on every app server) with
              another database.
DEBUG         "1"/"true" for a developer's machine only (default off)
ADDRESS       where the server listens (default 127.0.0.1:8000); 0.0.0.0:PORT
              lets the phones on the network join, and this computer's
              network addresses are then allowed hosts (config/network.py)
ALLOWED_HOSTS comma-separated, added to those ADDRESS allows
HTTPS         "1" when the app is reached over https:// (directly or through
              BEHIND_HTTPS_PROXY): secure cookies, HSTS, redirects to https
TRUSTED_PROXY_COUNT  reverse proxies in front (default 0: X-Forwarded-For ignored)
SESSION_IDLE_HOURS   an organiser's login ends after this long unused (default 12)
LANGUAGES     comma-separated, from en, ur, sd (default all three); "en"
              alone switches translation off (no lookups, no LocaleMiddleware)
"""

import hashlib
import os
import tempfile
from pathlib import Path

import dj_database_url

from . import network, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)

ADDRESS = os.environ.get("ADDRESS", network.DEFAULT_ADDRESS)
# "Phones join at ...": shown to organisers when the server listens on the network.
JOIN_URL = network.join_url(ADDRESS)
ALLOWED_HOSTS = network.allowed_hosts(ADDRESS) + [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "scorekeeper",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An unchanged poll answered 304 from the cache, before the session, the database and the rest.
    "scorekeeper.polls.answer_unchanged_polls",
    # HTML answers gzip-compressed (a quarter of their size; README, "What an answer costs on the way"), with
    # Django's padding against BREACH; after WhiteNoise, whose files are compressed ahead, and the polls' 304s.
    "django.middleware.gzip.GZipMiddleware",
    # Before anything reads a form (the CSRF check does): 400 for one that is not UTF-8 or does not parse.
    "scorekeeper.middleware.refuse_undecodable_bodies",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.middleware.keep_sessions_alive",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.middleware.reject_nul_bytes",
    "scorekeeper.middleware.content_security_policy",
    # Login throttling; must be last.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Five wrong passwords for one user name from one client address lock that
# pair for an hour: the organiser, from any other address, still logs in.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The client's address: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT reverse
# proxies the one they put in X-Forwarded-For (scorekeeper/access/client_ip.py).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "scorekeeper.access.client_ip.client_ip"
AXES_LOCKOUT_TEMPLATE = "access/lockout.html"
AXES_VERBOSE = False

ROOT_URLCONF = "config.urls"

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
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite set up for a real server: IMMEDIATE transactions, so a writer
    # takes the lock at BEGIN and two writers queue instead of failing
    # half-way; a busy timeout, so they wait rather than error; WAL, so
    # readers never wait for the writer; synchronous=FULL, so a saved score
    # survives a power cut.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0 if DEBUG else DATABASES["default"]["CONN_MAX_AGE"]
    # Tests use a real file, not the shared in-memory database: that one has
    # table locks that ignore the busy timeout, which real servers never see.
    # One file per test process, so parallel runs never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"scorekeeper-test-{os.getpid()}.sqlite3")
    }
else:
    # No server-side cursors, so a pooler in transaction mode (PgBouncer)
    # can sit in front; Django prepares no statements either.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    # Persistent connections with health checks (CONN_MAX_AGE). DB_POOL=on:
    # Django's connection pool (psycopg_pool, requirements-bench.txt) instead,
    # a few connections per process; measured against them at the 500-table
    # event and not kept (README, "Connection pooling": no better, in 2 of 3
    # runs worse).
    if os.environ.get("DB_POOL", "off").lower() in ("on", "1", "yes"):
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "4")),
        }

# The key to every scoring link and signed cookie: this server's own, never
# one written in the source. With SQLite it lives beside the database (made
# on the first run; keep it with the database), with another database it
# must be given (the same on every app server).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATA_DIR = Path(DATABASES["default"]["NAME"]).resolve().parent
else:
    DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR))
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    key_file = os.environ.get("SECRET_KEY_FILE")
    if key_file is None and DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        raise secret_key.NoSecretKey(
            "No SECRET_KEY: with a database other than SQLite, set SECRET_KEY (the same on every app server) "
            "or SECRET_KEY_FILE (a file that holds it, made there if missing)."
        )
    SECRET_KEY = secret_key.read_or_create(Path(key_file) if key_file else DATA_DIR / secret_key.KEY_FILE_NAME)
# Copies of the SQLite database made while an event runs (scorekeeper/backups/copies.py).
DATABASE_COPIES_DIR = Path(os.environ.get("DATABASE_COPIES_DIR", DATA_DIR / "backups"))
DATABASE_COPIES_KEPT = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages offered: English, Urdu and Sindhi (both right to left).
# The language follows the chooser (its cookie), else the browser's
# Accept-Language. With English alone translation is off altogether: no
# LocaleMiddleware, no catalogue lookups (what a saved hand costs each way:
# README, "Languages").
LANGUAGE_CODE = "en"
_LANGUAGE_NAMES = {"en": "English", "ur": "Urdu", "sd": "Sindhi"}
_wanted = [c.strip() for c in os.environ.get("LANGUAGES", "en,ur,sd").split(",") if c.strip()]
if set(_wanted) - set(_LANGUAGE_NAMES):
    raise RuntimeError(f"LANGUAGES: only {', '.join(_LANGUAGE_NAMES)} are known, not {os.environ['LANGUAGES']!r}.")
# English always: it is the fallback for any text not yet translated.
LANGUAGES = [(code, _LANGUAGE_NAMES[code]) for code in _LANGUAGE_NAMES if code == "en" or code in _wanted]
# Django knows Urdu as right to left but not Sindhi (scorekeeper/apps.py adds its LANG_INFO).
LANGUAGES_BIDI = ["he", "ar", "ar-dz", "ckb", "fa", "ug", "ur", "sd"]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = len(LANGUAGES) > 1
if USE_I18N:
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware") + 1,
        "django.middleware.locale.LocaleMiddleware",
    )
# Digits stay Western (0-9) in every language, as inputs accept only ASCII
# digits (scorekeeper/numbers.py) and as players in Pakistan write scores;
# no thousands separator, so a score is never shown as "1,250" or "1.250".
USE_THOUSAND_SEPARATOR = False
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Cookies and headers. Over https (HTTPS below): secure cookies and HSTS too;
# SECURE_SSL_REDIRECT=0 when a proxy in front already redirects.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True  # htmx reads the token from the page (base.html hx-headers), no script reads the cookie
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# An organiser's login ends after a working day unused (each request within
# it, at most every few minutes, starts the day again: keep_sessions_alive);
# a table device's grant cookie (access/links.py) lasts a month regardless.
SESSION_COOKIE_AGE = int(float(os.environ.get("SESSION_IDLE_HOURS", "12")) * 3600)
SESSION_REFRESH_SECONDS = 300
SCORING_GRANT_AGE = 60 * 60 * 24 * 30  # a table device stays allowed for a month
# Reached over https:// (HTTPS=1, or BEHIND_HTTPS_PROXY=1 when a proxy in
# front sets X-Forwarded-Proto): secure cookies, HSTS, redirects to https.
# Off by default: the club laptop serves the phones plain http on the
# club's Wi-Fi, where a secure cookie would never come back.
HTTPS = env_bool("HTTPS", False) or env_bool("BEHIND_HTTPS_PROXY", False)
if HTTPS:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("BEHIND_HTTPS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
else:
    # check --deploy's HTTPS advice, which a plain-http server on a club's
    # network cannot follow (README, "HTTPS on a club network").
    SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W012", "security.W016"]

# The standings are looked up in the database at most this often (every
# screen in the room polls them); a poll after a change shows it within
# this time.
STANDINGS_REFRESH_SECONDS = float(os.environ.get("STANDINGS_REFRESH_SECONDS", "3"))

# One cache for what is worth keeping between requests (the standings as
# last drawn; "polls": what the polls compare, scorekeeper/polls.py): files
# in CACHE_DIR, shared by the server's processes, or with REDIS_URL one
# Redis shared by every app server. Keys carry the
# database, so one database's tournament 1 never shows for another's.
_DATABASE = DATABASES["default"]
_KEY_PREFIX = hashlib.sha256(
    f"{_DATABASE['ENGINE']}|{_DATABASE.get('HOST')}|{_DATABASE.get('PORT')}|{_DATABASE['NAME']}".encode()
).hexdigest()[:12]
REDIS_URL = os.environ.get("REDIS_URL", "")
_CACHE_DIR = Path(os.environ.get("CACHE_DIR", str(BASE_DIR / ".cache" / "django")))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": _KEY_PREFIX,
        }
    }
    CACHES["polls"] = {**CACHES["default"], "KEY_PREFIX": f"{_KEY_PREFIX}-polls"}
else:
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.cache.FileCache",
            "LOCATION": str(_CACHE_DIR),
            "KEY_PREFIX": _KEY_PREFIX,
        },
        # What the polls compare (scorekeeper/polls.py): two small entries per
        # table, many more than the default's 300, in a folder of their own.
        "polls": {
            "BACKEND": "scorekeeper.cache.FileCache",
            "LOCATION": str(_CACHE_DIR / "polls"),
            "KEY_PREFIX": _KEY_PREFIX,
            "OPTIONS": {"MAX_ENTRIES": 20000},
        },
    }

# Keep data uploads small: no form of ours needs more.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
# A whole upload (the Backups page's file): a backup is at most 50 MB.
MAX_UPLOAD_BYTES = 51 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400
