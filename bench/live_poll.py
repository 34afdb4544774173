"""What the live sheet's poll costs the server, through Django, on a fresh
SQLite database (or DATABASE_URL if set to a PostgreSQL database you may fill).

Run:  .venv/bin/python bench/live_poll.py

An open score sheet asks GET /matches/<id>/changed/?basis=... every 3 s
(templates/matches/live_poll.html) with If-None-Match: the match version it
shows. At the 500-table event that is 550 table devices, so 183 polls a
second (69 at the 8 s of before). Builds a Spades match of 12 hands with a
table device holding its link, then the SQL queries and the server time
(median; every request through Django's WSGI handler as gunicorn would
send it, the app in production settings, bench/environment.py) of:

  (a) the poll answered 304: nothing changed (almost every poll);
  (b) the poll after a past hand was corrected elsewhere: 200, head, totals
      and hands out of band, the entry form kept;
  (c) the poll after a hand was saved elsewhere: 200, the entry panel too;
  (d) the whole sheet, as "Show the latest" used to reload it;
  (e) a tournament table's poll answered 304 (its tag carries the round's
      clock, read by the same query);
  (f) that poll after the director paused or resumed the round clock: 200,
      only the clock out of band;

next to a baseline measured in the same run (GET /login/), with the size of
the answer, and what (a) costs a second at 550 devices.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.environment import environment, measured_get  # noqa: E402

RUNS = 41
DEVICES = 550
EVERY = 3.0  # s, hx-trigger="every 3s"
HANDS = 12


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="scorekeeper-live-")
    try:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
        os.environ.update(environment())
        import django

        django.setup()
        from django.core.management import call_command
        from django.test.utils import override_settings

        call_command("migrate", verbosity=0)
        override_settings(STATIC_ROOT=f"{workdir}/static").enable()
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
        run()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run() -> None:
    from django.contrib.auth import get_user_model
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.http import HttpResponse
    from django.test import RequestFactory

    from scorekeeper.access.links import GRANT_COOKIE, grant
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor
    from scorekeeper.matches import services

    app = WSGIHandler()
    organiser = Actor.organiser(get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}"))
    match = services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={"target": 100000}, actor=organiser
    )
    for _ in range(HANDS):
        save_hand(match.pk, {"bids": [4, 5], "tricks": [6, 7]}, organiser)
    link, _token = issue_link(match_id=match.pk, label="table 7", actor=organiser)
    table7 = Actor.device(link)
    response = HttpResponse()
    grant(RequestFactory().get("/"), response, link)  # the link exchanged, as on the confirm page
    device = {"HTTP_COOKIE": f"{GRANT_COOKIE}={response.cookies[GRANT_COOKIE].value}", "HTTP_HX_REQUEST": "true"}

    def get(path: str, query: str = "", **extra) -> tuple[str, bytes, int, tuple[float, float]]:
        status, _h, body, queries, ms = measured_get(app, path, headers={**device, **extra}, query=query)
        return status, body, queries, ms

    sheet_url = f"/matches/{match.pk}/"
    poll_url = f"/matches/{match.pk}/changed/"

    def drawn() -> tuple[str, str]:
        """The poll of the sheet as now drawn: (its query string, the version it sends)."""
        status, body, _q, _ms = get(sheet_url, HTTP_HX_REQUEST="")
        assert status.startswith("200"), status
        page = body.decode()
        basis = re.search(r"changed/\?(basis=\w+)", page).group(1)
        version = re.search(r'If-None-Match": "\\"(\d+)-en\\""', page).group(1)
        return basis, version

    def login_page():
        status, body, queries, ms = get("/login/", HTTP_COOKIE="", HTTP_HX_REQUEST="")
        assert status.startswith("200"), status
        return queries, ms, len(body)

    for _ in range(3):
        login_page()
    figures = {"baseline GET /login/": measure(login_page)}

    basis, version = drawn()

    def unchanged():
        status, body, queries, ms = get(poll_url, basis, HTTP_IF_NONE_MATCH=f'"{version}-en"')
        assert status.startswith("304"), status
        return queries, ms, len(body)

    figures["(a) poll answered 304"] = measure(unchanged)

    def corrected():
        basis, version = drawn()
        entry = {"bids": [4, 5], "tricks": [6 + len(figures) % 2, 7 - len(figures) % 2]}
        services.edit_hand(match_id=match.pk, number=1, entry=entry, version=int(version), actor=table7)
        status, body, queries, ms = get(poll_url, basis, HTTP_IF_NONE_MATCH=f'"{version}-en"')
        assert status.startswith("200") and b'id="entry"' not in body, status
        return queries, ms, len(body)

    figures["(b) 200: a past hand corrected, form kept"] = measure(corrected, runs=15)

    def hand_saved():
        basis, version = drawn()
        save_hand(match.pk, {"bids": [4, 5], "tricks": [6, 7]}, table7)
        status, body, queries, ms = get(poll_url, basis, HTTP_IF_NONE_MATCH=f'"{version}-en"')
        assert status.startswith("200") and b'id="entry"' in body, status
        services.undo_last_hand(match_id=match.pk, version=int(version) + 1, actor=table7)  # the same size each time
        return queries, ms, len(body)

    figures["(c) 200: a hand saved, the entry replaced"] = measure(hand_saved, runs=15)

    def whole_sheet():
        status, body, queries, ms = get(sheet_url, HTTP_HX_REQUEST="")
        assert status.startswith("200"), status
        return queries, ms, len(body)

    figures["(d) the whole sheet (the old reload)"] = measure(whole_sheet, runs=15)
    tournament_table(get, figures)
    report(connection.vendor, figures)


def tournament_table(get, figures: dict) -> None:
    """(e) and (f): a Spades table of a Swiss round with a 30-minute clock."""
    from django.contrib.auth import get_user_model
    from django.http import HttpResponse
    from django.test import RequestFactory

    from scorekeeper.access.links import GRANT_COOKIE, grant
    from scorekeeper.access.services import issue_link
    from scorekeeper.audit import Actor
    from scorekeeper.models import Round, Table
    from scorekeeper.tournaments import clock, selectors, services

    actor = Actor.organiser(get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:8]}"))
    t = services.create_tournament(
        name="Bench night", game="spades", format="swiss", options={"target": 100000}, rounds=2,
        round_minutes=30, confirm_hands=False, actor=actor,
    )  # fmt: skip
    services.register_players(tournament_id=t.pk, text="Ann\nBob\nCat\nDan", actor=actor)
    rnd = services.propose_round(tournament_id=t.pk, actor=actor)
    services.publish_round(round_id=rnd.pk, actor=actor)
    table = Table.objects.filter(round=rnd).order_by("number").first()
    link, _token = issue_link(match_id=table.match_id, label="table 1", actor=actor)
    response = HttpResponse()
    grant(RequestFactory().get("/"), response, link)
    cookie = f"{GRANT_COOKIE}={response.cookies[GRANT_COOKIE].value}"
    status, body, _q, _ms = get(f"/matches/{table.match_id}/", HTTP_HX_REQUEST="", HTTP_COOKIE=cookie)
    page = body.decode()
    basis = re.search(r"changed/\?(basis=\w+)", page).group(1)
    tag = re.search(r'If-None-Match": "\\"([^\\]+)\\""', page).group(1)
    poll_url = f"/matches/{table.match_id}/changed/"

    def unchanged():
        status, body, queries, ms = get(poll_url, basis, HTTP_IF_NONE_MATCH=f'"{tag}"', HTTP_COOKIE=cookie)
        assert status.startswith("304"), status
        return queries, ms, len(body)

    figures["(e) a tournament table's poll answered 304"] = measure(unchanged)

    def clock_changed():  # the page's tag stays as drawn: each press is news to it
        fresh = Round.objects.get(pk=rnd.pk)
        action = "pause" if fresh.paused_remaining is None else "resume"
        clock.change_clock(round_id=rnd.pk, action=action, based_on=selectors.clock_stamp(fresh), actor=actor)
        status, body, queries, ms = get(poll_url, basis, HTTP_IF_NONE_MATCH=f'"{tag}"', HTTP_COOKIE=cookie)
        assert status.startswith("200") and b'id="round-clock"' in body and b"sheet-head" not in body, status
        return queries, ms, len(body)

    figures["(f) 200: the clock paused or resumed"] = measure(clock_changed, runs=15)


def save_hand(match_id: int, entry: dict, actor) -> None:
    from scorekeeper.matches.services import record_hand
    from scorekeeper.models import Match

    match = Match.objects.get(pk=match_id)
    record_hand(
        match_id=match_id,
        entry=entry,
        number=match.hands_played + 1,
        bidding_in_force=match.pending_bidding,
        client_key=uuid.uuid4().hex,
        actor=actor,
    )


def measure(request, runs: int = RUNS) -> tuple[int, float, float, int]:
    """(most queries, median wall ms, median CPU ms, size of the last answer in bytes)."""
    samples = [request() for _ in range(runs)]
    return (
        max(q for q, _ms, _b in samples),
        statistics.median(wall for _q, (wall, _cpu), _b in samples),
        statistics.median(cpu for _q, (_wall, cpu), _b in samples),
        samples[-1][2],
    )


def report(vendor: str, figures: dict) -> None:
    base = figures["baseline GET /login/"]
    print(f"The live sheet's poll, {vendor}; a Spades match of {HANDS} hands, a table device's cookie")
    print(f"server time: median of {RUNS} requests (15 for the 200s); CPU: this process's")
    print(f"  {'':44}  {'queries':>7}  {'ms':>6}  {'x base':>6}  {'CPU ms':>6}  {'kB':>6}")
    for case, (queries, ms, cpu, size) in figures.items():
        print(f"  {case:44}  {queries:>7}  {ms:>6.2f}  {ms / base[1]:>6.2f}  {cpu:>6.2f}  {size / 1024:>6.1f}")
    cpu_304 = figures["(a) poll answered 304"][2]
    for every in (8.0, EVERY):
        rate = DEVICES / every
        print(
            f"{DEVICES} devices polling every {every:g} s: {rate:.0f} polls/s, "
            f"{rate * cpu_304 / 1000:.2f} CPU cores at {cpu_304:.2f} ms each"
        )


if __name__ == "__main__":
    main()
