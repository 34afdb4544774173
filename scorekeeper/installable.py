"""What makes Scorekeeper an installable app that keeps working through a
dropped connection: the web app manifest and the service worker.

Both are views, not static files: the service worker must be served from
the site root (/sw.js) so that its scope covers every score sheet, and both
name static files by the URLs the static storage gives them (hashed under
whitenoise's manifest storage in production), so a new deploy changes the
worker's text and phones pick up the new files."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# Precached by the service worker: everything a score sheet loads.
PRECACHE = (
    "css/app.css",
    "css/print.css",
    "css/offline.css",
    "js/app.js",
    "js/poll.js",
    "js/offline/queue.js",
    "js/offline/send.js",
    "js/offline/sheet.js",
    "js/sw-register.js",
    "vendor/idb-keyval/idb-keyval-6.3.0.umd.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
THEME_LIGHT = "#14532d"
THEME_DARK = "#15271c"  # the top bar in the dark (app.css)
ICONS = (
    ("icons/icon.svg", "any", "image/svg+xml"),
    ("icons/icon-192.png", "192x192", "image/png"),
    ("icons/icon-512.png", "512x512", "image/png"),
)


def _urls() -> list[str]:
    urls = []
    for name in PRECACHE:
        try:
            urls.append(static(name))
        except ValueError:  # not collected (manifest storage): the worker does without it
            continue
    return urls


@cache
def _version(urls: tuple[str, ...]) -> str:
    """Changes whenever the worker's code or a precached file does: the
    file's hashed URL (production) or, without hashed URLs, its content."""
    digest = hashlib.sha256("|".join(urls).encode())
    digest.update(get_template("pwa/sw.js").template.source.encode())  # the worker's own code too
    if not settings.STORAGES["staticfiles"]["BACKEND"].endswith("ManifestStaticFilesStorage"):
        from django.contrib.staticfiles import finders

        for name in PRECACHE:
            path = finders.find(name)
            if path:
                with open(path, "rb") as file:
                    digest.update(file.read())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = _urls()
    version = _version(tuple(urls)) if not settings.DEBUG else _version.__wrapped__(tuple(urls))
    # Browsers ask for the worker on every visit: 304 while this deploy's worker is the one they have.
    etag = quote_etag(version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        context = {
            "precache": json.dumps(urls),
            "version": version,
            "sheet_prefix": json.dumps(reverse("home") + "matches/"),
            "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        }
        response = render(request, "pwa/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("home")
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    home = reverse("home")
    data = {
        "name": "Scorekeeper",
        # Translators: the app's name under its icon on a phone's home screen; 12 letters at most.
        "short_name": _("Scores"),
        "description": _("Keeps score for card games played with real cards."),
        "id": home,
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_LIGHT,
        "background_color": "#f6f7f4",
        "icons": [{"src": static(src), "sizes": sizes, "type": kind, "purpose": "any"} for src, sizes, kind in ICONS],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"indent": 1})
    response["Cache-Control"] = "no-cache"
    return response
