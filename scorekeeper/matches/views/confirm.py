"""The other side's check of a saved hand, and an organiser's acceptance of
a match as it is. Thin views: read the form, call one service
(``services.check_hand``, ``services.accept_match``), answer with the
sheet as it now stands: with htmx (the card on the sheet) the entry panel
and, out of band, the hands; without, a redirect to the sheet."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ...access.confirming import entered_keys
from ...access.decorators import organiser_required, scorer_required
from ...access.permissions import Viewer
from ...answers import refusal
from ...audit import Actor
from ...errors import Refusal, ServiceError
from ...i18n import hand_words
from ...models import Match
from .. import services
from ..check_card import asks_for_checks, card_for, may_be_checked, may_check
from ..confirmation import UNCONFIRMED
from ..forms import BadBasis, read_basis
from ..render import answer, bad_basis, saved
from ..selectors import score_sheet
from ..write_checks import own_entry_message

VERDICTS = {"correct": True, "wrong": False}


@require_http_methods(["GET", "POST"])
@scorer_required  # the last hand's check comes after the end: its links stay open for it until the match counts
def check_hand(request: HttpRequest, match: Match, number: int, actor: Actor) -> HttpResponse:
    """GET: hand ``number`` to check, from another screen. POST: the
    answer, "correct" or "wrong", from here or from the card on the phone
    that entered the hand."""
    if request.method == "POST":
        return _answer(request, match, number, actor)
    sheet = score_sheet(match.pk)
    if not 1 <= number <= len(sheet.rows) or not asks_for_checks(sheet):
        raise Http404("No such hand to check")
    row = sheet.rows[number - 1]
    same_phone = sheet.entry_keys.get(number) in entered_keys(request)
    viewer = Viewer.of(actor, sheet.match)
    # The card only where the answer will be taken (the sheet's Check link asks the same).
    checkable = may_check(sheet, row, viewer, same_phone=same_phone)
    context = {
        "sheet": sheet,
        "card": card_for(sheet, number, same_phone=same_phone) if checkable else None,
        "row": row,
        "own_entry": not checkable and may_be_checked(sheet) and row.confirmation in UNCONFIRMED,
        "own_entry_message": own_entry_message(match, number),
    }
    return render(request, "matches/check_hand.html", context)


def _answer(request: HttpRequest, match: Match, number: int, actor: Actor) -> HttpResponse:
    correct = VERDICTS.get(request.POST.get("verdict", ""))
    if correct is None:
        return refusal(
            request, Refusal.MALFORMED, _("Nothing was saved: say whether the hand is correct or something is wrong.")
        )
    try:
        basis = read_basis(request.POST, version=True, client_key=True)
    except BadBasis as error:
        return bad_basis(request, error)
    try:
        checked = services.check_hand(
            match_id=match.pk,
            number=number,
            correct=correct,
            version=basis.version,
            client_key=basis.client_key,
            entered_here=entered_keys(request),
            actor=actor,
        )
    except ServiceError as error:
        if error.code == Refusal.NOT_FOUND:
            raise Http404(error.message) from None
        if error.status == 403:  # htmx: shown in words by app.js, the card stays
            return refusal(request, error.code, error.message)
        return answer(request, match.pk, actor, status=error.status, error=error.message, history="all")
    n = {**hand_words(match.game), "n": checked.number}
    if checked.verdict == "confirmed":
        return saved(request, match.pk, actor, _("%(H)s %(n)d confirmed: it is locked now.") % n, history="all")
    message = _("%(H)s %(n)d is marked as wrong. Correct it (Edit, in the table of hands), then check it again.")
    return saved(request, match.pk, actor, message % n, history="all", warning=True)


@require_POST
@organiser_required
def accept_match(request: HttpRequest, match: Match, actor: Actor) -> HttpResponse:
    """Count a finished match in the standings as it is, hands not yet
    confirmed included (recorded in the history of changes)."""
    try:
        basis = read_basis(request.POST, version=True)
    except BadBasis as error:
        return bad_basis(request, error)
    try:
        services.accept_match(match_id=match.pk, version=basis.version, actor=actor)
    except ServiceError as error:
        return answer(request, match.pk, actor, status=error.status, error=error.message, history="all")
    messages.success(request, _("Match accepted as it is: it counts in the standings."))
    return redirect(match)
