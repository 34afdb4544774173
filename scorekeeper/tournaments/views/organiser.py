"""The organiser's pages of a tournament: create, register, drop, rounds
(propose, swap, publish), table cards and links, ending a table early.
Every view checks ``tournament_organiser_required`` (403 and nothing
changed otherwise)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from ...access.decorators import tournament_organiser_required
from ...access.qr import phone_url, qr_svg
from ...audit import Actor
from ...errors import Refusal, ServiceError
from ...i18n import listed, shown_spec, shown_specs
from ...matches.forms import parse_options
from ...matches.wording import side_letter
from ...models import Entrant, Round, Table, Tournament
from ...numbers import plain_int, typed
from ...scoring import GAMES, get_game
from .. import clock, ending, links, selectors, services
from ..formats import SEATED_FORMATS, formats_for


@login_required
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": selectors.tournaments_for(request.user)})


# -------------------------------------------------------------------- new


def _parse_int(data, name: str, errors: dict, label: str) -> int | None:
    raw = typed(data.get(name))
    if not raw:
        return None
    number = plain_int(raw)
    if number is None:
        errors[name] = _("%(what)s: enter a whole number.") % {"what": label}
    return number


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    game_id = data.get("game")
    if game_id not in GAMES:
        choices = [(spec, formats_for(spec.id)) for spec in shown_specs()]
        return render(request, "tournaments/new.html", {"games": choices, "spec": None})
    spec = shown_spec(get_game(game_id).spec)
    parsed = parse_options(spec, data)
    formats = [(value, label) for value, label in Tournament.Format.choices if value in formats_for(game_id)]
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
            "confirm_hands": (data.get("confirm_hands") is not None) if posted else True,
            "seed_by_rating": (data.get("seed_by_rating") is not None) if posted else False,
            "oh_hell_points": data.get("oh_hell_points", Tournament.OhHellPoints.PLACEMENT),
        },
        "oh_hell_points": Tournament.OhHellPoints.choices,
        "seated": formats_for(game_id) == SEATED_FORMATS,
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
        return render(request, "tournaments/new.html", context, status=Refusal.INVALID.status)
    try:
        tournament = services.create_tournament(
            name=data.get("name", ""),
            game=game_id,
            format=data.get("format", ""),
            options=parsed.values,
            rounds=rounds,
            round_minutes=minutes,
            table_size=table_size,
            is_public=context["values"]["is_public"],
            confirm_hands=context["values"]["confirm_hands"],
            seed_by_rating=context["values"]["seed_by_rating"],
            oh_hell_points=context["values"]["oh_hell_points"],
            actor=Actor.organiser(request.user),
        )
    except ServiceError as e:
        field = e.field
        if field:
            context["errors"] = {field: e.message}
        else:
            context["error"] = e.message
        return render(request, "tournaments/new.html", context, status=Refusal.INVALID.status)
    messages.success(request, _("Tournament created. Register the players, then start round 1."))
    return redirect(tournament)


# -------------------------------------------------------------- dashboard


@require_GET
@tournament_organiser_required
def dashboard(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    return _render_dashboard(request, tournament)


def _render_dashboard(
    request, tournament: Tournament, *, error: str | None = None, status: int = 200, names: str = ""
) -> HttpResponse:
    data = selectors.load_tournament(tournament)
    entrants = [
        {**e, "can_drop": e["dropped_after_round"] is None and tournament.status != Tournament.Status.FINISHED}
        for e in data.entrants
    ]
    context = {
        "tournament": tournament,
        "data": data,
        "step": selectors.next_step(data),
        "current": data.current_view,
        "entrants": entrants,
        "active_count": sum(1 for e in data.entrants if e["dropped_after_round"] is None),
        "can_register": selectors.can_register(data),
        "error": error,
        "names": names,
        "now": timezone.now(),
    }
    return render(request, "tournaments/dashboard.html", context, status=status)


@require_POST
@tournament_organiser_required
def register(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    text = request.POST.get("names", "")
    try:
        result = services.register_players(tournament_id=tournament.pk, text=text, actor=actor)
    except ServiceError as e:
        return _render_dashboard(request, tournament, error=e.message, status=e.status, names=text)
    if result.added:
        messages.success(request, _("Registered: %(names)s.") % {"names": listed(result.added)})
    if result.already:
        messages.info(request, _("Already registered: %(names)s.") % {"names": listed(result.already)})
    if result.duplicates:
        messages.info(request, _("Given twice, registered once: %(names)s.") % {"names": listed(result.duplicates)})
    if result.errors:
        messages.error(request, _("Not registered: %(names)s") % {"names": "; ".join(result.errors)})
    return redirect(tournament)


@require_POST
@tournament_organiser_required
def drop(request: HttpRequest, tournament: Tournament, entrant_id: int, actor: Actor) -> HttpResponse:
    entrant = get_object_or_404(Entrant, pk=entrant_id, tournament=tournament)
    try:
        services.drop_entrant(tournament_id=tournament.pk, entrant_id=entrant.pk, actor=actor)
    except ServiceError as e:
        return _render_dashboard(request, tournament, error=e.message, status=e.status)
    messages.success(
        request, _("%(name)s dropped: not paired again; results so far stay.") % {"name": entrant.player.name}
    )
    return redirect(tournament)


# ----------------------------------------------------------------- rounds


@require_POST
@tournament_organiser_required
def start_round(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    try:
        rnd = services.propose_round(tournament_id=tournament.pk, actor=actor)
    except ServiceError as e:
        tournament.refresh_from_db()
        return _render_dashboard(request, tournament, error=e.message, status=e.status)
    return redirect("tournament_round", tournament.pk, rnd.pk)


@require_GET
@tournament_organiser_required
def round_review(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    return _render_review(request, tournament, rnd)


def _render_review(request, tournament, rnd, *, error=None, status=200):
    if rnd.status != Round.Status.PROPOSED:
        return redirect("tournament_cards", tournament.pk)
    data = selectors.load_tournament(tournament)
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
@tournament_organiser_required
def swap(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    a, b = plain_int(request.POST.get("player_a")), plain_int(request.POST.get("player_b"))
    if a is None or b is None:
        return _render_review(request, tournament, rnd, error=_("Choose two players."), status=Refusal.INVALID.status)
    try:
        services.swap_players(round_id=rnd.pk, player_a=a, player_b=b, actor=actor)
    except ServiceError as e:
        rnd.refresh_from_db()
        return _render_review(request, tournament, rnd, error=e.message, status=e.status)
    messages.success(request, _("Swapped."))
    return redirect("tournament_round", tournament.pk, rnd.pk)


@require_POST
@tournament_organiser_required
def publish(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        services.publish_round(round_id=rnd.pk, actor=actor)
    except ServiceError as e:
        rnd.refresh_from_db()
        if rnd.status != Round.Status.PROPOSED:
            messages.error(request, e.message)
            return redirect(tournament)
        return _render_review(request, tournament, rnd, error=e.message, status=e.status)
    messages.success(request, _("Round %(n)d published. Print the table cards.") % {"n": rnd.number})
    return redirect(f"{reverse('tournament_cards', args=[tournament.pk])}?round={rnd.number}")


# ------------------------------------------------------------ table cards


@never_cache  # the tables' links and QR codes: kept by no browser or proxy
@require_GET
@tournament_organiser_required
def table_cards(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponse:
    data = selectors.load_tournament(tournament)
    rnd = data.current
    wanted = plain_int(request.GET.get("round"))
    if wanted is None and typed(request.GET.get("round")):
        return HttpResponseBadRequest(
            _("The round in the address is not a number: open the table cards from the tournament's page."),
            content_type="text/plain; charset=utf-8",
        )
    if wanted is not None:
        rnd = next((r for r in data.published if r.number == wanted), rnd)
    view = data.round_view(rnd)
    cards, missing = [], 0
    if view is not None:
        tokens = links.table_tokens(rnd.pk)  # worked out from SECRET_KEY: kept nowhere
        request.session.pop("table_tokens", None)  # kept there before 0005: working no more, dropped
        for table in view.tables:
            sides = []
            for side in links.SIDES:
                token = tokens.get(table.id, {}).get(side)
                url = phone_url(request, reverse("open_link", args=[token])) if token else None
                # Whose phone scans it: at a table of two, each player's; else any two phones, A and B.
                who = table.seats[side].name if len(table.seats) == 2 else None
                sides.append(
                    {"letter": side_letter(side), "who": who, "url": url, "qr": qr_svg(url, scale=3) if url else None}
                )
            missing += any(s["url"] is None for s in sides)
            cards.append({"table": table, "sides": sides})
    context = {
        "tournament": tournament,
        "round": rnd,
        "view": view,
        "cards": cards,
        "missing": missing,
        "pairs": data.pairs,
        "rounds": data.published,
        "spec": shown_spec(get_game(tournament.game).spec),  # what seat 1 does first, in the game's words
    }
    return render(request, "tournaments/cards.html", context)


@require_POST
@tournament_organiser_required
def round_links(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    """Issue new links for all tables of a round (the old ones stop working)."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    try:
        tokens = links.reissue_round_links(round_id=rnd.pk, actor=actor)
    except ServiceError as e:
        messages.error(request, e.message)
        return redirect(tournament)
    messages.success(
        request, _("New links issued for all %(n)d tables; the old ones no longer work.") % {"n": len(tokens)}
    )
    return redirect(f"{reverse('tournament_cards', args=[tournament.pk])}?round={rnd.number}")


