"""The two long lists of the standings page, built in Python: a row per
player and a line per table of the round, 1,500 of them at a 500-table
event. Drawn by the template engine, they made drawing the standings cost
about 150 ms of CPU at every change (every 3 s during play), and while one
process drew them the others' saved hands waited: at the 500-table event
on PostgreSQL the p99 of a saved hand was 220 ms drawing every 3 s and
86 ms drawing every 30 s (bench/load.py). Built here, the whole drawing
costs 26 ms (bench/standings_page.py). Every name is escaped; every other
value is a number or a label of ours."""

from __future__ import annotations

from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .selectors import RoundView, Standings, TableView, TournamentData

DASH = "–"
DROPPED, WINNER, LIVE = ' class="dropped"', ' class="winner"', ' class="is-live"'


def standings_rows(standings: Standings) -> SafeString:
    """The standings table's rows, best first."""
    two = standings.data.two_player
    dropped_word = _("dropped")  # out of the f-string, where makemessages finds it
    dropped = f' <span class="muted">({escape(dropped_word)})</span>'
    rows = []
    for r in standings.rows:
        tiebreaks = "".join(f"<td>{DASH if v is None else v}</td>" for v in r.tiebreaks)
        record = f"<td>{r.wins}–{r.draws}–{r.losses}</td><td>{r.byes}</td>" if two else ""
        rows.append(
            f'<tr{DROPPED if r.dropped else ""}><td class="rank">{r.rank}</td>'
            f'<th scope="row">{escape(r.name)}{dropped if r.dropped else ""}</th>'
            f'<td class="mp">{r.match_points}</td>{tiebreaks}<td>{r.games_played}</td>{record}</tr>'
        )
    return mark_safe("\n".join(rows))  # names escaped above


def live_tables(view: RoundView) -> SafeString:
    """A line per table of the round: its players, their totals, its state."""
    states = {
        "ended": escape(_("ended early")),
        "not_played": escape(_("not played")),
        "finished": escape(_("finished")),
        "live": escape(_("live")),
        "abandoned": escape(_("abandoned")),
        "unconfirmed": escape(_("over, not yet confirmed: counts when confirmed")),
    }
    corrected_words = _("corrected by the organiser")
    corrected = f' · <span class="corrected">{escape(corrected_words)}</span>'
    table_words = _("Table %(t)d")
    lines = []
    for table in view.tables:
        state = _state(table)
        seats = "".join(
            f"<span{WINNER if seat.winner else ''}>{escape(seat.name)} <b>{seat.total}</b></span>"
            for seat in table.seats
        )
        lines.append(
            f"<li{LIVE if table.is_open else ''}>"
            f'<span class="live-table">{escape(table_words % {"t": table.number})}</span>'
            f'<span class="live-seats">{seats}</span><span class="muted">{states[state]}'
            f"{corrected if table.corrected else ''}</span></li>"
        )
    return mark_safe("\n".join(lines))  # names escaped above


def _state(table: TableView) -> str:
    if table.awaiting_confirmation:
        return "unconfirmed"
    if table.not_played:
        return "not_played"
    if table.ended_early:
        return "ended"
    if table.finished:
        return "finished"
    return "live" if table.is_open else "abandoned"


def corrections(data: TournamentData) -> list[str]:
    """The results an organiser changed after they were over, every round:
    "round 2, table 3"."""
    return [
        _("round %(r)d, table %(t)d") % {"r": rnd.number, "t": table.number}
        for rnd in data.published
        for table in data.tables_by_round.get(rnd.pk, [])
        if table.corrected
    ]
