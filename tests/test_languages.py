"""English, Urdu and Sindhi through the Django test client: the language
follows the chooser (its cookie), else the browser's Accept-Language; the
page says which (<html lang dir>), its script's font is linked only in that
language, and nothing drawn in one language (the sheet's poll, the drawn
standings and their poll) is ever answered to a client in another.

Until the translators have filled locale/, the Urdu texts here come from a
small stand-in catalogue (``stand_in``), written as a .mo file in Python."""

from __future__ import annotations

import html
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import localize

from scorekeeper.matches.wording import side_letter

from .conftest import HX, play, text_of
from .tournaments.helpers import client_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]
URDU = {"HTTP_ACCEPT_LANGUAGE": "ur-PK,ur;q=0.9,en;q=0.5"}
SINDHI = {"HTTP_ACCEPT_LANGUAGE": "sd"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def write_mo(path: Path, messages: dict[str, str]) -> None:
    """A GNU .mo catalogue of ``messages`` (msgid -> msgstr), as msgfmt writes it."""
    catalogue = {"": "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"}
    catalogue.update(messages)
    ids = sorted(catalogue)
    keys = [k.encode() for k in ids]
    values = [catalogue[k].encode() for k in ids]
    start = 7 * 4 + 16 * len(ids)
    offsets, blob = [], b""
    for s in keys + values:
        offsets.append((len(s), start + len(blob)))
        blob += s + b"\0"
    n = len(ids)
    head = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    table = b"".join(struct.pack("<2I", *o) for o in offsets)
    path.write_bytes(head + table + blob)


@pytest.fixture
def stand_in(tmp_path, settings):
    """stand_in({msgid: Urdu}): those messages translated into Urdu, first
    in LOCALE_PATHS (Django forgets its loaded catalogues when it changes)."""

    def _install(messages: dict[str, str]) -> None:
        folder = tmp_path / "locale" / "ur" / "LC_MESSAGES"
        folder.mkdir(parents=True)
        write_mo(folder / "django.mo", messages)
        settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]

    return _install


