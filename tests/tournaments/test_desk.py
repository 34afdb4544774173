"""The director's desk (one round's tables as its organisers watch them)
and the round clock: the selector, the pages' permissions and polls, and
the clock's services (pause, +5 min, end the round)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.audit import Actor
from scorekeeper.errors import ServiceError
from scorekeeper.models import AuditEvent, Hand, Match, Round
from scorekeeper.tournaments import clock, ending, selectors

from ..conftest import HX, play, text_of
from .helpers import client_for, device_for, make, publish_next, tables_of

pytestmark = pytest.mark.django_db

NAMES = [f"Player {i}" for i in range(1, 9)]  # 4 tables of Spades


def four_tables(organiser, **kwargs):
    t = make(organiser, NAMES, **kwargs)
    rnd = publish_next(t, organiser)
    return t, rnd, tables_of(rnd)


def age(match: Match, minutes: int) -> None:
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=minutes))


# ---------------------------------------------------------------- selector


def test_the_desk_shows_each_table_its_hand_state_and_time_since_its_last_save(organiser):
    t, rnd, tables = four_tables(organiser, confirm_hands=True)
    play(tables[0].match, {"bids": [4, 3], "tricks": [5, 8]})
    play(tables[0].match, {"bids": [4, 3], "tricks": [4, 9]})
    play(tables[1].match, {"bids": [4, 3], "tricks": [5, 8]})
    age(tables[1].match, 14)
    ending.end_table_early(table_id=tables[2].pk, actor=Actor.organiser(organiser))
    Match.objects.filter(pk=tables[3].match_id).update(status=Match.Status.ABANDONED)
    rnd.refresh_from_db()

    with CaptureQueriesContext(connection) as queries:
        desk = selectors.desk(rnd)
    assert len(queries) == 2

    by_number = {d.number: d for d in desk.tables}
    assert [d.number for d in desk.tables] == [1, 2, 3, 4]
    assert (by_number[1].state, by_number[1].hand_on, by_number[1].minutes_since) == ("playing", 3, 0)
    assert by_number[1].names == tables[0].match.player_names and by_number[1].unconfirmed == 2
    assert (by_number[2].hand_on, by_number[2].minutes_since) == (2, 14)
    assert by_number[3].state == "ended early" and by_number[4].state == "abandoned"


def test_the_filters_not_started_slow_and_needs_me(organiser):
    t, rnd, tables = four_tables(organiser, confirm_hands=True)
    play(tables[0].match, {"bids": [4, 3], "tricks": [5, 8]})  # playing, saved just now
    play(tables[1].match, {"bids": [4, 3], "tricks": [5, 8]})
    age(tables[1].match, 12)  # slow
    age(tables[2].match, 3)  # not started, not slow yet
    play(tables[3].match, {"bids": [4, 3], "tricks": [5, 8]})
    Hand.objects.filter(match=tables[3].match).update(confirmation=Hand.Confirmation.DISPUTED)

    desk = selectors.desk(rnd, filter="not_started")
    assert [d.number for d in desk.tables] == [3]
    assert [d.number for d in selectors.desk(rnd, filter="slow").tables] == [2]
    needs = selectors.desk(rnd, filter="needs_me")
    assert [(d.number, d.disputed) for d in needs.tables] == [(4, 1)]
    assert desk.counts == {"all": 4, "not_started": 1, "slow": 1, "needs_me": 1}
    assert [d.number for d in selectors.desk(rnd, filter="nonsense").tables] == [1, 2, 3, 4]

    # Over by play with hands not yet confirmed: needs the organiser too (or the other side's check).
    play(tables[0].match, {"bids": [10, 2], "tricks": [11, 2]})
    assert [d.number for d in selectors.desk(rnd, filter="needs_me").tables] == [1, 4]
    # Ended by the director: it counts as it stands, nothing left to do.
    ending.end_table_early(table_id=tables[1].pk, actor=Actor.organiser(organiser))
    assert [d.number for d in selectors.desk(rnd, filter="needs_me").tables] == [1, 4]
    # Time up: every table still playing needs the organiser.
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(minutes=1))
    rnd.refresh_from_db()
    assert [d.number for d in selectors.desk(rnd, filter="needs_me").tables] == [1, 3, 4]


def test_the_round_clock_as_drawn(organiser):
    t = make(organiser, NAMES, round_minutes=30)
    rnd = publish_next(t, organiser)
    shown = selectors.round_clock(rnd, rnd.published_at + timedelta(minutes=5, seconds=30))
    assert (shown.remaining, shown.shown, shown.up, shown.paused) == (24 * 60 + 30, "24:30", False, False)
    late = selectors.round_clock(rnd, rnd.ends_at + timedelta(seconds=1))
    assert (late.remaining, late.up, late.shown) == (0, True, "0:00")
    untimed = publish_next(make(organiser, NAMES, name="No limit"), organiser)
    assert selectors.round_clock(untimed) is None


# -------------------------------------------------------------- the pages


def test_only_the_organisers_see_the_desk_and_press_the_clock(organiser, django_user_model):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    url = f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/"
    stranger = client_for(django_user_model.objects.create_user("stranger"))
    assert stranger.get(url).status_code == 403
    assert client_for().get(url).status_code in (302, 403)
    device = device_for(tables[0])
    assert device.get(url).status_code in (302, 403)
    ends = rnd.ends_at
    for who in (stranger, device):
        response = who.post(
            f"/tournaments/{t.pk}/rounds/{rnd.pk}/clock/", {"action": "end", "clock": selectors.clock_stamp(rnd)}
        )
        assert response.status_code in (302, 403) and response.status_code != 200
    rnd.refresh_from_db()
    assert rnd.ends_at == ends and Match.objects.filter(table__round=rnd, status="in_progress").count() == 4

    page = client_for(organiser).get(url)
    assert page.status_code == 200
    text = text_of(page)
    assert "Table 4" in text and "On hand 1" in text and "Time left in the round" in text
    dashboard = text_of(client_for(organiser).get(t.get_absolute_url()))
    assert url in dashboard


def test_the_desk_poll_answers_304_until_a_table_saves(organiser):
    t, rnd, tables = four_tables(organiser)
    client = client_for(organiser)
    url = f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/?show=not_started"
    first = client.get(url, **HX)
    assert first.status_code == 200 and 'id="desk-live"' in text_of(first)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HX).status_code == 304
    play(tables[0].match, {"bids": [4, 3], "tricks": [5, 8]})
    again = client.get(url, HTTP_IF_NONE_MATCH=etag, **HX)
    assert again.status_code == 200 and "Table 1" not in text_of(again) and "Table 2" in text_of(again)


# ----------------------------------------------------------- clock writes


def press(client, t, rnd, action, stamp=None):
    return client.post(
        f"/tournaments/{t.pk}/rounds/{rnd.pk}/clock/",
        {"action": action, "clock": stamp if stamp is not None else selectors.clock_stamp(rnd)},
    )


def test_pause_resume_and_add_time_each_refuse_a_repeated_press(organiser):
    t = make(organiser, NAMES, round_minutes=30)
    rnd = publish_next(t, organiser)
    client = client_for(organiser)
    stamp = selectors.clock_stamp(rnd)
    assert press(client, t, rnd, "pause", stamp).status_code == 302
    rnd.refresh_from_db()
    assert 29 * 60 <= rnd.paused_remaining <= 30 * 60
    paused = rnd.paused_remaining

    repeated = press(client, t, rnd, "pause", stamp)  # the same page pressed again
    assert repeated.status_code == 409 and "The clock changed since this page was drawn" in text_of(repeated)
    rnd.refresh_from_db()
    assert rnd.paused_remaining == paused

    assert press(client, t, rnd, "add").status_code == 302
    rnd.refresh_from_db()
    assert rnd.paused_remaining == paused + 5 * 60
    assert press(client, t, rnd, "resume").status_code == 302
    rnd.refresh_from_db()
    assert rnd.paused_remaining is None
    assert abs((rnd.ends_at - timezone.now()).total_seconds() - (paused + 300)) < 5
    before = rnd.ends_at
    clock.change_clock(
        round_id=rnd.pk, action="add", based_on=selectors.clock_stamp(rnd), actor=Actor.organiser(organiser)
    )
    rnd.refresh_from_db()
    assert rnd.ends_at == before + timedelta(minutes=5)
    actions = list(
        AuditEvent.objects.filter(tournament=t, action__startswith="round clock").order_by("pk").values_list("action")
    )
    assert actions == [("round clock pause",), ("round clock add",), ("round clock resume",), ("round clock add",)]


def test_time_added_after_the_time_is_up_counts_from_now(organiser):
    t = make(organiser, NAMES, round_minutes=30)
    rnd = publish_next(t, organiser)
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(minutes=20))
    rnd.refresh_from_db()
    clock.change_clock(
        round_id=rnd.pk, action="add", based_on=selectors.clock_stamp(rnd), actor=Actor.organiser(organiser)
    )
    rnd.refresh_from_db()
    assert 4 * 60 < (rnd.ends_at - timezone.now()).total_seconds() <= 5 * 60


def test_a_round_without_a_time_limit_has_no_clock_to_press(organiser):
    t, rnd, _tables = four_tables(organiser)
    with pytest.raises(ServiceError, match="no time limit"):
        clock.change_clock(
            round_id=rnd.pk, action="pause", based_on=selectors.clock_stamp(rnd), actor=Actor.organiser(organiser)
        )


def test_ending_the_round_ends_the_tables_still_playing_and_nothing_else(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    play(tables[0].match, {"bids": [4, 3], "tricks": [5, 8]})
    play(tables[1].match, {"bids": [10, 2], "tricks": [11, 2]})  # 101 to 20: over
    tables[1].match.refresh_from_db()
    assert tables[1].match.status == "finished"
    finished_before = Match.objects.get(pk=tables[1].match_id)
    client = client_for(organiser)

    response = press(client, t, rnd, "end")
    assert response.status_code == 302
    ended = {m.table.number: m for m in Match.objects.filter(table__round=rnd).select_related("table")}
    assert all(m.status == "finished" for m in ended.values())
    assert ended[1].hands_played == 1 and ended[1].winners == [0]
    assert ended[1].table.ended_early_at and ended[3].table.ended_early_at and ended[4].table.ended_early_at
    assert ended[2].table.ended_early_at is None  # it was over before: untouched
    assert (ended[2].version, ended[2].updated_at) == (finished_before.version, finished_before.updated_at)
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    assert AuditEvent.objects.filter(tournament=t, action="table ended early").count() == 3

    repeated = press(client, t, rnd, "end")
    assert repeated.status_code == 409 and "over already" in text_of(repeated)
    assert AuditEvent.objects.filter(tournament=t, action="table ended early").count() == 3


def test_the_sheet_and_the_standings_show_the_clock_and_time_up(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    client = client_for(organiser)
    sheet = text_of(client.get(f"/matches/{tables[0].match_id}/"))
    assert "Time left in the round" in sheet and 'data-clock-ends="' in sheet
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(seconds=5))
    sheet = text_of(client.get(f"/matches/{tables[0].match_id}/"))
    assert "Time is up: finish the hand in progress." in sheet
    assert "completed hands count, the totals decide" in sheet
    standings = text_of(client_for().get(f"/tournaments/{t.pk}/standings/"))
    assert "Time is up" in standings


def test_a_paused_clock_shows_paused_with_the_time_left_and_counts_no_more(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    client = client_for(organiser)
    Round.objects.filter(pk=rnd.pk).update(paused_remaining=12 * 60 + 5)
    desk = text_of(client.get(f"/tournaments/{t.pk}/rounds/{rnd.pk}/desk/"))
    assert "Round clock paused" in desk and "12:05 left" in desk and 'value="resume"' in desk
    sheet = text_of(client.get(f"/matches/{tables[0].match_id}/"))
    assert "12:05 left" in sheet and "data-clock-ends" not in sheet and "Time is up" not in sheet


# ------------------------------------------- the clock on pages already open


def test_an_open_sheets_poll_brings_a_pause_and_added_time(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    match_id = tables[0].match_id
    device = device_for(tables[0])
    page = text_of(device.get(f"/matches/{match_id}/"))
    tag = page.split('"If-None-Match": "\\"', 1)[1].split('\\""', 1)[0]
    url = f"/matches/{match_id}/changed/"
    with CaptureQueriesContext(connection) as nothing:
        assert device.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **HX).status_code == 304
    assert len(nothing) == 1  # still one query while nothing changed
    organiser_client = client_for(organiser)
    assert press(organiser_client, t, rnd, "pause").status_code == 302
    paused = device.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **HX)
    body = text_of(paused)
    # only the clock, out of band: the sheet's note and entry are left alone
    assert paused.status_code == 200 and paused["HX-Trigger"] == "round-clock"
    assert 'id="round-clock"' in body and 'hx-swap-oob="true"' in body and "Round clock paused" in body
    assert "29:" in body and "left" in body and "entry-form" not in body and "live-note" not in body
    # asked again with the answer's tag: nothing new
    assert device.get(url, HTTP_IF_NONE_MATCH=paused["ETag"], **HX).status_code == 304
    rnd.refresh_from_db()
    assert press(organiser_client, t, rnd, "add").status_code == 302  # paused + 5 min
    added = text_of(device.get(url, HTTP_IF_NONE_MATCH=paused["ETag"], **HX))
    assert "Round clock paused" in added and "34:" in added
    rnd.refresh_from_db()
    assert press(organiser_client, t, rnd, "resume").status_code == 302
    running = text_of(device.get(url, HTTP_IF_NONE_MATCH=paused["ETag"], **HX))
    assert "Time left in the round" in running and 'data-clock-ends="' in running and "paused" not in running


def test_a_saved_hand_and_the_clock_change_together_answer_the_whole_sheet(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    match_id = tables[0].match_id
    device = device_for(tables[0])
    first = device.get(f"/matches/{match_id}/changed/", HTTP_IF_NONE_MATCH='"0"', **HX)  # an old page
    play(tables[0].match, {"bids": [4, 3], "tricks": [5, 8]})
    assert press(client_for(organiser), t, rnd, "pause").status_code == 302
    answer = device.get(f"/matches/{match_id}/changed/", HTTP_IF_NONE_MATCH=first["ETag"], **HX)
    body = text_of(answer)
    assert answer.status_code == 200 and answer.get("HX-Trigger") != "round-clock"
    assert 'id="totals"' in body and 'id="sheet-head"' in body  # the sheet's parts
    assert "Round clock paused" in body  # and the clock with them


def test_the_standings_poll_brings_a_pause(organiser):
    t, rnd, tables = four_tables(organiser, round_minutes=30)
    screen = client_for()
    url = f"/tournaments/{t.pk}/standings/"
    first = screen.get(url, **HX)
    assert "Time left in the round" in text_of(first)
    assert screen.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HX).status_code == 304
    assert press(client_for(organiser), t, rnd, "pause").status_code == 302
    paused = screen.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HX)
    assert paused.status_code == 200 and "Round clock paused" in text_of(paused)
