"""The pages everyone may see while a tournament is public: standings
(polled by every screen in the room), "which table am I at?" and the CSV
exports. Organisers only when the tournament is private."""

from __future__ import annotations

import csv
import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.text import slugify
from django.utils.translation import get_language
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from ...access.decorators import public_or_organiser
from ...models import Round, Tournament
from ...polls import STANDINGS_VARY, not_modified, standings_answer, standings_tag
from .. import exports, selectors
from ..standings_cache import current_generation, drawn_standings, poll_answer
from ..standings_html import corrections, live_tables, standings_rows


@require_GET
@vary_on_headers("HX-Request")
@public_or_organiser
def standings_page(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    """The standings and the current round's tables. The screens poll every
    5 s (htmx) with the ETag of the fragment they show: unchanged standings
    answer 304 (from the cache alone while the generation is fresh: polls).
    Drawn once per change (standings_cache). The whole page is always drawn
    around them (it carries a CSRF token)."""
    big = request.GET.get("big") == "1"
    generation = current_generation(tournament, lambda: _draw(tournament))
    tag = standings_tag(generation, big, get_language())  # drawn in one language: see standings_cache
    etag = quote_etag(tag)
    if request.htmx and get_conditional_response(request, etag=etag) is not None:
        return not_modified(tag, STANDINGS_VARY)  # as the cache answers it before this view (polls)
    context = {
        "tournament": tournament,
        "is_organiser": is_organiser,
        "big": big,
        "poll_url": reverse("tournament_standings", args=[tournament.pk]) + ("?big=1" if big else ""),
        "poll_headers": json.dumps({"If-None-Match": etag}),
    }

    def drawn() -> dict:
        return {
            **context,
            "standings_html": drawn_standings(tournament, generation, lambda: _draw(tournament)),
            # The round clock, counted down in the browser (a pause, added time: a new generation).
            "current_round": Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING)
            .order_by("-number")
            .first(),
        }

    if not request.htmx:
        return render(request, "tournaments/standings.html", drawn())
    body = poll_answer(
        tournament, generation, big, lambda: render_to_string("tournaments/standings.html#live", drawn())
    )
    # As the middleware sends it while the generation is fresh (polls.answer_unchanged_polls).
    return standings_answer(body, tag, "gzip" in request.headers.get("Accept-Encoding", ""))


def _draw(tournament: Tournament) -> str:
    result = selectors.standings(tournament)
    view = result.data.current_view
    context = {
        "tournament": tournament,
        "result": result,
        "view": view,
        "rows": standings_rows(result),
        "tables": live_tables(view) if view else "",
        "corrections": corrections(result.data),
        # Over: "Final standings" and who won (the players ranked first).
        "winners": [r.name for r in result.rows if r.rank == 1 and not r.dropped]
        if tournament.status == Tournament.Status.FINISHED
        else [],
    }
    return render_to_string("tournaments/standings_table.html", context)


@require_GET
@vary_on_headers("HX-Request")
@public_or_organiser
def pairings(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    data = selectors.load_tournament(tournament)
    view = data.current_view
    query = (request.GET.get("q") or "").strip()[:60]
    tables, byes = selectors.filter_tables(view, query)
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


@require_GET
@public_or_organiser
def standings_csv(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    rows = exports.standings_csv_rows(selectors.standings(tournament))
    return _csv_response(rows, f"{_slug(tournament)}-standings.csv")


@require_GET
@public_or_organiser
def results_csv(request: HttpRequest, tournament: Tournament, is_organiser: bool) -> HttpResponse:
    rows = exports.results_csv_rows(selectors.load_tournament(tournament))
    return _csv_response(rows, f"{_slug(tournament)}-results.csv")


def _csv_response(rows, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow([exports.csv_safe(value) for value in row])
    return response


def _slug(tournament: Tournament) -> str:
    return slugify(tournament.name)[:50] or f"tournament-{tournament.pk}"
