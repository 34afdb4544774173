"""Tournament pages: thin views over scorekeeper.tournaments.

Organiser-only pages and every write check ``is_tournament_organiser`` here
(403 and nothing changed otherwise). The standings and pairings pages are
public when the tournament is (``Tournament.is_public``), else organisers
only. htmx requests get fragments (template partials)."""

from __future__ import annotations

import csv
import gzip
import logging
import threading
import time
from dataclasses import dataclass, field
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from .. import tournaments
from ..access import is_tournament_organiser, refuse
from ..forms import parse_options
from ..models import Entrant, Round, Table, Tournament
from ..qr import qr_svg
from ..scoring import GAMES, game_specs, get_game
from ..services import Actor, ServiceError

UNPROCESSABLE = 422  # a field is wrong
CONFLICT = 409  # the tournament is not in a state that allows it (a round is being played, ...)


def _status_for(error: ServiceError) -> int:
    return CONFLICT if error.code == "state" else UNPROCESSABLE


def organiser_only(view):
    """Loads the tournament (``pk``) and refuses anyone but its organisers."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_tournament_organiser(request.user, tournament):
            return refuse(request, _("Only the tournament's organisers can do this."))
        return view(request, tournament, *args, actor=Actor.for_request(request), **kwargs)

    return wrapper


def public_or_organiser(view):
    """Public pages of a public tournament; organisers only otherwise."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=pk)
        organiser = is_tournament_organiser(request.user, tournament)
        if not tournament.is_public and not organiser:
            return refuse(request, _("The organisers have not made this tournament's standings public."))
        return view(request, tournament, *args, is_organiser=organiser, **kwargs)

    return wrapper


# ------------------------------------------------------------------- list


@login_required
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": tournaments.tournaments_for(request.user)})


# -------------------------------------------------------------------- new


