"""The load benchmark's event, on the Django side: build it, and read back
what the database holds. Run by bench/load.py in a child process with the
run's environment (DATABASE_URL, DJANGO_SETTINGS_MODULE, SECRET_KEY):

    python -m bench.event build OUT.json TABLES SECOND_DEVICES
    python -m bench.event stored OUT.json

``build``: an organiser, a Swiss Spades tournament of 2 x TABLES players
(a target nobody reaches, so no match ends), round 1 published (one match
and one scoring link per table), and each table's device holding its link:
the link exchanged with ``scorekeeper.access.links.grant``, as the confirm
page's POST does. SECOND_DEVICES tables get a second device. Writes
``{"standings": path, "tables": [{"match": id, "grants": [cookie, ...]}]}``.

``stored``: every hand (match, number, client_key) and each match's
hands_played.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path

HUGE_TARGET = 1_000_000_000  # no match ends during a run


def build(out: Path, tables: int, second_devices: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.urls import reverse

    from scorekeeper.access.links import GRANT_COOKIE, find_link, grant
    from scorekeeper.audit import Actor
    from scorekeeper.models import Table
    from scorekeeper.tournaments import services

    user = get_user_model().objects.create_superuser("bench-organiser", password=secrets.token_urlsafe(24))
    actor = Actor.organiser(user)
    tournament = services.create_tournament(
        name="Load test open", game="spades", format="swiss", options={"target": HUGE_TARGET}, rounds=8, actor=actor
    )
    names = [f"Player {i:04d}" for i in range(1, 2 * tables + 1)]
    for start in range(0, len(names), services.MAX_NAMES_AT_ONCE):
        chunk = "\n".join(names[start : start + services.MAX_NAMES_AT_ONCE])
        services.register_players(tournament_id=tournament.pk, text=chunk, actor=actor)
    round_ = services.propose_round(tournament_id=tournament.pk, actor=actor)
    tokens = services.publish_round(round_id=round_.pk, actor=actor)

    def exchange(token: str) -> str:
        response = HttpResponse()
        grant(RequestFactory().get("/"), response, find_link(token))
        return response.cookies[GRANT_COOKIE].value

    rows = []
    for k, (table_id, match_id) in enumerate(
        Table.objects.filter(round=round_).order_by("number").values_list("pk", "match_id")
    ):
        devices = 2 if k < second_devices else 1
        # The first device holds side A's link, a second one side B's (the other side's phone).
        rows.append({"match": match_id, "grants": [exchange(tokens[table_id][side]) for side in range(devices)]})
    if connection.vendor == "postgresql":
        # Statistics of the tables just filled, as autovacuum would gather
        # them before a real event (without them the planner scans).
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    standings = reverse("tournament_standings", args=[tournament.pk])
    out.write_text(json.dumps({"standings": standings, "tables": rows}))


def stored(out: Path) -> None:
    from scorekeeper.models import Hand, Match

    out.write_text(
        json.dumps(
            {
                "hands": list(Hand.objects.values_list("match_id", "number", "client_key")),
                "hands_played": list(Match.objects.values_list("pk", "hands_played")),
            }
        )
    )


if __name__ == "__main__":
    import django

    django.setup()
    command, path, *numbers = sys.argv[1:]
    {"build": build, "stored": stored}[command](Path(path), *map(int, numbers))