@require_POST
@tournament_organiser_required
def table_link(request: HttpRequest, tournament: Tournament, table_id: int, actor: Actor) -> HttpResponse:
    """``action=reissue`` (revoke and issue a new link) or ``action=revoke``."""
    table = get_object_or_404(Table.objects.select_related("round"), pk=table_id, round__tournament=tournament)
    action = request.POST.get("action")
    if action == "revoke":
        count = links.revoke_table_links(table_id=table.pk, actor=actor)
        messages.success(
            request,
            ngettext(
                "Table %(t)d: %(n)d link revoked. No device can score it until you issue a new link.",
                "Table %(t)d: %(n)d links revoked. No device can score it until you issue a new link.",
                count,
            )
            % {"t": table.number, "n": count},
        )
        return redirect(tournament)
    if action != "reissue":
        return _render_dashboard(request, tournament, error=_("Unknown action."), status=Refusal.INVALID.status)
    links.reissue_table_link(table_id=table.pk, actor=actor)
    messages.success(request, _("Table %(t)d has new links; the old ones no longer work.") % {"t": table.number})
    return redirect(
        f"{reverse('tournament_cards', args=[tournament.pk])}?round={table.round.number}#table-{table.number}"
    )


@require_http_methods(["GET", "POST"])
@tournament_organiser_required
def end_table(request: HttpRequest, tournament: Tournament, table_id: int, actor: Actor) -> HttpResponse:
    """Confirm, then end a table's match now: the current totals decide."""
    table = get_object_or_404(Table.objects.select_related("round", "match"), pk=table_id, round__tournament=tournament)
    if request.method == "POST":
        try:
            ending.end_table_early(table_id=table.pk, actor=actor)
        except ServiceError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, _("Table %(t)d ended: the current totals decide.") % {"t": table.number})
        return redirect(tournament)
    data = selectors.load_tournament(tournament)
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


