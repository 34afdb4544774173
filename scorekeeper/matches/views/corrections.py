"""Corrections of a match's past: edit a hand, undo the last one, and the
history of changes with its restore. Each write carries the version of the
match the page showed; a stale one changes nothing and says so."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ...access.confirming import remember_entry
from ...access.decorators import organiser_required, refuse, scorer_required
from ...access.permissions import Viewer
from ...answers import refusal
from ...audit import Actor
from ...errors import Refusal, ServiceError
from ...i18n import shown_message, shown_preview
from ...models import Match
from ...scoring import InvalidHand, entry_hints, preview_hand
from .. import services
from ..confirmation import CHECK_ACTIONS, DISPUTED, by_organiser, locked_message
from ..forms import BadBasis, parse_hand, partial_bids, plain_int, read_basis
from ..render import bad_basis, choices, entry_values, go_to, refused_about
from ..selectors import ScoreSheet, entry_context, match_history, score_sheet
from ..write_checks import nothing_to_undo, only_checks_message
from .sheet import bid_totals, tricks_count


@require_http_methods(["GET", "POST"])
@scorer_required
def edit_hand(request: HttpRequest, match: Match, number: int, actor: Actor) -> HttpResponse:
    sheet = score_sheet(match.pk)
    if not 1 <= number <= len(sheet.rows):
        raise Http404("No such hand")
    if sheet.rows[number - 1].locked and not by_organiser(actor):
        return refuse(request, locked_message(match, number))
    viewer = Viewer.of(actor, match)
    if not viewer.can_score and sheet.rows[number - 1].confirmation != DISPUTED:  # the match is over: checks only
        return refuse(request, only_checks_message(match))
    if request.method == "GET":
        return _edit_page(request, sheet, number, entry_values(sheet.rows[number - 1].entry))
    try:
        basis = read_basis(request.POST, version=True)
    except BadBasis as error:
        return bad_basis(request, error)
    parsed = parse_hand(sheet.spec, request.POST, sheet.names)
    if not parsed.ok:
        return _edit_page(request, sheet, number, request.POST, errors=parsed.errors, status=Refusal.INVALID.status)
    try:
        edited = services.edit_hand(
            match_id=match.pk, number=number, entry=parsed.values, version=basis.version, actor=actor
        )
    except ServiceError as error:
        if error.code == Refusal.LOCKED:  # the match ended since this device drew the page
            return refusal(request, error.code, error.message)
        if request.htmx:  # the phone's offline queue sending it later: the refusal in words
            return refused_about(request, error, score_sheet(match.pk), number)
        if error.code == Refusal.CONFLICT:
            messages.error(request, error.message)
            return go_to(request, match.get_absolute_url())
        return _edit_page(request, sheet, number, request.POST, error=error.message, status=error.status)
    words = {"h": sheet.spec.hand_noun.capitalize(), "n": number}
    if edited.entry_key is None:
        said = _("%(h)s %(n)d is as it was: nothing was changed.") % words
        messages.info(request, said)
        return go_to(request, match.get_absolute_url(), words=said)
    said = _("%(h)s %(n)d changed; the scores after it were worked out again.") % words
    messages.success(request, said)
    response = go_to(request, match.get_absolute_url(), words=said)
    if sheet.match.confirm_hands:  # this phone shows the corrected hand's card, to pass across
        remember_entry(request, response, edited.entry_key)
    return response


def _edit_page(request, sheet: ScoreSheet, number: int, values, *, errors=None, error=None, status=200):
    row = sheet.rows[number - 1]
    context = {
        "sheet": sheet,
        "row": row,
        "values": values,
        "errors": errors or {},
        "error": error,
        # The players in that hand's bidding order, as the bids were made.
        "hints": entry_hints(_before(sheet, number), row.entry),
        **choices(sheet),
    }
    return render(request, "matches/edit_hand.html", context, status=status)


def _before(sheet: ScoreSheet, number: int) -> dict:
    """The engine's input with the hands before hand ``number`` only."""
    return {**sheet.engine_input, "hands": sheet.engine_input["hands"][: number - 1]}