def _parse_int(data, name: str, errors: dict, label: str) -> int | None:
    raw = (data.get(name) or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        errors[name] = _("%(what)s: enter a whole number.") % {"what": label}
        return None


FIELD_FOR_CODE = {
    "name": "name",
    "game": "game",
    "format": "format",
    "rounds": "rounds",
    "round_minutes": "round_minutes",
    "table_size": "table_size",
    "options": "options",
}


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    game_id = data.get("game")
    if game_id not in GAMES:
        choices = [(spec, tournaments.formats_for(spec.id)) for spec in game_specs()]
        return render(request, "tournaments/new.html", {"games": choices, "spec": None})
    spec = get_game(game_id).spec
    parsed = parse_options(spec, data)
    formats = [
        (value, label) for value, label in Tournament.Format.choices if value in tournaments.formats_for(game_id)
    ]
    posted = request.method == "POST"
    context = {
        "spec": spec,
        "formats": formats,
        "values": {
            "name": data.get("name", ""),
            "format": data.get("format", formats[0][0]),
            "rounds": data.get("rounds", ""),
            "round_minutes": data.get("round_minutes", ""),
            "table_size": data.get("table_size", "4"),
            "is_public": (data.get("is_public") is not None) if posted else True,
        },
        "seated": tournaments.formats_for(game_id) == tournaments.SEATED_FORMATS,
        "options": [(o, parsed.values[o.name] if posted else o.default) for o in spec.options],
        "errors": {},
    }
    if not posted:
        return render(request, "tournaments/new.html", context)
    errors: dict[str, str] = dict(parsed.errors)
    rounds = _parse_int(data, "rounds", errors, _("Number of rounds"))
    minutes = _parse_int(data, "round_minutes", errors, _("Round time limit"))
    table_size = _parse_int(data, "table_size", errors, _("Preferred table size"))
    if errors:
        context["errors"] = errors
        return render(request, "tournaments/new.html", context, status=UNPROCESSABLE)
    try:
        tournament = tournaments.create_tournament(
            name=data.get("name", ""),
            game=game_id,
            format=data.get("format", ""),
            options=parsed.values,
            rounds=rounds,
            round_minutes=minutes,
            table_size=table_size,
            is_public=context["values"]["is_public"],
            actor=Actor.for_request(request),
        )
    except ServiceError as e:
        field = FIELD_FOR_CODE.get(e.code)
        if field:
            context["errors"] = {field: e.message}
        else:
            context["error"] = e.message
        return render(request, "tournaments/new.html", context, status=UNPROCESSABLE)
    messages.success(request, _("Tournament created. Register the players, then start round 1."))
    return redirect(tournament)


# -------------------------------------------------------------- dashboard


@require_GET
@organiser_only
def dashboard(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    tournaments.complete_rounds(tournament_id=tournament.pk, actor=actor)
    tournament.refresh_from_db()
    return _render_dashboard(request, tournament)


def _render_dashboard(
    request, tournament: Tournament, *, error: str | None = None, status: int = 200, names: str = ""
) -> HttpResponse:
    data = tournaments.load_tournament(tournament)
    entrants = [
        {**e, "can_drop": e["dropped_after_round"] is None and tournament.status != Tournament.Status.FINISHED}
        for e in data.entrants
    ]
    context = {
        "tournament": tournament,
        "data": data,
        "step": tournaments.next_step(data),
        "current": data.current_view,
        "entrants": entrants,
        "active_count": sum(1 for e in data.entrants if e["dropped_after_round"] is None),
        "can_register": tournaments.can_register(data),
        "error": error,
        "names": names,
        "now": timezone.now(),
    }
    return render(request, "tournaments/dashboard.html", context, status=status)


@require_POST
@organiser_only
def register(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    text = request.POST.get("names", "")
    try:
        result = tournaments.register_players(tournament_id=tournament.pk, text=text, actor=actor)
    except ServiceError as e:
        return _render_dashboard(request, tournament, error=e.message, status=_status_for(e), names=text)
    if result.added:
        messages.success(request, _("Registered: %(names)s.") % {"names": ", ".join(result.added)})
    if result.already:
        messages.info(request, _("Already registered: %(names)s.") % {"names": ", ".join(result.already)})
    if result.duplicates:
        messages.info(request, _("Given twice, registered once: %(names)s.") % {"names": ", ".join(result.duplicates)})
    if result.errors:
        messages.error(request, _("Not registered: %(names)s") % {"names": "; ".join(result.errors)})
    return redirect(tournament)


@require_POST
@organiser_only
def drop(request: HttpRequest, tournament: Tournament, entrant_id: int, actor: Actor) -> HttpResponse:
    entrant = get_object_or_404(Entrant, pk=entrant_id, tournament=tournament)
    try:
        tournaments.drop_entrant(tournament_id=tournament.pk, entrant_id=entrant.pk, actor=actor)
    except ServiceError as e:
        return _render_dashboard(request, tournament, error=e.message, status=_status_for(e))
    messages.success(
        request, _("%(name)s dropped: not paired again; results so far stay.") % {"name": entrant.player.name}
    )
    return redirect(tournament)


# ----------------------------------------------------------------- rounds


@require_POST
@organiser_only
def start_round(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    try:
        rnd = tournaments.propose_round(tournament_id=tournament.pk, actor=actor)
    except ServiceError as e:
        tournament.refresh_from_db()
        return _render_dashboard(request, tournament, error=e.message, status=_status_for(e))
    return redirect("tournament_round", tournament.pk, rnd.pk)


@require_GET
@organiser_only
def round_review(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    return _render_review(request, tournament, rnd)


def _render_review(request, tournament, rnd, *, error=None, status=200):
    if rnd.status != Round.Status.PROPOSED:
        return redirect("tournament_cards", tournament.pk)
    data = tournaments.load_tournament(tournament)
    names = data.names
    tables = [
        {"number": k, "seats": [(pid, names.get(pid, "?")) for pid in seats]}
        for k, seats in enumerate(rnd.proposal, start=1)
    ]
    byes = [(pid, names.get(pid, "?")) for pid in rnd.byes]
    choices = [
        (pid, _("%(name)s (table %(t)d, seat %(s)d)") % {"name": name, "t": table["number"], "s": seat})
        for table in tables
        for seat, (pid, name) in enumerate(table["seats"], start=1)
    ] + [(pid, _("%(name)s (bye)") % {"name": name}) for pid, name in byes]
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "byes": byes,
        "choices": choices,
        "error": error,
    }
    return render(request, "tournaments/round.html", context, status=status)


@require_POST
@organiser_only
def swap(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        a, b = int(request.POST.get("player_a", "")), int(request.POST.get("player_b", ""))
    except ValueError:
        return _render_review(request, tournament, rnd, error=_("Choose two players."), status=UNPROCESSABLE)
    try:
        tournaments.swap_players(round_id=rnd.pk, player_a=a, player_b=b, actor=actor)
    except ServiceError as e:
        rnd.refresh_from_db()
        return _render_review(request, tournament, rnd, error=e.message, status=_status_for(e))
    messages.success(request, _("Swapped."))
    return redirect("tournament_round", tournament.pk, rnd.pk)


@require_POST
@organiser_only
def publish(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        tokens = tournaments.publish_round(round_id=rnd.pk, actor=actor)
    except ServiceError as e:
        rnd.refresh_from_db()
        if rnd.status != Round.Status.PROPOSED:
            messages.error(request, e.message)
            return redirect(tournament)
        return _render_review(request, tournament, rnd, error=e.message, status=_status_for(e))
    tournaments.remember_tokens(request.session, rnd.pk, tokens)
    messages.success(
        request,
        _("Round %(n)d published. Print the table cards now: the links are shown only here.") % {"n": rnd.number},
    )
    return redirect(f"{reverse('tournament_cards', args=[tournament.pk])}?round={rnd.number}")


# ------------------------------------------------------------ table cards


@require_GET
@organiser_only
def table_cards(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    data = tournaments.load_tournament(tournament)
    rnd = data.current
    wanted = request.GET.get("round", "")
    if wanted.isdigit():
        rnd = next((r for r in data.published if r.number == int(wanted)), rnd)
    view = data.round_view(rnd)
    cards, missing = [], 0
    if view is not None:
        tokens = tournaments.active_tokens(rnd.pk, tournaments.session_tokens(request.session, rnd.pk))
        for table in view.tables:
            token = tokens.get(table.id)
            url = request.build_absolute_uri(reverse("open_link", args=[token])) if token else None
            missing += token is None
            cards.append({"table": table, "url": url, "qr": qr_svg(url) if url else None})
    context = {
        "tournament": tournament,
        "round": rnd,
        "view": view,
        "cards": cards,
        "missing": missing,
        "rounds": data.published,
    }
    return render(request, "tournaments/cards.html", context)


@require_POST
@organiser_only
def round_links(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    """Issue new links for all tables of a round (the old ones stop working)."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        tokens = tournaments.reissue_round_links(round_id=rnd.pk, actor=actor)
    except ServiceError as e:
        messages.error(request, e.message)
        return redirect(tournament)
    tournaments.remember_tokens(request.session, rnd.pk, tokens)
    messages.success(
        request, _("New links issued for all %(n)d tables; the old ones no longer work.") % {"n": len(tokens)}
    )
    return redirect(f"{reverse('tournament_cards', args=[tournament.pk])}?round={rnd.number}")


@require_POST
@organiser_only
def table_link(request: HttpRequest, tournament: Tournament, table_id: int, actor: Actor) -> HttpResponse:
    """``action=reissue`` (revoke and issue a new link) or ``action=revoke``."""
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_id, round__tournament=tournament)
    action = request.POST.get("action")
    if action == "revoke":
        count = tournaments.revoke_table_links(table_id=table.pk, actor=actor)
        messages.success(
            request,
            _("Table %(t)d: %(n)d link(s) revoked. No device can score it until you issue a new link.")
            % {"t": table.number, "n": count},
        )
        return redirect(tournament)
    if action != "reissue":
        return _render_dashboard(request, tournament, error=_("Unknown action."), status=UNPROCESSABLE)
    token = tournaments.reissue_table_link(table_id=table.pk, actor=actor)
    tournaments.remember_tokens(request.session, table.round_id, {table.pk: token})
    messages.success(request, _("Table %(t)d has a new link; the old one no longer works.") % {"t": table.number})
    return redirect(
        f"{reverse('tournament_cards', args=[tournament.pk])}?round={table.round.number}#table-{table.number}"
    )


@require_http_methods(["GET", "POST"])
@organiser_only
def end_table(request: HttpRequest, tournament: Tournament, table_id: int, actor: Actor) -> HttpResponse:
    """Confirm, then end a table's match now: the current totals decide."""
    table = get_object_or_404(Table.objects.select_related("round", "match"), pk=table_id, round__tournament=tournament)
    if request.method == "POST":
        try:
            tournaments.end_table_early(table_id=table.pk, actor=actor)
        except ServiceError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("Table %(t)d ended: the current totals decide.") % {"t": table.number})
        return redirect(tournament)
    data = tournaments.load_tournament(tournament)
    view = next((t for t in data.tables_by_round.get(table.round_id, []) if t.id == table.pk), None)
    leaders = []
    if view is not None and view.seats:
        best = max(s.total for s in view.seats)
        leaders = [s.name for s in view.seats if s.total == best]
    context = {
        "tournament": tournament,
        "table": table,
        "view": view,
        "leaders": leaders,
        "two_player": data.two_player,
        "now": timezone.now(),
    }
    return render(request, "tournaments/end_table.html", context)


# ----------------------------------------------------------- public pages


def _table_state(table, labels: dict[str, str]) -> str:
    if table.ended_early:
        return labels["ended"]
    if table.finished:
        return labels["finished"]
    return labels["live"] if table.is_open else labels["abandoned"]


CLASS_DROPPED = ' class="dropped"'
CLASS_WINNER = ' class="winner"'
CLASS_LIVE = ' class="is-live"'


@dataclass
class _StandingsMemo:
    """One tournament's standings as last worked out, as the page shows
    them: plain values and HTML, cheap to share between server processes."""

    stamp: tuple  # tournaments.standings_stamp when they were worked out
    page: dict  # what the page shows besides the HTML below (see _work_out_standings)
    rows_html: str
    live_html: str
    # The poll's answer, gzipped, ready to send: (big screen?) -> body.
    polls: dict[bool, bytes] = field(default_factory=dict)
    checked_at: float = 0.0  # time.time() of the last look at the database that found them current


_STANDINGS_MEMO: dict[int, _StandingsMemo] = {}  # this process's latest, by tournament id
_REBUILDING: dict[int, threading.Thread] = {}  # tournament id -> its refresh under way
_REBUILDING_LOCK = threading.Lock()
log = logging.getLogger(__name__)


def _standings_memo(tournament: Tournament) -> _StandingsMemo:
    """The standings and their HTML, worked out again only when something
    that can change them was written (tournaments.standings_stamp), and at
    most every STANDINGS_REFRESH_SECONDS: every screen in the room polls
    every 5 s, and during play some table saves a hand every moment.

    With STANDINGS_BACKGROUND_REFRESH a poll never waits for that work
    (80 ms at 500 tables, more under load): it gets the last standings while
    one thread per tournament gets the new ones for the next poll."""
    memo = _STANDINGS_MEMO.get(tournament.pk)
    if memo is None:
        return _refresh_standings(tournament)  # nothing to show yet: wait, once
    if _is_current(memo):
        return memo
    if not settings.STANDINGS_BACKGROUND_REFRESH:
        return _refresh_standings(tournament)
    with _REBUILDING_LOCK:
        if tournament.pk not in _REBUILDING:
            thread = threading.Thread(target=_refresh_in_background, args=(tournament,), daemon=True)
            _REBUILDING[tournament.pk] = thread
            thread.start()
    return memo


def _is_current(memo: _StandingsMemo | None) -> bool:
    """Looked at the database within the refresh window: good to show."""
    return memo is not None and time.time() - memo.checked_at < settings.STANDINGS_REFRESH_SECONDS


def _refresh_standings(tournament: Tournament) -> _StandingsMemo:
    """Current standings. One server process at a time looks at the
    database (a few small queries) and, only if something changed, works
    them out; it shares both what it saw and the standings, so the other
    processes just take them: a small read per refresh, a bigger one per
    change."""
    shared = caches["standings"]
    key, seen_key, busy_key = (f"standings-{tournament.pk}{part}" for part in ("", "-seen", "-busy"))
    mine = _STANDINGS_MEMO.get(tournament.pk)
    seen = shared.get(seen_key)  # (when, stamp) of the latest look, by any process
    looking = False  # this process looks at the database for all of them
    if seen is None or time.time() - seen[0] >= settings.STANDINGS_REFRESH_SECONDS:
        looking = shared.add(busy_key, True, timeout=30)
        if not looking and mine is not None:
            return mine  # another process is looking; what it finds will be shared
        if looking or seen is None:  # (None: the looking process has shared nothing yet)
            seen = (time.time(), tournaments.standings_stamp(tournament))
    try:
        if mine is None or mine.stamp != seen[1]:
            mine = shared.get(key)
            if mine is None or mine.stamp != seen[1]:  # not shared (yet, or any more): work them out here
                mine = _work_out_standings(tournament, seen[1])
                if looking:
                    shared.set(key, mine)
        if looking:
            shared.set(seen_key, seen)
    finally:
        if looking:
            shared.delete(busy_key)
    mine.checked_at = seen[0]
    _STANDINGS_MEMO[tournament.pk] = mine
    return mine


def _work_out_standings(tournament: Tournament, stamp: tuple) -> _StandingsMemo:
    result = tournaments.standings(tournament)
    view = result.data.current_view
    memo = _StandingsMemo(
        stamp=stamp,
        page={
            "public": tournament.is_public,  # polls skip the database while these are current
            "columns": list(result.columns),
            "two_player": result.data.two_player,
            "has_rows": bool(result.rows),
            "current": view
            and {
                "number": view.number,
                "finished_count": view.finished_count,
                "table_count": len(view.tables),
                "byes": list(view.byes),
            },
        },
        rows_html=standings_rows_html(result),
        live_html=live_tables_html(view),
    )
    # The poll's answer is the same for every screen: drawn and compressed
    # here, once per change, not once per screen (500 poll every 5 s).
    for big in (False, True):
        context = {**_page_context(tournament, memo, big), "poll": True}
        body = render_to_string("tournaments/standings.html#live", context).encode()
        memo.polls[big] = gzip.compress(body, compresslevel=6, mtime=0)
    return memo


def _page_context(tournament: Tournament, memo: _StandingsMemo, big: bool) -> dict:
    return {
        "tournament": tournament,
        "page": memo.page,
        "current": memo.page["current"],
        "big": big,
        "poll_url": reverse("tournament_standings", args=[tournament.pk]) + ("?big=1" if big else ""),
        "rows_html": memo.rows_html,
        "live_html": memo.live_html,
    }


def _refresh_in_background(tournament: Tournament) -> None:
    try:
        _refresh_standings(tournament)
    except Exception:  # the screens keep the last standings; the next poll tries again
        log.exception("Could not work out the standings of tournament %s", tournament.pk)
    finally:
        connections.close_all()  # this thread's own database connection
        with _REBUILDING_LOCK:
            _REBUILDING.pop(tournament.pk, None)


def standings_rows_html(result: tournaments.Standings) -> str:
    """The standings table's rows. Built in Python, not in the template: the
    page is polled every 5 seconds by every screen in the room, and the
    template engine takes most of a second for 1,000 rows. Names are
    escaped; everything else is a number."""
    two = result.data.two_player
    dropped = f' <span class="muted">({escape(_("dropped"))})</span>'
    out = []
    for r in result.rows:
        tiebreaks = "".join(f"<td>{'–' if v is None else v}</td>" for v in r.tiebreaks)
        extra = f"<td>{r.wins}–{r.draws}–{r.losses}</td><td>{r.byes}</td>" if two else ""
        row_class, note = (CLASS_DROPPED, dropped) if r.dropped else ("", "")
        out.append(
            f'<tr{row_class}><td class="rank">{r.rank}</td><th scope="row">{escape(r.name)}{note}</th>'
            f'<td class="mp">{r.match_points}</td>{tiebreaks}<td>{r.games_played}</td>{extra}</tr>'
        )
    return mark_safe("\n".join(out))  # names escaped above


def live_tables_html(view: tournaments.RoundView | None) -> str:
    """The current round's tables with their live totals (polled too)."""
    if view is None:
        return ""
    labels = {"ended": _("ended early"), "finished": _("finished"), "live": _("live"), "abandoned": _("abandoned")}
    labels = {k: escape(v) for k, v in labels.items()}
    table_label = _("Table %(t)d")
    out = []
    for table in view.tables:
        seats = "".join(
            f"<span{CLASS_WINNER if seat.winner else ''}>{escape(seat.name)} <b>{seat.total}</b></span>"
            for seat in table.seats
        )
        label = escape(table_label % {"t": table.number})
        out.append(
            f'<li{CLASS_LIVE if table.is_open else ""}><span class="live-table">{label}</span>'
            f'<span class="live-seats">{seats}</span><span class="muted">{_table_state(table, labels)}</span></li>'
        )
    return mark_safe("\n".join(out))  # names escaped above


@require_GET
@vary_on_headers("HX-Request")
def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A spectator's poll is answered from the standings this process holds
    while they are current, without the database: 500 screens poll every
    5 s. Everything else (the full page, organisers) goes the usual way."""
    if request.htmx and not request.user.is_authenticated:
        memo = _STANDINGS_MEMO.get(pk)
        if _is_current(memo) and memo.page["public"]:
            return _poll_response(request, memo, request.GET.get("big") == "1")
    return _standings_page(request, pk)


@public_or_organiser
def _standings_page(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    memo = _standings_memo(tournament)
    big = request.GET.get("big") == "1"
    if request.htmx:
        return _poll_response(request, memo, big)
    context = {**_page_context(tournament, memo, big), "is_organiser": is_organiser}
    return render(request, "tournaments/standings.html", context)


def _poll_response(request: HttpRequest, memo: _StandingsMemo, big: bool) -> HttpResponse:
    if "gzip" in request.headers.get("Accept-Encoding", ""):  # every browser
        response = HttpResponse(memo.polls[big])
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(memo.polls[big]))
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


@require_GET
@vary_on_headers("HX-Request")
@public_or_organiser
def pairings(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    data = tournaments.load_tournament(tournament)
    view = data.current_view
    query = (request.GET.get("q") or "").strip()[:60]
    tables, byes = tournaments.filter_tables(view, query)
    context = {
        "tournament": tournament,
        "view": view,
        "tables": tables,
        "byes": byes,
        "q": query,
        "is_organiser": is_organiser,
        "two_player": data.two_player,
    }
    template = "tournaments/pairings.html#results" if request.htmx else "tournaments/pairings.html"
    return render(request, template, context)


def _csv_response(rows, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow([tournaments.csv_safe(value) for value in row])
    return response


def _slug(tournament: Tournament) -> str:
    return slugify(tournament.name)[:50] or f"tournament-{tournament.pk}"


@require_GET
@public_or_organiser
def standings_csv(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    rows = tournaments.standings_csv_rows(tournaments.standings(tournament))
    return _csv_response(rows, f"{_slug(tournament)}-standings.csv")


@require_GET
@public_or_organiser
def results_csv(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    rows = tournaments.results_csv_rows(tournaments.load_tournament(tournament))
    return _csv_response(rows, f"{_slug(tournament)}-results.csv")
