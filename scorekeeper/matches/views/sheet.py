"""The score sheet and the writes made from it. Thin views: read the
form, call one service, answer with the sheet as it now stands (htmx: only
the fragments that change, see ``render``).

The path of a saved hand: URL -> ``record_hand`` (the access check in
``scorer_required``) -> ``forms.read_basis`` and ``forms.parse_hand`` ->
``services.record_hand`` -> ``selectors.score_sheet`` -> the template."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, quote_etag
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from ...access.confirming import remember_entry
from ...access.decorators import refuse_private, scorer_required
from ...access.permissions import Viewer, match_and_scorer, scorer
from ...audit import Actor
from ...errors import ServiceError
from ...i18n import bids_a_contract, plays_deals, shown_message, shown_preview
from ...models import Match
from ...numbers import plain_int
from ...polls import SHEET_VARY, not_modified, remember_sheet
from ...scoring import InvalidHand, check_bidding, entry_hints, preview_hand
from .. import services
from ..forms import BadBasis, parse_hand, partial_bids, read_basis
from ..render import bad_basis, hand_saved, invalid, live, refused, saved, sheet_page
from ..selectors import entry_context, held_of, poll_state, read_match, score_sheet, sheet_of


@require_GET
@vary_on_headers("HX-Request")
def match_sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    try:
        sheet = score_sheet(match_id)
    except Match.DoesNotExist:
        raise Http404("No such match") from None
    actor = scorer(request, sheet.match)
    tournament = sheet.tournament
    if actor is None and tournament is not None and not tournament.is_public:
        return refuse_private(request)
    return sheet_page(request, sheet, Viewer.of(actor, sheet.match))


@require_GET
@vary_on_headers("HX-Request")
def match_changed(request: HttpRequest, match_id: int) -> HttpResponse:
    """Polled by an open sheet every few seconds with the tag it shows
    (If-None-Match, ``polls.sheet_tag``: the match version and its round's
    clock). Unchanged, the cache answers 304 before this view
    (``polls.answer_unchanged_polls``); here, when it could not: the match
    (one query), 304 if unchanged, and the cache filled; changed, its hands
    (one more) and the sheet drawn from both. Else, with htmx, the sheet's
    parts out of band (``render.live``): the entry panel only if what it
    was drawn from (``?basis=``) changed, so what is being typed is kept;
    only the round clock when only the clock changed (a pause, added time);
    without htmx a banner with a link to the latest."""
    match = read_match(match_id)
    if match is None:
        raise Http404("No such match")
    state = poll_state(match)
    remember_sheet(match_id, state.version, state.round_id, state.private, state.clock)
    if state.private and match_and_scorer(request, match_id)[1] is None:
        return refuse_private(request)
    tag = state.tag
    etag = quote_etag(tag)
    if get_conditional_response(request, etag=etag) is not None:
        return not_modified(tag, SHEET_VARY)
    # The page shows this version in this language: only its round clock moved.
    asked = request.headers.get("If-None-Match", "").strip().removeprefix("W/").strip('"')
    same_language = asked.rpartition("-")[2] == tag.rpartition("-")[2]
    clock_only = same_language and asked.split("/", 1)[0] == str(state.version)
    if request.htmx and clock_only:
        table = getattr(match, "table", None)  # None: a tag that is not this sheet's
        playing = table is not None and match.status == Match.Status.IN_PROGRESS
        response = render(request, "tournaments/clock.html", {"rnd": table.round if playing else None, "oob": True})
        response["HX-Trigger"] = "round-clock"  # live.js: the poll asks with this answer's tag from now on
    elif request.htmx:
        sheet = sheet_of(held_of(match))
        viewer = Viewer.of(scorer(request, match), match)
        # What the page shows: its version (the tag's first part) and its number of hands.
        version, rows = plain_int(asked.split("/", 1)[0].split("-", 1)[0]), plain_int(request.GET.get("rows"))
        shown = (version, rows) if version is not None and rows is not None else None
        response = live(
            request, sheet, viewer, basis=request.GET.get("basis", ""), typed="typed" in request.GET, shown=shown
        )
    else:
        response = render(request, "matches/changed_banner.html", {"match_id": match_id})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_POST
@vary_on_headers("HX-Request")
@scorer_required
def save_bids(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    try:
        basis = read_basis(request.POST, number=True, bidding=True)
    except BadBasis as error:
        return bad_basis(request, error)
    spec, names = entry_context(match)
    parsed = parse_hand(spec, request.POST, names, phases=("bidding",))
    if not parsed.ok:
        return invalid(request, match.pk, actor, parsed.errors)
    try:
        held = services.save_bidding(
            match_id=match.pk,
            bidding=parsed.values,
            number=basis.number,
            bidding_in_force=basis.bidding,
            actor=actor,
        )
    except ServiceError as error:
        return refused(request, match.pk, actor, error, spec)
    if bids_a_contract(spec):
        return saved(request, held, actor, _("Contract saved. Play the hand, then enter declarer's tricks."))
    return saved(request, held, actor, _("Bids saved. Play the hand, then enter the tricks."))


@require_POST
@vary_on_headers("HX-Request")
@scorer_required
def clear_bids(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    try:
        basis = read_basis(request.POST, number=True, bidding=True)
    except BadBasis as error:
        return bad_basis(request, error)
    try:
        held = services.clear_bidding(
            match_id=match.pk, number=basis.number, bidding_in_force=basis.bidding, actor=actor
        )
    except ServiceError as error:
        return refused(request, match.pk, actor, error, entry_context(match)[0])
    return saved(request, held, actor, _("The bids were cleared."))


@require_POST
@vary_on_headers("HX-Request")
@scorer_required(replays_first=True)
def record_hand(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    try:
        basis = read_basis(request.POST, number=True, bidding=True, client_key=True)
    except BadBasis as error:
        return bad_basis(request, error)
    spec, names = entry_context(match)
    parsed = parse_hand(spec, request.POST, names)
    if not parsed.ok:
        return invalid(request, match.pk, actor, parsed.errors)
    try:
        result = services.record_hand(
            match_id=match.pk,
            entry=parsed.values,
            number=basis.number,
            bidding_in_force=basis.bidding,
            client_key=basis.client_key,
            actor=actor,
        )
    except ServiceError as error:
        return refused(request, match.pk, actor, error, spec)
    n = {"n": result.number}
    deal = plays_deals(spec)
    if not result.created:  # sent again: the page may not show what was saved since
        message = _("Deal %(n)d was already saved.") if deal else _("Hand %(n)d was already saved.")
        return saved(request, result.held, actor, message % n, history="all")
    message = _("Deal %(n)d saved.") if deal else _("Hand %(n)d saved.")
    if not result.match.confirm_hands:
        return hand_saved(request, result.held, actor, message % n, result.number)
    response = hand_saved(request, result.held, actor, message % n, result.number, entered=basis.client_key)
    remember_entry(request, response, basis.client_key)  # this phone shows the card to pass across
    return response


@require_POST
@scorer_required
def preview(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    """What the hand being entered would score, and why (htmx fragment)."""
    sheet = score_sheet(match.pk)
    context = {"sheet": sheet}
    if sheet.finished or not sheet.match.is_open:
        return render(request, "matches/preview.html", context)
    bidding = parse_hand(sheet.spec, request.POST, sheet.names, phases=("bidding",))
    partial = partial_bids(sheet.spec, request.POST, sheet.names)
    hints = entry_hints(sheet.engine_input, {**bidding.values, **partial})
    context["hints"] = hints
    context.update(bid_totals(hints, partial, sheet.names))
    whole = parse_hand(sheet.spec, request.POST, sheet.names)
    try:
        if whole.ok:
            context["preview"] = shown_preview(preview_hand(sheet.engine_input, whole.values))
        elif sheet.spec.has_bidding and bidding.ok:
            check_bidding(sheet.engine_input, bidding.values)
    except InvalidHand as error:
        context["problem"] = shown_message(error, sheet.spec)
    context.update(tricks_count(sheet.spec, whole.values, hints))
    return render(request, "matches/preview.html", context)


def bid_totals(hints: dict, partial: dict, names: list[str]) -> dict:
    """ "Total bid 5 of 4: over by 1" (Oh Hell), once everyone has bid;
    before, the total so far and who is still to bid, in bidding order
    (``bids_missing``): "exactly the cards dealt" said before the dealer
    has bid would be a guess."""
    if hints.get("bid_total") is None or not hints.get("cards"):
        return {}
    bids = partial.get("bids") or []
    missing = [
        names[seat]
        for seat in hints.get("bidding_order") or range(len(names))
        if seat >= len(bids) or bids[seat] is None or not 0 <= bids[seat] <= hints["cards"]
    ]
    return {
        "bid_balance": hints["bid_total"] - hints["cards"],
        "bid_under": hints["cards"] - hints["bid_total"],
        "bids_missing": missing,
    }


def tricks_count(spec, values: dict, hints: dict) -> dict:
    """ "Tricks entered: 15 of 13", shown next to the tricks of a game where
    each player (or side) takes tricks (``count_tricks``) while they do not add up."""
    context = {"count_tricks": any(f.name == "tricks" and (f.per_player or f.per_side) for f in spec.hand_fields)}
    tricks = values.get("tricks")
    if isinstance(tricks, list) and all(isinstance(t, int) for t in tricks):
        context["tricks_entered"] = sum(tricks)
        context["tricks_off"] = bool(hints.get("tricks_total")) and sum(tricks) != hints["tricks_total"]
    return context
