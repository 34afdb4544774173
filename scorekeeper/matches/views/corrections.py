"""Corrections of a match's past: edit a hand, undo the last one, and the
history of changes with its restore. Each write carries the version of the
match the page showed; a stale one changes nothing and says so."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ...access.decorators import organiser_required, scorer_required
from ...audit import Actor
from ...errors import ServiceError
from ...models import Match
from ...scoring import entry_hints
from .. import services
from ..forms import BadBasis, parse_hand, plain_int, read_basis
from ..render import CONFLICT, UNPROCESSABLE, bad_basis, choices, entry_values, go_to
from ..selectors import ScoreSheet, match_history, score_sheet


@require_http_methods(["GET", "POST"])
@scorer_required
def edit_hand(request: HttpRequest, match: Match, number: int, actor: Actor) -> HttpResponse:
    sheet = score_sheet(match.pk)
    if not 1 <= number <= len(sheet.rows):
        raise Http404("No such hand")
    if request.method == "GET":
        return _edit_page(request, sheet, number, entry_values(sheet.rows[number - 1].entry))
    try:
        basis = read_basis(request.POST, version=True)
    except BadBasis as error:
        return bad_basis(error)
    parsed = parse_hand(sheet.spec, request.POST, sheet.names)
    if not parsed.ok:
        return _edit_page(request, sheet, number, request.POST, errors=parsed.errors, status=UNPROCESSABLE)
    try:
        services.edit_hand(match_id=match.pk, number=number, entry=parsed.values, version=basis.version, actor=actor)
    except ServiceError as error:
        if request.htmx:  # the phone's offline queue sending it later: the refusal in words
            return refusal(error.message, CONFLICT if error.code in ("conflict", "closed") else UNPROCESSABLE)
        if error.code == "conflict":
            messages.error(request, error.message)
            return go_to(request, match.get_absolute_url())
        status = CONFLICT if error.code == "closed" else UNPROCESSABLE
        return _edit_page(request, sheet, number, request.POST, error=error.message, status=status)
    messages.success(request, _("Hand %(n)d changed; the scores after it were worked out again.") % {"n": number})
    return go_to(request, match.get_absolute_url())


def refusal(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _edit_page(request, sheet: ScoreSheet, number: int, values, *, errors=None, error=None, status=200):
    row = sheet.rows[number - 1]
    earlier = {**sheet.engine_input, "hands": sheet.engine_input["hands"][: number - 1]}
    context = {
        "sheet": sheet,
        "row": row,
        "values": values,
        "errors": errors or {},
        "error": error,
        # The edit form lists players in seat order, like the sheet's columns.
        "hints": {**entry_hints(earlier, row.entry), "bidding_order": list(range(len(sheet.names)))},
        **choices(sheet),
    }
    return render(request, "matches/edit_hand.html", context, status=status)


@require_http_methods(["GET", "POST"])
@scorer_required
def undo_hand(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    sheet = score_sheet(match.pk)
    if not sheet.rows:
        if request.method == "POST" and request.htmx:
            return refusal(_("There is no hand to undo."), CONFLICT)
        messages.info(request, _("There is no hand to undo."))
        return redirect(match)
    if request.method == "GET":
        return render(request, "matches/undo_hand.html", {"sheet": sheet, "row": sheet.rows[-1]})
    try:
        basis = read_basis(request.POST, version=True)
    except BadBasis as error:
        return bad_basis(error)
    try:
        services.undo_last_hand(match_id=match.pk, version=basis.version, actor=actor)
    except ServiceError as error:
        if request.htmx:  # the phone's offline queue sending it later: the refusal in words
            return refusal(error.message, CONFLICT)
        messages.error(request, error.message)
    else:
        messages.success(request, _("Hand %(n)d removed.") % {"n": len(sheet.rows)})
    return go_to(request, match.get_absolute_url())


@require_http_methods(["GET", "POST"])
@organiser_required
def history(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    """Every change of a match, newest first; a past version of a hand can
    be restored (the restore is itself recorded)."""
    if request.method == "POST":
        try:
            basis = read_basis(request.POST, version=True)
        except BadBasis as error:
            return bad_basis(error)
        try:
            number = services.restore_hand(
                match_id=match.pk,
                event_id=plain_int(request.POST.get("event")) or 0,
                which=request.POST.get("which", ""),
                version=basis.version,
                actor=actor,
            )
        except ServiceError as error:
            if error.code == "not_found":
                raise Http404(error.message) from None
            messages.error(request, error.message)
            return redirect("history", match.pk)
        messages.success(request, _("Hand %(n)d restored.") % {"n": number})
        return redirect(match)
    sheet = score_sheet(match.pk)
    context = {
        "sheet": sheet,
        "events": match_history(match),
        "restorable": services.RESTORABLE,
        "current": {row.number: row.entry for row in sheet.rows},
    }
    return render(request, "matches/history.html", context)