@require_POST
@scorer_required
def edit_preview(request: HttpRequest, match: Match, number: int, actor: Actor) -> HttpResponse:
    """What the hand being edited would score, and why (htmx fragment), as
    the entry form's preview does for the next hand."""
    sheet = score_sheet(match.pk)
    if not 1 <= number <= len(sheet.rows):
        raise Http404("No such hand")
    earlier = _before(sheet, number)
    whole = parse_hand(sheet.spec, request.POST, sheet.names)
    bidding = parse_hand(sheet.spec, request.POST, sheet.names, phases=("bidding",))
    partial = partial_bids(sheet.spec, request.POST, sheet.names)
    hints = entry_hints(earlier, {**bidding.values, **partial})
    context = {"sheet": sheet, "hints": hints, **tricks_count(sheet.spec, whole.values, hints)}
    context.update(bid_totals(hints, partial, sheet.names))
    if whole.ok:
        try:
            context["preview"] = shown_preview(preview_hand(earlier, whole.values))
        except InvalidHand as error:
            context["problem"] = shown_message(error, sheet.spec)
    return render(request, "matches/preview.html", context)


@require_http_methods(["GET", "POST"])
@scorer_required
def undo_hand(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    sheet = score_sheet(match.pk)
    if not sheet.rows:
        if request.method == "POST" and request.htmx:
            return refusal(request, Refusal.CONFLICT, nothing_to_undo(match))
        messages.info(request, nothing_to_undo(match))
        return redirect(match)
    if sheet.rows[-1].locked and not by_organiser(actor):
        return refuse(request, locked_message(match, len(sheet.rows)))
    if not Viewer.of(actor, match).can_score:  # the match is over: checks only
        return refuse(request, only_checks_message(match))
    if request.method == "GET":
        return render(request, "matches/undo_hand.html", {"sheet": sheet, "row": sheet.rows[-1]})
    try:
        basis = read_basis(request.POST, version=True)
    except BadBasis as error:
        return bad_basis(request, error)
    try:
        services.undo_last_hand(match_id=match.pk, version=basis.version, actor=actor)
    except ServiceError as error:
        if error.code == Refusal.LOCKED:
            return refusal(request, error.code, error.message)
        if request.htmx:  # the phone's offline queue sending it later: the refusal in words
            return refused_about(request, error, score_sheet(match.pk), len(sheet.rows))
        messages.error(request, error.message)
        return go_to(request, match.get_absolute_url())
    said = _("%(h)s %(n)d removed.") % {"h": sheet.spec.hand_noun.capitalize(), "n": len(sheet.rows)}
    messages.success(request, said)
    return go_to(request, match.get_absolute_url(), words=said)


@require_http_methods(["GET", "POST"])
@organiser_required
def history(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    """Every change of a match, newest first; a past version of a hand can
    be restored (the restore is itself recorded)."""
    if request.method == "POST":
        try:
            basis = read_basis(request.POST, version=True)
        except BadBasis as error:
            return bad_basis(request, error)
        try:
            number = services.restore_hand(
                match_id=match.pk,
                event_id=plain_int(request.POST.get("event")) or 0,
                which=request.POST.get("which", ""),
                version=basis.version,
                actor=actor,
            )
        except ServiceError as error:
            if error.code == Refusal.NOT_FOUND:
                raise Http404(error.message) from None
            messages.error(request, error.message)
            return redirect("history", match.pk)
        noun = entry_context(match)[0].hand_noun.capitalize()
        messages.success(request, _("%(h)s %(n)d restored.") % {"h": noun, "n": number})
        return redirect(match)
    sheet = score_sheet(match.pk)
    context = {
        "sheet": sheet,
        "events": match_history(match),
        "restorable": services.RESTORABLE,
        "checks": CHECK_ACTIONS,  # their before/after are bookkeeping, not hands
        "current": {row.number: row.entry for row in sheet.rows},
    }
    return render(request, "matches/history.html", context)
