"""Backups out: one match, one tournament, or everything, as JSON with a
schema version; one match's score sheet as CSV.

What is written is what cannot be worked out again: players, every hand as
entered, the bids in force, the tournaments with their entrants, rounds and
tables. Scores, winners and ratings are derived on import, never copied.
Scoring links and the history of changes are not exported: a link is a
secret that opens a table, and the history belongs to this server.
"""

from __future__ import annotations

import uuid
from collections import defaultdict

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..i18n import scorer_names
from ..models import Entrant, Hand, Match, Player, Round, Seat, Table, Tournament
from ..scoring import get_game, score_match
from ..tournaments.exports import csv_safe

SCHEMA = "scorekeeper-backup"
# 2: the backup's own id and each match's and tournament's uid (restoring a
# file again is recognised), copies marked, a paused clock's time left.
VERSION = 2


def _stamp(value):
    return value.isoformat() if value else None


def _uid(value):
    return str(value) if value else None


def export(matches: QuerySet[Match], tournaments: QuerySet[Tournament]) -> dict:
    """The backup of ``tournaments`` and ``matches`` (plus every match of
    those tournaments), in a bounded number of queries."""
    tournaments = list(tournaments.order_by("pk"))
    rounds = list(Round.objects.filter(tournament__in=tournaments).order_by("tournament_id", "number"))
    tables = list(Table.objects.filter(round__in=rounds).order_by("round_id", "number"))
    match_ids = set(matches.values_list("pk", flat=True)) | {t.match_id for t in tables}
    match_rows = list(Match.objects.filter(pk__in=match_ids).order_by("pk"))
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for match_id, position, player_id in Seat.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "position", "player_id"
    ):
        seats[match_id][position] = player_id
    hands: dict[int, list[dict]] = defaultdict(list)
    checks: dict[int, list[str]] = defaultdict(list)
    for match_id, entry, confirmation in (
        Hand.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "number")
        .values_list("match_id", "entry", "confirmation")
    ):
        hands[match_id].append(entry)
        checks[match_id].append(confirmation)
    entrants = list(Entrant.objects.filter(tournament__in=tournaments).order_by("tournament_id", "registered_at", "pk"))
    player_ids = {p for s in seats.values() for p in s.values()} | {e.player_id for e in entrants}
    player_ids |= {e.partner_id for e in entrants if e.partner_id is not None}
    for r in rounds:
        player_ids |= set(r.byes) | {p for table in r.proposal for p in table}
    ended_early = {t.match_id for t in tables if t.ended_early_at}
    by_round: dict[int, list[Table]] = defaultdict(list)
    for table in tables:
        by_round[table.round_id].append(table)
    by_tournament: dict[int, list[Round]] = defaultdict(list)
    for r in rounds:
        by_tournament[r.tournament_id].append(r)
    entrants_of: dict[int, list[Entrant]] = defaultdict(list)
    for e in entrants:
        entrants_of[e.tournament_id].append(e)
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "backup_id": str(uuid.uuid4()),
        "exported_at": timezone.now().isoformat(),
        "players": [
            {"id": pk, "name": name}
            for pk, name in Player.objects.filter(pk__in=player_ids).order_by("pk").values_list("pk", "name")
        ],
        "matches": [
            {
                "id": m.pk,
                "uid": str(m.uid),
                "copy_of": _uid(m.copy_of),
                "game": m.game,
                "options": m.options,
                "players": [seats[m.pk][i] for i in range(len(seats[m.pk]))],
                "hands": hands[m.pk],
                "bids_in_play": m.pending_bidding,
                "confirm_hands": m.confirm_hands,
                "confirmations": checks[m.pk],  # per hand: "", "pending", "confirmed" or "disputed"
                "accepted_at": _stamp(m.accepted_at),
                "corrected_at": _stamp(m.corrected_at),
                "abandoned": m.status == Match.Status.ABANDONED,
                "ended_early": m.pk in ended_early,
                "created_at": _stamp(m.created_at),
                "finished_at": _stamp(m.finished_at),
            }
            for m in match_rows
        ],
        "tournaments": [
            {
                "id": t.pk,
                "uid": str(t.uid),
                "copy_of": _uid(t.copy_of),
                "name": t.name,
                "game": t.game,
                "options": t.options,
                "format": t.format,
                "planned_rounds": t.planned_rounds,
                "round_minutes": t.round_minutes,
                "table_size": t.table_size,
                "seed": t.seed,
                "status": t.status,
                "public": t.is_public,
                "confirm_hands": t.confirm_hands,
                "seed_by_rating": t.seed_by_rating,
                "oh_hell_points": t.oh_hell_points,
                "entrants": [
                    {"player": e.player_id, "dropped_after_round": e.dropped_after_round}
                    | ({"partner": e.partner_id} if e.partner_id is not None else {})  # a pairs event
                    for e in entrants_of[t.pk]
                ],
                "rounds": [
                    {
                        "number": r.number,
                        "status": r.status,
                        "proposal": r.proposal,
                        "byes": r.byes,
                        "published_at": _stamp(r.published_at),
                        "ends_at": _stamp(r.ends_at),
                        "paused_remaining": r.paused_remaining,
                        "completed_at": _stamp(r.completed_at),
                        "tables": [
                            {
                                "number": table.number,
                                "match": table.match_id,
                                "ended_early_at": _stamp(table.ended_early_at),
                            }
                            for table in by_round[r.pk]
                        ],
                    }
                    for r in by_tournament[t.pk]
                ],
            }
            for t in tournaments
        ],
    }


def export_everything() -> dict:
    return export(Match.objects.all(), Tournament.objects.all())


def export_match(match: Match) -> dict:
    return export(Match.objects.filter(pk=match.pk), Tournament.objects.none())


def export_tournament(tournament: Tournament) -> dict:
    return export(Match.objects.none(), Tournament.objects.filter(pk=tournament.pk))


def sheet_csv_rows(match: Match) -> list[list]:
    """One match's score sheet: a row per hand with each player's (or
    side's) points and running total, then the totals."""
    entries = list(match.hands.order_by("number").values_list("entry", flat=True))
    result = score_match(match.engine_input(entries))
    names = [csv_safe(n) for n in scorer_names(get_game(match.game).spec, match.player_names)]
    rows = [
        [
            pgettext("CSV column", "hand"),
            *(_("%(name)s points") % {"name": n} for n in names),
            *(_("%(name)s total") % {"name": n} for n in names),
        ]
    ]
    for number, row in enumerate(result["hands"], start=1):
        rows.append([number, *row["points"], *row["totals"]])
    rows.append([pgettext("CSV row", "total"), *result["totals"], *([""] * len(names))])
    return rows
