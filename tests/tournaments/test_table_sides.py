"""A tournament table scored from its own phones with the other side
checking each hand (issue 25): a link per side, the last hand confirmed at
the table, the round completing by itself, and the table's links closing
for everything once it counts or is ended.

Spades to 100 (RULES.md 2): bid 10 and take 11 scores 101 (100 + 1 bag):
the match is over in one hand; bid 4 take 6 is 42, bid 3 take 7 is 34."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from scorekeeper.audit import Actor
from scorekeeper.models import AuditEvent, Hand, Match, Round, Tournament
from scorekeeper.tournaments import clock, ending, links, selectors

from ..conftest import HX, MODEL_BACKEND, basis, text_of
from ..matches.test_confirmation import card_form
from .helpers import make, publish_next, tables_of

pytestmark = pytest.mark.django_db

LAST = {"bids": [10, 2], "tricks": [11, 2]}  # Ann 101: over
ON = {"bids": [4, 3], "tricks": [6, 7]}  # 42 to 34


def phone(token: str) -> Client:
    client = Client(raise_request_exception=False)
    assert client.post(f"/l/{token}/").status_code == 302
    return client


def organiser_screen(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def save(on: Client, match: Match, entry: dict, **headers):
    match.refresh_from_db()
    form = {f"{k}_{i}": str(v) for k, values in entry.items() for i, v in enumerate(values)}
    return on.post(f"/matches/{match.pk}/hands/", {**form, **basis(match)}, **headers)


def check(on: Client, match: Match, number: int, verdict: str = "correct"):
    """The answer of the card the check page shows, or, where it shows none
    (this screen entered the hand), an answer as a current card would post it."""
    page = text_of(on.get(f"/matches/{match.pk}/hands/{number}/check/"))
    if "check-actions" in page:
        url, answer = card_form(page, verdict)
        return on.post(url, answer)
    answer = {"verdict": verdict, "version": str(fresh(match).version), "client_key": uuid.uuid4().hex}
    return on.post(f"/matches/{match.pk}/hands/{number}/check/", answer)


def state(match: Match, number: int) -> str:
    return Hand.objects.get(match=match, number=number).confirmation


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def event(organiser):
    """A Swiss of four with the other side's check on, round 1 published:
    two tables, each with its side A and side B phone."""
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2, confirm_hands=True)
    rnd = publish_next(t, organiser)
    tables = tables_of(rnd)
    tokens = links.table_tokens(rnd.pk)
    phones = {table.number: (phone(tokens[table.pk][0]), phone(tokens[table.pk][1])) for table in tables}
    return t, rnd, tables, phones


def test_each_side_has_its_own_link_and_the_other_side_checks_from_its_own_phone(event):
    t, rnd, tables, phones = event
    table = tables[0]
    side_a, side_b = phones[1]
    labels = sorted(table.match.access_links.values_list("label", "side"))
    assert labels == [(f"table 1, round 1, side A · {t.name}", 0), (f"table 1, round 1, side B · {t.name}", 1)]

    assert "Pass the phone: check hand 1" in text_of(save(side_a, table.match, ON, **HX))
    # Side B's sheet offers the check; side A's own sheet does not (its card does).
    match = table.match
    assert f"/matches/{match.pk}/hands/1/check/" in text_of(side_b.get(f"/matches/{match.pk}/"))
    other_screen_a = phone(links.table_tokens(rnd.pk)[table.pk][0])  # side A's code scanned again
    assert f"/matches/{match.pk}/hands/1/check/" not in text_of(other_screen_a.get(f"/matches/{match.pk}/"))
    refused = check(other_screen_a, match, 1)
    assert refused.status_code == 403 and "This screen entered hand 1" in text_of(refused)
    assert state(match, 1) == "pending"
    assert check(side_b, match, 1).status_code == 302
    assert state(match, 1) == "confirmed" and fresh(match).unconfirmed_hands == 0


def test_the_last_hand_is_checked_at_the_table_and_the_round_completes_by_itself(event, organiser):
    t, rnd, tables, phones = event
    first, second = tables
    answer = text_of(save(phones[1][0], first.match, LAST, **HX))
    assert "Pass the phone: check hand 1" in answer  # the card, after the match's last hand too
    assert 'id="entry-form"' not in answer and "/undo/" not in answer
    match = fresh(first.match)
    assert match.status == "finished" and match.links_closed_at is None and match.unconfirmed_hands == 1
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PLAYING  # it does not count yet

    # The other side answers from its own phone: the table counts, its links close.
    assert check(phones[1][1], first.match, 1).status_code == 302
    match = fresh(first.match)
    assert match.unconfirmed_hands == 0 and match.links_closed_at is not None
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PLAYING  # table 2 still plays

    # Table 2: the card on the phone that entered it, passed across.
    entered = save(phones[2][1], second.match, LAST, **HX)
    assert "Pass the phone: check hand 1" in text_of(entered)
    card = check(phones[2][1], second.match, 1)
    assert card.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE and rnd.completed_at is not None  # no organiser touched it
    assert AuditEvent.objects.filter(tournament=t, action=AuditEvent.Action.ROUND_COMPLETED).count() == 1
    dashboard = text_of(organiser_screen(organiser).get(f"/tournaments/{t.pk}/"))
    assert "Start round 2" in dashboard


def test_after_the_last_hand_the_links_may_only_check_and_correct_a_hand_marked_wrong(event):
    _t, _rnd, tables, phones = event
    match = tables[0].match
    side_a, side_b = phones[1]
    save(side_a, match, ON)
    save(side_a, match, LAST)  # hand 1 not yet checked ("Later"), hand 2 ends the match
    m = fresh(match)
    assert (m.status, m.unconfirmed_hands) == ("finished", 2)
    before = list(Hand.objects.filter(match=match).values_list("entry", "confirmation"))
    version = str(m.version)
    edit = {"bids_0": "4", "bids_1": "3", "tricks_0": "7", "tricks_1": "6", "version": version}
    for client in (side_a, side_b):
        assert client.post(f"/matches/{match.pk}/undo/", {"version": version}).status_code == 403
        assert client.get(f"/matches/{match.pk}/hands/1/edit/").status_code == 403
        assert client.post(f"/matches/{match.pk}/hands/1/edit/", edit).status_code == 403
        assert save(client, match, ON).status_code == 403
    assert list(Hand.objects.filter(match=match).values_list("entry", "confirmation")) == before

    # Side B says hand 1 is wrong; the table corrects it; side B confirms both.
    assert check(side_b, match, 1, "wrong").status_code == 302
    assert state(match, 1) == "disputed"
    edit["version"] = str(fresh(match).version)
    assert side_a.post(f"/matches/{match.pk}/hands/1/edit/", edit).status_code == 302
    assert state(match, 1) == "pending"
    assert Hand.objects.get(match=match, number=1).entry == {"bids": [4, 3], "tricks": [7, 6]}
    for number in (1, 2):
        assert check(side_b, match, number).status_code == 302
    m = fresh(match)
    assert m.unconfirmed_hands == 0 and m.links_closed_at is not None
    # It counts now: nothing more from the table, checks included.
    assert side_b.get(f"/matches/{match.pk}/hands/1/check/").status_code == 403


@pytest.mark.parametrize("how", ["ended by the director", "round ended by the clock"])
def test_a_table_ended_closes_its_links_for_checks_too_and_counts(event, organiser, how):
    t, rnd, tables, phones = event
    first, second = tables
    save(phones[1][0], first.match, ON)  # hand 1 waits for side B
    save(phones[2][0], second.match, LAST)  # over, waiting for side B
    actor = Actor.organiser(organiser)
    if how == "ended by the director":
        ending.end_table_early(table_id=first.pk, actor=actor)
        ending_check = check(phones[2][1], second.match, 1)  # the other table still checks
        assert ending_check.status_code == 302
    else:
        clock.end_round(round_id=rnd.pk, based_on=selectors.clock_stamp(rnd), actor=actor)
    for table in tables:
        m = fresh(table.match)
        assert m.links_closed_at is not None and (m.unconfirmed_hands == 0 or m.accepted_at is not None)
    before = list(Hand.objects.filter(match=first.match).values_list("confirmation", flat=True))
    page = phones[1][1].get(f"/matches/{first.match_id}/hands/1/check/")
    assert page.status_code == 403 and "This table has ended" in text_of(page)
    refused = phones[1][1].post(
        f"/matches/{first.match_id}/hands/1/check/",
        {"verdict": "correct", "version": str(fresh(first.match).version), "client_key": "k" * 32},
    )
    assert refused.status_code == 403
    assert list(Hand.objects.filter(match=first.match).values_list("confirmation", flat=True)) == before
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.COMPLETE  # every table counts: no organiser step


def test_a_finished_tournament_closes_every_link(organiser):
    t = make(organiser, ["Ann", "Bob"], rounds=1, confirm_hands=True)
    rnd = publish_next(t, organiser)
    (table,) = tables_of(rnd)
    side_a, side_b = (phone(token) for token in links.table_tokens(rnd.pk)[table.pk].values())
    save(side_a, table.match, LAST)
    assert check(side_b, table.match, 1).status_code == 302
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
    for client in (side_a, side_b):
        assert client.get(f"/matches/{table.match_id}/hands/1/check/").status_code == 403
        assert save(client, table.match, ON).status_code == 403


def test_who_entered_a_hand_is_kept_on_it_not_read_from_the_history(event):
    """A second screen of side A's link saving the edit page unchanged does
    not become the phone that entered the hand; changing it does, and
    then the first screen may not check it from its own sheet."""
    _t, rnd, tables, phones = event
    match = tables[0].match
    first_screen, side_b = phones[1]
    second_screen = phone(links.table_tokens(rnd.pk)[tables[0].pk][0])
    save(first_screen, match, ON)
    hand = Hand.objects.get(match=match, number=1)
    assert (hand.entered_by_link.side, hand.entry_key) == (0, hand.client_key)
    same = {"bids_0": "4", "bids_1": "3", "tricks_0": "6", "tricks_1": "7", "version": str(fresh(match).version)}
    assert second_screen.post(f"/matches/{match.pk}/hands/1/edit/", same).status_code == 302
    assert Hand.objects.get(pk=hand.pk).entry_key == hand.entry_key  # nothing changed, nobody new
    assert check(second_screen, match, 1).status_code == 403
    # The history's words cannot change who may check: the hand holds it.
    AuditEvent.objects.filter(match=match).update(action=AuditEvent.Action.MATCH_STARTED, link=None)
    assert check(second_screen, match, 1).status_code == 403
    changed = {**same, "tricks_0": "7", "tricks_1": "6", "version": str(fresh(match).version)}
    assert second_screen.post(f"/matches/{match.pk}/hands/1/edit/", changed).status_code == 302
    assert Hand.objects.get(pk=hand.pk).entry_key != hand.entry_key
    assert "Pass the phone: check hand 1" in text_of(second_screen.get(f"/matches/{match.pk}/"))
    assert check(first_screen, match, 1).status_code == 403  # same link, another screen
    assert check(side_b, match, 1).status_code == 302


def test_opening_the_dashboard_writes_nothing(event, organiser):
    t, rnd, tables, phones = event
    for table in tables:
        save(phones[table.number][0], table.match, LAST)
    screen = organiser_screen(organiser)
    rows = (AuditEvent.objects.count(), list(Round.objects.values_list("status", "completed_at")))
    for _ in range(2):
        assert screen.get(f"/tournaments/{t.pk}/").status_code == 200
        assert screen.get(f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/").status_code == 200
    assert (AuditEvent.objects.count(), list(Round.objects.values_list("status", "completed_at"))) == rows


def test_end_round_carries_the_clocks_stamp_and_then_the_clock_stops_everywhere(organiser):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], rounds=2, round_minutes=30)
    rnd = publish_next(t, organiser)
    first, second = tables_of(rnd)
    desk_url = f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/"
    mine, theirs = organiser_screen(organiser), organiser_screen(organiser)
    drawn = text_of(mine.get(desk_url))
    stamp = re.search(r'name="clock" value="([^"]+)"', drawn).group(1)
    # Another organiser adds 5 minutes; this desk, drawn before, presses End round.
    assert theirs.post(f"{desk_url[:-5]}clock/", {"action": "add", "clock": stamp}).status_code == 302
    stale = mine.post(f"{desk_url[:-5]}clock/", {"action": "end", "clock": stamp})
    assert stale.status_code == 409 and "The clock changed since this page was drawn" in text_of(stale)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PLAYING
    assert all(fresh(table.match).status == "in_progress" for table in (first, second))

    fresh_stamp = re.search(r'name="clock" value="([^"]+)"', text_of(mine.get(desk_url))).group(1)
    ended = mine.post(f"{desk_url[:-5]}clock/", {"action": "end", "clock": fresh_stamp})
    assert ended.status_code == 302
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.COMPLETE
    desk = text_of(mine.get(desk_url))
    assert 'value="pause"' not in desk and 'value="add"' not in desk and 'value="end"' not in desk
    assert "Start round 2" in desk and "data-clock-ends" not in desk and "Round clock" not in desk
    for url in (
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/standings/?big=1",
        f"/matches/{first.match_id}/",
    ):
        page = text_of(Client().get(url))
        assert "Time left in the round" not in page and "data-clock-ends" not in page, url
