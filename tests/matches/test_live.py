"""The live sheet: an open sheet polls "changed?" with the version it shows
(If-None-Match) and what its entry panel was drawn from (?basis=). Nothing
changed: 304, no body, one query. Changed: the head, totals and hands out
of band, the entry panel only if its basis changed, and one line saying
who changed what.

Spades, Ann and Bob. Scores from RULES.md 2.3: a bid b made with t tricks
scores 10*b + (t - b); a bid not made scores -10*b."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.access.services import issue_link
from scorekeeper.audit import Actor
from scorekeeper.models import AuditEvent, Match

from ..conftest import HX, bid, edit, play, undo
from .page_helpers import totals_shown

pytestmark = pytest.mark.django_db
BIG = {"target": 100000}


def poll_of(page: str) -> tuple[str, str]:
    """The poll of a drawn sheet or answer: (its URL, the tag it sends as If-None-Match)."""
    found = re.search(r'<div id="changed"[^>]*>', page)
    assert found, "no #changed poll"
    tag = found.group(0)
    url = html.unescape(re.search(r'hx-get="([^"]+)"', tag).group(1))
    # The ETag is the version and the language the sheet is drawn in (an English client here).
    etag = re.search(r'If-None-Match": "\\"(\d+-en)\\""', html.unescape(tag)).group(1)
    assert 'hx-trigger="every 3s"' in tag
    return url, etag


def version_of(etag: str) -> int:
    return int(etag.split("-")[0])


def ask(client: Client, url: str, etag: str, **params):
    """The poll as htmx sends it: its URL (with ?basis=), more parameters added to it."""
    if params:
        url += "&" + urlencode(params)
    return client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HX)


def opened(client: Client, match) -> tuple[str, str]:
    page = client.get(reverse("match", args=[match.pk]))
    assert page.status_code == 200
    return poll_of(page.content.decode())


def note_of(response) -> str:
    """The text of the note announced (#live-note), as a screen reader gets it."""
    found = re.search(r'<p id="live-note" hx-swap-oob="innerHTML">(.*?)</p>', response.content.decode(), re.S)
    assert found, "no #live-note in the answer"
    return html.unescape(found.group(1)).strip()


def oob_ids(response) -> list[str]:
    """The parts the answer swaps, out of band, in order."""
    return re.findall(r'<\w+[^>]*\bid="([\w-]+)"[^>]*hx-swap-oob=', response.content.decode())


@pytest.fixture
def device(db, owned):
    """A Spades match the organiser olga owns, and a phone holding its link "table 7"."""

    def _make(hands=()):
        match = owned("spades", options=BIG, hands=hands)
        link, token = issue_link(match_id=match.pk, label="table 7", actor=Actor.organiser(match.owner))
        phone = Client()
        assert phone.post(f"/l/{token}/").status_code == 302
        return match, phone, Actor.device(link)

    return _make


# --------------------------------------------------------------- nothing changed


def test_unchanged_match_answers_304_from_the_cache_without_a_query(web, device, django_assert_num_queries):
    match, phone, _table7 = device()
    # The first poll finds nothing cached (no write since the match began): the
    # view's one query, which fills the cache; then the cache answers alone.
    # An organiser's poll (a session cookie) always reads the session and the
    # user: an idle organiser is logged out after a working day
    # (middleware.keep_sessions_alive).
    for client, queries in ((phone, [1, 0, 0]), (Client(), [0, 0]), (web, [3, 3])):
        url, etag = opened(client, match)
        for count in queries:
            with django_assert_num_queries(count):
                response = ask(client, url, etag)
            assert response.status_code == 304
            assert response.content == b""
            assert response["ETag"] == f'"{etag}"'


def test_a_sheets_own_save_leaves_its_poll_at_304(web, device):
    """The answer to a save carries the poll with the new version: no change to report."""
    match, _phone, _table7 = device()
    form = {"number": "1", "bidding": "none", "bids_0": "4", "bids_1": "5"}
    answer = web.post(reverse("save_bids", args=[match.pk]), form, **HX).content.decode()
    url, version = poll_of(answer)
    assert ask(web, url, version).status_code == 304


# --------------------------------------------------- another device changed it


def test_bids_saved_elsewhere_replace_the_entry_with_the_bids_in_force(web, device):
    match, _phone, table7 = device()
    url, version = opened(web, match)
    bid(match, {"bids": [4, 5]}, actor=table7)

    response = ask(web, url, version)
    assert response.status_code == 200
    assert oob_ids(response) == ["entry", "sheet-head", "totals", "history", "live-note"]
    page = html.unescape(response.content.decode())
    # The bids in force, in bidding order (Bob bids first in hand 1), and a form based on them.
    assert re.search(r"Bob</span>\s*<b class=\"bid\">5</b>.*Ann</span>\s*<b class=\"bid\">4</b>", page, re.S)
    assert 'name="bidding" value="{"bids":[4,5]}"' in page
    assert note_of(response) == "The phone with the link “table 7” saved the bids Ann 4, Bob 5."
    assert "banner-info" in page and "saved the bids Ann 4, Bob 5." in page  # shown in the panel too
    # The new poll asks from the new version and basis: nothing more to report.
    new_url, new_version = poll_of(response.content.decode())
    assert version_of(new_version) > version_of(version) and new_url != url
    assert response["ETag"] == f'"{new_version}"'
    assert ask(web, new_url, new_version).status_code == 304


def test_bids_saved_elsewhere_over_what_was_typed_say_it_was_not_saved(web, device):
    match, _phone, table7 = device()
    url, version = opened(web, match)
    bid(match, {"bids": [4, 5]}, actor=table7)

    response = ask(web, url, version, typed="1")
    assert note_of(response) == (
        "The phone with the link “table 7” saved the bids Ann 4, Bob 5: "
        "check them; what you had chosen here was not saved."
    )
    assert re.search(r'class="banner banner-error">The phone with the link', response.content.decode())


def test_a_hand_saved_elsewhere_shows_the_next_hand_totals_and_the_new_row(web, device):
    match, _phone, table7 = device()
    bid(match, {"bids": [4, 5]}, actor=table7)
    url, version = opened(web, match)
    play(match, {"bids": [4, 5], "tricks": [7, 6]}, actor=table7)

    response = ask(web, url, version)
    page = response.content.decode()
    assert note_of(response) == "Hand 1 was saved on the phone with the link “table 7”."
    assert "entry" in oob_ids(response)
    assert 'name="number" value="2"' in page and 'name="bidding" value="none"' in page
    # Ann 4/7: 40 + 3 = 43. Bob 5/6: 50 + 1 = 51.
    assert totals_shown(page) == [43, 51]
    assert re.search(r'<tr class="is-new">\s*<th scope="row">1</th>', page)


def test_a_past_hand_corrected_elsewhere_keeps_the_entry_form(web, device):
    """The form's basis (hand 3, no bids) did not change: what is typed in it stays; totals and hands move."""
    match, _phone, table7 = device(hands=[{"bids": [4, 5], "tricks": [7, 6]}, {"bids": [3, 3], "tricks": [3, 10]}])
    url, version = opened(web, match)
    edit(match, 1, {"bids": [4, 5], "tricks": [4, 9]}, actor=table7)

    for typed in ({}, {"typed": "1"}):
        response = ask(web, url, version, **typed)
        assert response.status_code == 200
        assert oob_ids(response) == ["changed", "sheet-head", "totals", "history", "live-note"]
        page = response.content.decode()
        assert 'id="entry"' not in page and 'id="entry-form"' not in page
        assert response["HX-Trigger"] == "sheet-kept"
        assert note_of(response) == "Hand 1 was corrected on the phone with the link “table 7”."
        # Hand 1 now Ann 4/4: 40, Bob 5/9: 54 (4 bags); hand 2 Ann 3/3: 30, Bob 3/10: 37 (7 bags):
        # Bob reaches 10 bags, -100. Ann 70, Bob 54 + 37 - 100 = -9.
        assert totals_shown(page) == [70, -9]
        new_url, new_version = poll_of(page)
        assert new_url == url and version_of(new_version) > version_of(version)  # the same basis, the new version


def test_the_note_is_what_the_match_row_keeps_not_read_back_from_the_audit_log(web, device):
    """The history of changes may be emptied or long: the note reads the match's row (Match.last_change)."""
    match, _phone, table7 = device()
    url, version = opened(web, match)
    play(match, {"bids": [4, 5], "tricks": [7, 6]}, actor=table7)
    AuditEvent.objects.filter(match=match).delete()

    response = ask(web, url, version)
    assert note_of(response) == "Hand 1 was saved on the phone with the link “table 7”."


def test_a_match_that_keeps_no_change_says_another_device_changed_it(web, device):
    """A match restored from a backup, or made before changes were kept on its row: a plain note, no guess."""
    match, _phone, table7 = device()
    url, version = opened(web, match)
    play(match, {"bids": [4, 5], "tricks": [7, 6]}, actor=table7)
    Match.objects.filter(pk=match.pk).update(last_change=None)

    response = ask(web, url, version)
    assert note_of(response) == "Another device changed this match."
    assert totals_shown(response.content.decode()) == [43, 51]


def test_bids_saved_by_the_organiser_are_said_with_their_name(device):
    match, phone, _table7 = device()
    url, version = opened(phone, match)
    bid(match, {"bids": [2, 6]}, actor=Actor.organiser(match.owner))

    response = ask(phone, url, version)
    assert note_of(response) == "The organiser olga saved the bids Ann 2, Bob 6."


def test_an_undo_elsewhere_puts_the_form_back_on_the_undone_hand(web, device):
    match, phone, _table7 = device(hands=[{"bids": [4, 5], "tricks": [7, 6]}, {"bids": [3, 3], "tricks": [3, 10]}])
    url, version = opened(phone, match)
    undo(match, actor=Actor.organiser(match.owner))

    response = ask(phone, url, version)
    page = response.content.decode()
    assert note_of(response) == "Hand 2 was undone by the organiser olga."
    assert 'name="number" value="2"' in page
    assert totals_shown(page) == [43, 51]
    assert not re.search(r'<th scope="row">2</th>', page)


def test_a_match_finished_elsewhere_shows_the_winner_and_keeps_polling(web, device):
    match, _phone, table7 = device()
    match.options = {"target": 100}
    match.save(update_fields=["options"])
    url, version = opened(web, match)
    play(match, {"bids": [10, 2], "tricks": [11, 2]}, actor=table7)  # Ann 100 + 1 bag: over 100

    response = ask(web, url, version)
    page = html.unescape(response.content.decode())
    assert "winner-banner" in page and 'id="entry-form"' not in page
    new_url, new_version = poll_of(page)  # an undo would still show
    undo(match, actor=Actor.organiser(match.owner))
    reopened = ask(web, new_url, new_version).content.decode()
    assert 'id="entry-form"' in reopened and "Hand 1 was undone" in html.unescape(reopened)


# ---------------------------------------------------------------- who sees what


def test_a_watcher_sees_the_change_but_gets_no_form(device):
    match, _phone, table7 = device()
    watcher = Client()
    url, version = opened(watcher, match)
    bid(match, {"bids": [4, 5]}, actor=table7)

    response = ask(watcher, url, version)
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "entry" in oob_ids(response)
    assert 'id="entry-form"' not in page and "You are watching" in page
    assert re.search(r"Bob</span>\s*<b class=\"bid\">5</b>", page)
    assert "Undo the last hand" not in page
    assert note_of(response) == "The phone with the link “table 7” saved the bids Ann 4, Bob 5."


def test_without_htmx_the_poll_answers_with_a_link_to_the_latest(device):
    match, _phone, table7 = device()
    url, version = opened(Client(), match)
    bid(match, {"bids": [4, 5]}, actor=table7)
    response = Client().get(url, HTTP_IF_NONE_MATCH=f'"{version}"')
    assert response.status_code == 200
    assert "Another device changed this match." in response.content.decode()
    assert f'href="/matches/{match.pk}/"' in response.content.decode()


def test_no_such_match_is_404(web):
    assert web.get("/matches/999999/changed/", **HX).status_code == 404


def test_a_deal_of_sixty_six_is_named_a_deal(web, owned):
    # X1: Ann out with 71, Bob has 38: Ann 1 game point.
    match = owned("sixtysix", options={"target": 7})
    url, version = opened(web, match)
    play(match, {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True})
    response = ask(web, url, version, typed="1")
    assert note_of(response) == "Deal 1 was saved on another device: what you had chosen here was not saved."
    assert totals_shown(response.content.decode()) == [1, 0]


def test_the_page_without_javascript_says_it_does_not_update_by_itself(web, device):
    match, _phone, table7 = device()
    page = web.get(reverse("match", args=[match.pk])).content.decode()
    assert re.search(r"<noscript><p[^>]*>This page does not update by itself\. <a href=\"/matches/\d+/\">", page)
    url, version = poll_of(page)
    bid(match, {"bids": [4, 5]}, actor=table7)
    assert "<noscript>" not in ask(web, url, version).content.decode()  # htmx answers do not repeat it


# ------------------------------------------------ one version behind: the missing row only


def section(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, pattern
    # The newest row is highlighted in an answer, not on a fresh page; a closing ">" after a space is the
    # same tag; a CSRF token is masked anew on every drawing.
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', found.group(0))
    return re.sub(r"\s+>", ">", " ".join(text.replace(' class="is-new"', ' class=""').split()))


def applied(page: str, answer: str) -> str:
    """The page after htmx swapped the answer's parts in, as the browser does:
    each hx-swap-oob="true" element replaces the page's element of its id; a
    row "afterbegin:#history-body" goes first into the table of hands."""
    for element in re.finditer(
        r'<(section|div|p)\b[^>]*\bid="([\w-]+)"[^>]*hx-swap-oob="true"[^>]*>.*?</\1>', answer, re.S
    ):
        tag, ident = element.group(1), element.group(2)
        old = re.compile(rf'<{tag}\b[^>]*\bid="{ident}"[^>]*>.*?</{tag}>', re.S)
        swapped = element.group(0).replace(' hx-swap-oob="true"', "")
        page = old.sub(lambda _m, swapped=swapped: swapped, page, count=1)
    for rows in re.findall(r'<tbody hx-swap-oob="afterbegin:#history-body">(.*?)</tbody>', answer, re.S):
        page = page.replace('<tbody id="history-body">', '<tbody id="history-body">' + rows, 1)
    return page


def test_a_page_one_hand_behind_gets_only_the_new_row_and_is_then_as_if_drawn_afresh(web, device):
    hands = [{"bids": [4, 5], "tricks": [7, 6]}, {"bids": [3, 3], "tricks": [3, 10]}]
    match, _phone, table7 = device(hands=hands)
    before = web.get(reverse("match", args=[match.pk])).content.decode()
    url, version = poll_of(before)
    assert "rows=2" in url
    play(match, {"bids": [2, 2], "tricks": [6, 7]}, actor=table7)  # another phone saves hand 3

    response = ask(web, url, version)
    answer = response.content.decode()
    assert 'id="history"' not in answer  # not the whole table of hands again
    assert len(re.findall(r"<tr\b", answer)) == 1 and re.search(r'<th scope="row">3</th>', answer)
    fresh = web.get(reverse("match", args=[match.pk])).content.decode()
    now = applied(before, answer)
    for part in (
        r'<tbody id="history-body">.*?</tbody>',
        r'<section id="totals".*?</section>',
        r'<div class="sheet-head".*?</div>\s*</details>\s*</div>',
    ):
        assert section(now, part) == section(fresh, part), part


@pytest.mark.parametrize("case", ["two behind", "an edit", "the first hand"])
def test_a_page_further_behind_gets_every_row(web, device, case):
    hands = [] if case == "the first hand" else [{"bids": [4, 5], "tricks": [7, 6]}]
    match, _phone, table7 = device(hands=hands)
    url, version = opened(web, match)
    if case == "two behind":
        play(match, {"bids": [3, 3], "tricks": [3, 10]}, actor=table7)
        play(match, {"bids": [2, 2], "tricks": [6, 7]}, actor=table7)
    elif case == "an edit":
        edit(match, 1, {"bids": [4, 5], "tricks": [6, 7]}, actor=table7)
    else:
        play(match, {"bids": [3, 3], "tricks": [3, 10]}, actor=table7)
    answer = ask(web, url, version).content.decode()
    assert 'id="history"' in answer and 'hx-swap-oob="afterbegin' not in answer


def test_a_tag_that_names_a_round_clock_at_a_match_without_one_is_answered_not_a_crash(web, device):
    """A forged or mixed-up If-None-Match ("<this version>/<a clock>-en") at a
    match that is no tournament table: told there is no clock, nothing else."""
    match, phone, _table7 = device()
    url, version = opened(phone, match)
    forged = f"{version_of(version)}/playing/2026-12-02T20:00:00+00:00/--en"
    response = phone.get(url, HTTP_IF_NONE_MATCH=f'"{forged}"', **HX)
    assert response.status_code == 200
    assert response["ETag"] == f'"{version}"'  # its real tag: the next poll is a 304
    assert ask(phone, url, version).status_code == 304
