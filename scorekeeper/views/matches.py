"""Thin views: parse the request, call a service or selector, render a page
or (for htmx requests) only the fragments that changed."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from .. import selectors, services
from ..access import granted_link, is_organiser_of, organiser_required, scorer_required
from ..forms import parse_hand, parse_options, parse_positive_int
from ..models import Match, Player
from ..scoring import GAMES, InvalidHand, check_bidding, entry_hints, game_specs, get_game, preview_hand
from ..services import Actor, ServiceError
from .access import needs_setup

UNPROCESSABLE = 422  # valid request, but the hand breaks a rule or a field is wrong
CONFLICT = 409  # someone else changed the match first


# ---------------------------------------------------------------------- home


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if needs_setup():
        return redirect("setup")
    return render(
        request, "home.html", {"lists": selectors.matches_for_home(), "specs": {s.id: s for s in game_specs()}}
    )


# ------------------------------------------------------------------- players


@login_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest) -> HttpResponse:
    error, status = None, 200
    if request.method == "POST":
        try:
            player = services.add_player(name=request.POST.get("name", ""), actor=Actor.for_request(request))
        except ServiceError as e:
            error, status = e.message, UNPROCESSABLE
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
            return redirect("players")
    context = {"players": selectors.all_players(), "error": error, "name": request.POST.get("name", "")}
    return render(request, "players.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def rename_player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    error, status = None, 200
    if request.method == "POST":
        try:
            services.rename_player(
                player_id=player.pk, name=request.POST.get("name", ""), actor=Actor.for_request(request)
            )
        except ServiceError as e:
            error, status = e.message, UNPROCESSABLE
        else:
            return redirect("players")
    return render(request, "player_rename.html", {"player": player, "error": error}, status=status)


# ------------------------------------------------------------------ new match


@login_required
@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    game_id = data.get("game")
    if game_id not in GAMES:
        return render(request, "new_match.html", {"specs": game_specs(), "spec": None})
    spec = get_game(game_id).spec
    parsed_options = parse_options(spec, data)
    context = {
        "specs": game_specs(),
        "spec": spec,
        "players": selectors.all_players(),
        "seats": [
            {
                "input": f"seat_{i}",
                "number": i + 1,
                "value": data.get(f"seat_{i}", ""),
                "optional": i >= spec.min_players,
            }
            for i in range(spec.max_players)
        ],
        "options": [
            (o, parsed_options.values[o.name] if request.method == "POST" else o.default) for o in spec.options
        ],
    }
    if request.method == "GET":
        return render(request, "new_match.html", context)
    names = [data.get(f"seat_{i}", "").strip() for i in range(spec.max_players)]
    names = [n for n in names if n]
    if not parsed_options.ok:
        context["errors"] = parsed_options.errors
        return render(request, "new_match.html", context, status=UNPROCESSABLE)
    try:
        match = services.start_match(
            game=spec.id, player_names=names, options=parsed_options.values, actor=Actor.for_request(request)
        )
    except ServiceError as e:
        context["error"] = e.message
        return render(request, "new_match.html", context, status=UNPROCESSABLE)
    return redirect(match)


# ---------------------------------------------------------------- score sheet


@require_GET
@vary_on_headers("HX-Request")
def match_sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    return _render_sheet(request, match_id)


@require_GET
def match_changed(request: HttpRequest, match_id: int) -> HttpResponse:
    """Polled by an open sheet: has another device changed the match since
    this page was drawn? 204 (nothing to do) or a small banner."""
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is None:
        raise Http404("No such match")
    if str(version) == request.GET.get("v"):
        return HttpResponse(status=204)
    return render(request, "partials/changed_banner.html", {"match_id": match_id})


@require_POST
@vary_on_headers("HX-Request")
@scorer_required(with_state=True)
def save_bids(request: HttpRequest, match_id: int, actor: Actor, state: selectors.MatchState) -> HttpResponse:
    parsed = parse_hand(state.spec, request.POST, state.names, phases=("bidding",))
    if not parsed.ok:
        return _render_sheet(request, match_id, actor, state=state, errors=parsed.errors, status=UNPROCESSABLE)
    try:
        match = services.save_bidding(
            match_id=match_id,
            bidding=parsed.values,
            expected_number=parse_positive_int(request.POST.get("number")),
            actor=actor,
        )
    except ServiceError as e:
        return _render_sheet(request, match_id, actor, error=e.message, status=_status_for(e))
    if state.spec.bidding_noun == "contract":
        saved = _("Contract saved. Play the hand, then enter declarer's tricks.")
    else:
        saved = _("Bids saved. Play the hand, then enter the tricks.")
    # Nothing else was written between our read and our write: the hands
    # read are current, draw the answer from them.
    current = match.version == state.match.version + 1
    after = selectors.MatchState(match, state.players, state.hands) if current else None
    return _after_write(request, match_id, actor, saved, state=after)


@require_POST
@vary_on_headers("HX-Request")
@scorer_required(with_state=True)
def record_hand(request: HttpRequest, match_id: int, actor: Actor, state: selectors.MatchState) -> HttpResponse:
    parsed = parse_hand(state.spec, request.POST, state.names)
    if not parsed.ok:
        return _render_sheet(request, match_id, actor, state=state, errors=parsed.errors, status=UNPROCESSABLE)
    try:
        saved = services.record_hand(
            match_id=match_id,
            entry=parsed.values,
            client_key=(request.POST.get("client_key") or "")[:64] or None,
            expected_number=parse_positive_int(request.POST.get("number")),
            actor=actor,
            seen=state,
        )
    except ServiceError as e:
        conflict = e.code == "conflict"  # another device saved first: show its hand too
        return _render_sheet(
            request,
            match_id,
            actor,
            error=e.message,
            status=_status_for(e),
            keep_input=not conflict,
            history_oob="all" if conflict else None,
        )
    n = {"n": saved.hand.number}
    deal = state.spec.hand_noun == "deal"
    if not saved.created:
        message = _("Deal %(n)d was already saved.") if deal else _("Hand %(n)d was already saved.")
        return _after_write(request, match_id, actor, message % n, history_oob="all")
    message = _("Deal %(n)d saved.") if deal else _("Hand %(n)d saved.")
    # The form was for this very hand (its number is checked), so the page
    # holds every hand before it: adding the one row is enough.
    rows_shown = request.POST.get("number") == str(saved.hand.number) and saved.hand.number > 1
    history = "row" if rows_shown else "all"
    return _after_write(
        request, match_id, actor, message % n, new_hand=saved.hand.number, history_oob=history, state=saved.state
    )


@require_POST
@scorer_required
def preview(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    """What the hand being entered would score, and why (htmx fragment)."""
    sheet = selectors.score_sheet(match_id)
    context = {"sheet": sheet, "names": sheet.names}
    if sheet.finished or not sheet.match.is_open:
        return render(request, "partials/preview.html", context)
    bidding = parse_hand(sheet.spec, request.POST, sheet.names, phases=("bidding",))
    hints = entry_hints(sheet.engine_input, {**bidding.values, **_partial_bids(request.POST, sheet)})
    context["hints"] = hints
    if hints.get("bid_total") is not None and hints.get("cards"):
        context["bid_balance"] = hints["bid_total"] - hints["cards"]
        context["bid_under"] = hints["cards"] - hints["bid_total"]
    context["bids_entered"] = bidding.values.get("bids")
    whole = parse_hand(sheet.spec, request.POST, sheet.names)
    if whole.ok:
        try:
            context["preview"] = preview_hand(sheet.engine_input, whole.values)
        except InvalidHand as e:
            context["problem"] = str(e)
    elif sheet.spec.has_bidding and bidding.ok:
        try:
            check_bidding(sheet.engine_input, bidding.values)
        except InvalidHand as e:
            context["problem"] = str(e)
    context["tricks_entered"] = _tricks_entered(whole.values.get("tricks"))
    return render(request, "partials/preview.html", context)


def _partial_bids(data, sheet) -> dict:
    """The bids typed so far (None where blank), for the hook hint."""
    if not any(f.name == "bids" for f in sheet.spec.hand_fields):
        return {}
    bids = []
    for seat in range(len(sheet.names)):
        raw = data.get(f"bids_{seat}", "")
        # Small plain numbers only: "²".isdigit() is true, and huge ones are junk.
        bids.append(int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 3 else None)
    return {"bids": bids}


def _tricks_entered(tricks) -> int | None:
    if not isinstance(tricks, list) or any(not isinstance(t, int) for t in tricks):
        return None
    return sum(tricks)


@require_http_methods(["GET", "POST"])
@scorer_required
def edit_hand(request: HttpRequest, match_id: int, number: int, actor: Actor) -> HttpResponse:
    sheet = selectors.score_sheet(match_id)
    if not 1 <= number <= len(sheet.rows):
        raise Http404("No such hand")
    row = sheet.rows[number - 1]
    earlier = {**sheet.engine_input, "hands": sheet.engine_input["hands"][: number - 1]}
    context = {
        "sheet": sheet,
        "row": row,
        "values": _values_from_entry(sheet, row.entry),
        "version": sheet.match.version,
        # The edit form lists players in seat order, like the sheet's columns.
        "hints": {**entry_hints(earlier, row.entry), "bidding_order": list(range(len(sheet.names)))},
        "fields_template": f"games/{sheet.match.game}/fields.html",
        **_choice_context(sheet),
    }
    if request.method == "GET":
        return render(request, "edit_hand.html", context)
    parsed = parse_hand(sheet.spec, request.POST, sheet.names)
    context["values"] = request.POST
    if not parsed.ok:
        context["errors"] = parsed.errors
        return render(request, "edit_hand.html", context, status=UNPROCESSABLE)
    try:
        services.edit_hand(
            match_id=match_id,
            number=number,
            entry=parsed.values,
            expected_version=parse_positive_int(request.POST.get("version")),
            actor=actor,
        )
    except ServiceError as e:
        if e.code == "conflict":
            messages.error(request, e.message)
            return _redirect(request, reverse("match", args=[match_id]))
        context["error"] = e.message
        return render(request, "edit_hand.html", context, status=_status_for(e))
    messages.success(request, _("Hand %(n)d changed; the scores after it were worked out again.") % {"n": number})
    return _redirect(request, reverse("match", args=[match_id]))


@require_http_methods(["GET", "POST"])
@scorer_required
def undo_hand(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    sheet = selectors.score_sheet(match_id)
    if not sheet.rows:
        messages.info(request, _("There is no hand to undo."))
        return redirect("match", match_id)
    if request.method == "GET":
        return render(request, "undo_hand.html", {"sheet": sheet, "row": sheet.rows[-1]})
    try:
        services.undo_last_hand(
            match_id=match_id,
            expected_version=parse_positive_int(request.POST.get("version")),
            actor=actor,
        )
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Hand %(n)d removed.") % {"n": len(sheet.rows)})
    return _redirect(request, reverse("match", args=[match_id]))


@require_POST
@scorer_required
def clear_bids(request: HttpRequest, match_id: int, actor: Actor) -> HttpResponse:
    try:
        services.clear_bidding(match_id=match_id, actor=actor)
    except ServiceError as e:
        messages.error(request, e.message)
    return _redirect(request, reverse("match", args=[match_id]))


MATCH_ACTIONS = {
    "abandon": (services.abandon_match, gettext_lazy("Match abandoned. You can reopen it from its page.")),
    "reopen": (services.reopen_match, None),
}


@require_POST
@organiser_required
def match_action(request: HttpRequest, match_id: int, action: str, actor: Actor) -> HttpResponse:
    """Organiser-only changes of a match: abandon, reopen, play again."""
    try:
        if action == "again":
            new = services.play_again(match_id=match_id, actor=actor)
            return _redirect(request, new.get_absolute_url())
        if action not in MATCH_ACTIONS:
            raise Http404("Unknown action")
        service, message = MATCH_ACTIONS[action]
        service(match_id=match_id, actor=actor)
        if message:
            messages.info(request, message)
    except ServiceError as e:
        messages.error(request, e.message)
    return _redirect(request, reverse("match", args=[match_id]))


# ------------------------------------------------------------------- helpers


def _status_for(error: ServiceError) -> int:
    return CONFLICT if error.code in ("conflict", "closed") else UNPROCESSABLE


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    """A full redirect, also for htmx (which would otherwise swap the page in)."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return redirect(url)