def html_tag(page: str) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]*)" dir="([^"]*)"', page)
    assert found, "no <html lang dir>"
    return found.group(1), found.group(2)


def linked_css(page: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="/static/css/([^"]+)"', page)


# ------------------------------------------------------------ which language


@pytest.mark.parametrize(
    ("headers", "lang", "direction", "font_css"),
    [
        ({}, "en", "ltr", None),
        (ENGLISH, "en", "ltr", None),
        (URDU, "ur", "rtl", "lang-ur.css"),
        (SINDHI, "sd", "rtl", "lang-sd.css"),
        ({"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}, "en", "ltr", None),  # not offered: English
    ],
)
def test_the_browsers_language_picks_the_page_language_and_its_font(headers, lang, direction, font_css):
    page = text_of(Client().get(reverse("login"), **headers))
    assert html_tag(page) == (lang, direction)
    fonts = [css for css in linked_css(page) if css.startswith("lang-")]
    assert fonts == ([font_css] if font_css else [])  # a script's face only on pages in its language


def test_the_chooser_is_on_every_page_in_each_languages_own_name(make_match, organiser):
    match = make_match("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}])
    for url in (reverse("home"), reverse("login"), reverse("match", args=[match.pk])):
        page = html.unescape(text_of(Client().get(url)))
        chooser = re.search(r'<footer class="languages">.*?</footer>', page, re.S)
        assert chooser, f"no language chooser on {url}"
        form = chooser.group(0)
        assert 'method="post" action="/i18n/setlang/"' in form and 'name="csrfmiddlewaretoken"' in form
        buttons = re.findall(
            r'<button type="submit" name="language" value="(\w+)" lang="\w+" dir="(\w+)"[^>]*>([^<]+)<', form
        )
        assert buttons == [("en", "ltr", "English"), ("ur", "rtl", "اردو"), ("sd", "rtl", "سنڌي")]
        assert f'name="next" value="{url}"' in form  # back to this page


def test_the_chooser_sets_the_cookie_and_the_next_page_is_in_that_language(make_match):
    match = make_match("spades")
    browser = Client(**ENGLISH)  # the browser asks for English; the chooser wins
    sheet = reverse("match", args=[match.pk])
    assert html_tag(text_of(browser.get(sheet))) == ("en", "ltr")
    answer = browser.post(reverse("set_language"), {"language": "sd", "next": sheet})
    assert answer.status_code == 302 and answer["Location"] == sheet
    assert browser.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sd"
    page = text_of(browser.get(sheet))
    assert html_tag(page) == ("sd", "rtl") and "lang-sd.css" in linked_css(page)
    assert re.search(r'value="sd" lang="sd" dir="rtl" aria-current="true"', page)  # the chooser shows which
    browser.post(reverse("set_language"), {"language": "en", "next": sheet})
    assert html_tag(text_of(browser.get(sheet))) == ("en", "ltr")


def test_sindhi_is_known_to_django_by_its_own_name():
    info = translation.get_language_info("sd")
    assert (info["name_local"], info["bidi"]) == ("سنڌي", True)
    with translation.override("sd"):
        assert translation.get_language() == "sd" and translation.get_language_bidi()


def test_digits_stay_western_with_no_thousands_separator(make_match):
    """Western digits in both languages (README "Languages"), as inputs take only ASCII digits."""
    match = make_match("spades", hands=[{"bids": [4, 5], "tricks": [2, 11]}])  # Ann bid 4, took 2: -40
    for headers in (URDU, SINDHI):
        page = text_of(Client().get(reverse("match", args=[match.pk]), **headers))
        assert '<span class="pts">-40</span>' in page  # signed and intact (isolated left to right: app.css)
        with translation.override(headers["HTTP_ACCEPT_LANGUAGE"][:2]):
            assert localize(1250) == "1250" and localize(-39) == "-39"


def test_the_chart_runs_right_to_left_in_urdu(make_match):
    match = make_match(
        "spades",
        options={"target": 100},
        hands=[{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [10, 2], "tricks": [11, 2]}],
    )
    english = text_of(Client().get(reverse("match", args=[match.pk]), **ENGLISH))
    urdu = text_of(Client().get(reverse("match", args=[match.pk]), **URDU))
    anchors = re.compile(r'class="chart-name[^"]*" x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)"')
    assert anchors.findall(english) and all(a == "start" for _x, a in anchors.findall(english))
    assert anchors.findall(urdu) and all(a == "end" for _x, a in anchors.findall(urdu))
    # The names stand at the end of the lines: on the right in English, on the left in Urdu.
    assert float(anchors.findall(urdu)[0][0]) < float(anchors.findall(english)[0][0])


# ------------------------------------------- English only: translation off


def test_english_alone_switches_translation_off():
    script = (
        "from django.conf import settings; "
        "print(settings.USE_I18N, settings.LANGUAGES, "
        "'django.middleware.locale.LocaleMiddleware' in settings.MIDDLEWARE)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for value, expected in (
        ("en", "False [('en', 'English')] False"),
        ("en,ur", "True [('en', 'English'), ('ur', 'Urdu')] True"),
        ("ur,sd", "True [('en', 'English'), ('ur', 'Urdu'), ('sd', 'Sindhi')] True"),
    ):
        out = subprocess.run(
            [sys.executable, "-c", script], env={**env, "LANGUAGES": value}, cwd=ROOT, capture_output=True, text=True
        )
        assert out.stdout.strip() == expected, out.stderr
    refused = subprocess.run(
        [sys.executable, "-c", script], env={**env, "LANGUAGES": "en,fr"}, cwd=ROOT, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "LANGUAGES" in refused.stderr


def test_with_one_language_there_is_no_chooser(settings):
    settings.LANGUAGES = [("en", "English")]
    page = text_of(Client().get(reverse("login")))
    assert "/i18n/setlang/" not in page and html_tag(page) == ("en", "ltr")


# ------------------------------------- never one language's page for another


def test_the_sheets_poll_never_answers_an_urdu_page_to_an_english_client(make_match, stand_in):
    stand_in({"Totals": "ٹوٹل"})
    match = make_match("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}])
    urdu, english = Client(**URDU), Client(**ENGLISH)
    page = text_of(urdu.get(reverse("match", args=[match.pk])))
    assert 'aria-label="ٹوٹل"' in page
    etag = re.search(r'If-None-Match": "\\"([^\\]+)\\""', page).group(1)
    url = reverse("match_changed", args=[match.pk])
    assert etag.endswith("-ur")
    assert urdu.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HX).status_code == 304
    # An English client holding the Urdu answer (a shared cache, a language switched) gets English.
    answer = english.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HX)
    assert answer.status_code == 200 and answer["ETag"] != f'"{etag}"' and answer["ETag"].endswith('-en"')
    assert "ٹوٹل" not in text_of(answer) and 'aria-label="Totals"' in text_of(answer)
    assert "Accept-Language" in answer["Vary"]


def test_drawn_standings_in_urdu_are_never_shown_to_english_screens(organiser, stand_in):
    stand_in({"Round %(n)s": "راؤنڈ %(n)s"})
    t = make(organiser, ["Ann", "Bob", "Cat"], rounds=2)
    table = tables_of(publish_next(t, organiser))[0]
    play(table.match, {"bids": [5, 5], "tricks": [6, 7]})
    url = f"/tournaments/{t.pk}/standings/"
    urdu, english = client_for(), client_for()
    drawn = urdu.get(url, **URDU)  # drawn first, in Urdu, and cached
    assert "راؤنڈ 1" in text_of(drawn)
    urdu_etag = json_etag(drawn.content.decode())
    assert urdu.get(url, HTTP_IF_NONE_MATCH=urdu_etag, **URDU, **HX).status_code == 304
    # The English screen: its own drawing, and the Urdu ETag is not what it shows.
    whole = text_of(english.get(url, **ENGLISH))
    assert "Round 1" in whole and "راؤنڈ" not in whole
    poll = english.get(url, HTTP_IF_NONE_MATCH=urdu_etag, **ENGLISH, **HX)
    assert poll.status_code == 200 and poll["ETag"] != urdu_etag
    assert "Round 1" in text_of(poll) and "راؤنڈ" not in text_of(poll)
    assert english.get(url, HTTP_IF_NONE_MATCH=poll["ETag"], **ENGLISH, **HX).status_code == 304
    # And the Urdu screens' poll is still Urdu, from the cache.
    again = urdu.get(url, **URDU, **HX)
    assert "راؤنڈ 1" in text_of(again) and "Round 1" not in text_of(again)


def json_etag(page: str) -> str:
    found = re.search(r'<div id="standings-live"[^>]*\bhx-headers="([^"]*)"', page)
    import json

    return json.loads(html.unescape(found.group(1)))["If-None-Match"]


# ------------------------------------------- what is stored stays English data


def test_a_tables_link_published_in_english_is_named_in_the_readers_language(organiser):
    """A table's scoring link is named when an organiser publishes the round,
    in whatever language they read; a player who reads Urdu or Sindhi still
    meets its name in their own words."""
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], name="Club night")
    with translation.override("en"):
        rnd = publish_next(t, organiser)
    table = tables_of(rnd)[0]
    page_url = reverse("share", args=[table.match_id])
    english = text_of(client_for(organiser).get(page_url, **ENGLISH))
    assert f"table {table.number}, round {rnd.number}, side A · Club night" in english
    for headers, lang in ((URDU, "ur"), (SINDHI, "sd")):
        with translation.override(lang):
            words = translation.gettext("table %(t)d, round %(r)d, side %(s)s") % {
                "t": table.number,
                "r": rnd.number,
                "s": side_letter(1),
            }
        assert not re.search("[A-Za-z]", words)  # the catalogue has the words, the side's letter too
        page = text_of(client_for(organiser).get(page_url, **headers))
        assert f"{words} · Club night" in page
        assert "table 1, round 1" not in page