# --------------------------------------------------------- director's desk


DESK_POLL_SECONDS = 5
DESK_FILTERS = (
    ("all", gettext_lazy("All tables")),
    ("not_started", gettext_lazy("Not started")),
    ("slow", gettext_lazy("Slow")),
    ("needs_me", gettext_lazy("Needs me")),
)


@require_GET
@vary_on_headers("HX-Request")
@tournament_organiser_required
def desk(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    """Every table of a round as its organisers watch it, filtered by
    ``?show=`` (not_started, slow, needs_me). Polled every 5 s (htmx) with
    the ETag of what it shows: 304 while no table was saved, the clock did
    not change and the minute did not turn (the "4 min ago")."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    if rnd.status == Round.Status.PROPOSED:
        return redirect("tournament_round", tournament.pk, rnd.pk)
    return _render_desk(request, tournament, rnd)


def _render_desk(request, tournament: Tournament, rnd: Round, *, error: str | None = None, status: int = 200):
    show = request.GET.get("show") or "all"
    if show not in selectors.FILTERS:
        show = "all"
    now = timezone.now()
    etag = quote_etag(
        f"{selectors.desk_stamp(rnd.pk)}/{selectors.clock_stamp(rnd)}/{show}/{int(now.timestamp() // 60)}"
        f"/{get_language()}"
    )
    if request.htmx and error is None:
        unchanged = get_conditional_response(request, etag=etag)
        if unchanged is not None:
            unchanged["ETag"] = etag
            return unchanged
    base = reverse("tournament_desk", args=[tournament.pk, rnd.pk])
    desk = selectors.desk(rnd, filter=show, now=now)
    context = {
        "tournament": tournament,
        "round": rnd,
        "desk": desk,
        "clock_stamp": selectors.clock_stamp(rnd),
        "filters": [(value, label, desk.counts[value]) for value, label in DESK_FILTERS],
        "base_url": base,
        "poll_url": base + (f"?show={show}" if show != "all" else ""),
        "poll_headers": json.dumps({"If-None-Match": etag}),
        "poll_seconds": DESK_POLL_SECONDS,
        "error": error,
        # Once the round is over the desk offers what comes next (the clock and its buttons are gone).
        "step": selectors.next_step(selectors.load_tournament(tournament))
        if rnd.status != Round.Status.PLAYING
        else None,
    }
    template = "tournaments/desk.html#live" if request.htmx and error is None else "tournaments/desk.html"
    response = render(request, template, context, status=status)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_POST
@tournament_organiser_required
def desk_clock(request: HttpRequest, tournament: Tournament, round_id: int, actor: Actor) -> HttpResponse:
    """``action`` pause, resume, add (5 minutes) or end (the round: every
    table still playing ends, the totals decide), based on ``clock``."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    action = request.POST.get("action")
    try:
        if action == "end":
            numbers = clock.end_round(round_id=rnd.pk, based_on=request.POST.get("clock", ""), actor=actor)
        else:
            clock.change_clock(
                round_id=rnd.pk, action=action or "", based_on=request.POST.get("clock", ""), actor=actor
            )
    except ServiceError as e:
        rnd.refresh_from_db()
        return _render_desk(request, tournament, rnd, error=e.message, status=e.status)
    if action == "end":
        messages.success(
            request,
            _("Round %(r)d ended: tables %(t)s ended, their current totals decide, and the round is over.")
            % {"r": rnd.number, "t": listed(numbers)},
        )
    else:
        messages.success(
            request,
            {
                "pause": _("Round clock paused."),
                "resume": _("Round clock running again."),
                "add": _("%(m)d minutes added to the round.") % {"m": clock.ADD_MINUTES},
            }[action],
        )
    return redirect("tournament_desk", tournament.pk, rnd.pk)
