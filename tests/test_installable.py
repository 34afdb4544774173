"""The web app manifest and the service worker, as a phone fetches them."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def static_path(url: str) -> str:
    name = url.removeprefix("/static/")
    path = finders.find(name)
    assert path, f"{url} is not a static file"
    return path


def test_manifest_has_what_an_install_needs(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Scorekeeper"
    assert data["short_name"]
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    sizes = {}
    for icon in data["icons"]:
        sizes[icon["sizes"]] = icon
        path = static_path(icon["src"])
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}"
        else:
            assert icon["type"] == "image/svg+xml"
            assert Path(path).read_text().startswith("<svg")
    assert {"192x192", "512x512", "any"} <= set(sizes)


def test_every_page_links_the_manifest_and_the_theme_colours(client):
    page = client.get("/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'name="theme-color" content="#14532d" media="(prefers-color-scheme: light)"' in page
    assert 'name="theme-color" content="#15271c" media="(prefers-color-scheme: dark)"' in page
    assert 'src="/static/js/sw-register.js" data-sw="/sw.js"' in page


def test_service_worker_is_served_from_the_root_as_javascript_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))
    assert "/static/js/offline/queue.js" in precache and "/static/js/offline/sheet.js" in precache
    assert "/static/django_htmx/htmx-2.min.js" in precache
    for url in precache:
        static_path(url)
    assert 'const SHEET_PREFIX = "/matches/";' in body
    assert 'const STATIC_PREFIX = "/static/";' in body
    assert client.post("/sw.js").status_code == 405
    # Asked again on the next visit: nothing to send while it has not changed.
    again = client.get("/sw.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_service_worker_and_manifest_name_the_hashed_files_of_a_deploy(client, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", "--ignore", "admin", verbosity=0)
    body = client.get("/sw.js").content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))
    assert any(re.fullmatch(r"/static/js/offline/queue\.[0-9a-f]{12}\.js", url) for url in precache), precache
    for url in precache:  # each is a file the deploy serves
        assert (tmp_path / url.removeprefix("/static/")).is_file(), url
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    for icon in manifest["icons"]:
        assert (tmp_path / icon["src"].removeprefix("/static/")).is_file()
        assert re.search(r"\.[0-9a-f]{12}\.(png|svg)$", icon["src"])


def test_service_worker_changes_when_a_precached_file_does(client, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    settings.STATICFILES_DIRS = [tmp_path / "src", ROOT / "static"]
    (tmp_path / "src" / "js").mkdir(parents=True)
    (tmp_path / "src" / "js" / "app.js").write_text("// one")
    call_command("collectstatic", "--noinput", "--ignore", "admin", verbosity=0)
    first = re.search(r'const VERSION = "(\w+)"', client.get("/sw.js").content.decode()).group(1)
    (tmp_path / "src" / "js" / "app.js").write_text("// two")
    call_command("collectstatic", "--noinput", "--ignore", "admin", verbosity=0)
    second = re.search(r'const VERSION = "(\w+)"', client.get("/sw.js").content.decode()).group(1)
    assert first != second