def _after_write(
    request: HttpRequest,
    match_id: int,
    actor: Actor,
    message: str,
    new_hand: int | None = None,
    history_oob: str | None = None,
    state: selectors.MatchState | None = None,
) -> HttpResponse:
    if request.htmx:
        return _render_sheet(
            request, match_id, actor, state=state, notice=message, new_hand=new_hand, history_oob=history_oob
        )
    messages.success(request, message)
    return redirect("match", match_id)


def _choice_context(sheet) -> dict:
    return {"seat_choices": list(enumerate(sheet.names)), "yes_no": [("yes", _("Yes")), ("no", _("No"))]}


def _values_from_entry(sheet, entry: dict) -> dict[str, str]:
    """Form input values (as strings) from a stored hand or bidding dict."""
    values = {}
    for key, value in (entry or {}).items():
        if isinstance(value, list):
            for seat, v in enumerate(value):
                values[f"{key}_{seat}"] = _as_input(v)
        else:
            values[key] = _as_input(value)
    return values


def _as_input(value) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return "" if value is None else str(value)


def _render_sheet(
    request,
    match_id,
    actor=None,
    *,
    state=None,
    errors=None,
    error=None,
    notice=None,
    new_hand=None,
    status=200,
    keep_input=True,
    history_oob=None,
):
    """The score sheet, or its changed fragments for htmx. After a rejected
    entry the typed values are shown again, except after a conflict: then
    the form starts afresh for the next hand, so a second tap on Save cannot
    store the other device's hand a second time.

    ``actor``: who a write view let in (so may score); ``state``: the match
    as it stands, when the view has it already (no need to read it again)."""
    sheet = selectors.build_sheet(state or selectors.match_state(match_id))
    values = _values_from_entry(sheet, sheet.pending)
    if actor is not None:
        is_organiser, can_score = actor.link is None, True
    else:  # a reader: worked out once, each check costs queries
        is_organiser = is_organiser_of(request.user, sheet.match)
        can_score = is_organiser or granted_link(request, match_id) is not None
    if (errors or error) and keep_input:
        values.update({k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"})
    context = {
        "sheet": sheet,
        "values": values,
        "errors": errors or {},
        "error": error,
        "notice": notice,
        "new_hand": new_hand,
        "history_oob": history_oob,  # htmx answers: None, "row" (the new one) or "all"
        "client_key": uuid.uuid4().hex,
        "hints": sheet.hints,
        "can_score": can_score,
        "is_organiser": is_organiser,
        **_choice_context(sheet),
        "entry_template": f"games/{sheet.match.game}/entry.html",
        "row_template": f"games/{sheet.match.game}/row.html",
    }
    template = "match.html#after_write" if request.htmx and request.method == "POST" else "match.html"
    return render(request, template, context, status=status)
