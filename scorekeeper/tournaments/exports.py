"""CSV exports of a tournament: standings and every result."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..models import Match, Tournament
from ..pairing import table_places
from ..pairing.standings import BYE_POINTS, DRAW_POINTS, LOSS_POINTS, WIN_POINTS
from .selectors import Standings, TournamentData, number_shown


def standings_csv_rows(result: Standings) -> list[list[Any]]:
    two = result.data.two_player
    header = [_("Rank"), _("Player"), result.points_label, *result.columns, _("Games played")]
    if two:
        header += [_("Wins"), _("Draws"), _("Losses"), _("Byes")]
    header.append(_("Dropped after round"))
    rows = [header]
    for r in result.rows:
        row = [r.rank, r.name, r.match_points, *("" if v is None else v for v in r.tiebreaks), r.games_played]
        if two:
            row += [r.wins, r.draws, r.losses, r.byes]
        row.append("" if r.dropped_after_round is None else r.dropped_after_round)
        rows.append(row)
    return rows


def results_csv_rows(data: TournamentData) -> list[list[Any]]:
    """One row per table per player (and one per bye), every published round.
    "Match points" is what the row adds to the standings' first figure: an
    Oh Hell event ranked by total score adds the score."""
    by_score = data.tournament.oh_hell_points == Tournament.OhHellPoints.TOTAL_SCORE
    rows = [[_("Round"), _("Table"), _("Seat"), _("Player"), _("Score"), _("Result"), _("Match points"), _("Status")]]
    for rnd in data.published:
        for table in data.tables_by_round.get(rnd.pk, []):
            status = (
                _("ended early")
                if table.ended_early
                else {
                    Match.Status.FINISHED: _("finished"),
                    Match.Status.IN_PROGRESS: _("in progress"),
                    Match.Status.ABANDONED: _("abandoned"),
                }.get(table.status, table.status)
            )
            if table.awaiting_confirmation:
                status = _("finished, not yet confirmed")
            elif table.corrected:
                status = _("%(status)s, corrected by the organiser") % {"status": status}
            places = table_places([s.total for s in table.seats]) if not data.two_player else None
            for pos, seat in enumerate(table.seats):
                result, points = "", ""
                if table.counts and table.not_played:
                    result, points = _("not played"), 0
                elif table.counts and data.two_player:
                    if len(table.winners) == 1:
                        won = table.winners[0] == pos
                        result, points = (_("win"), WIN_POINTS) if won else (_("loss"), LOSS_POINTS)
                    else:
                        result, points = _("draw"), DRAW_POINTS
                elif table.counts:
                    pts, place = places[pos]
                    result = _("place %(p)s") % {"p": number_shown(place)}
                    points = seat.total if by_score else number_shown(pts)
                rows.append([rnd.number, table.number, pos + 1, seat.name, seat.total, result, points, status])
        for pid in rnd.byes:
            rows.append([rnd.number, "", "", data.names.get(pid, "?"), "", _("bye"), BYE_POINTS, ""])
    return rows


def csv_safe(value: Any) -> Any:
    """Keep a spreadsheet from running a name as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
