"""How a score-sheet view answers: a few named helpers, one per kind of
answer. Without JavaScript every answer is a whole page (or a redirect
after a write); with htmx a write is answered with the entry panel and,
out of band, the head, the totals and the hands."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..access.confirming import entered_keys
from ..access.permissions import Viewer
from ..answers import declare, refusal
from ..audit import Action, Actor, Change
from ..errors import Refusal, ServiceError
from ..scoring import GameSpec
from . import live as live_sheet
from .check_card import CheckCard, pass_card
from .forms import BadBasis, plain_int
from .selectors import Held, ScoreSheet, score_sheet, sheet_of
from .wording import entry_words

SHEET = "matches/sheet.html"
LIVE = "matches/live.html"
NEW_ROW = (Action.HAND_RECORDED, Action.HAND_EDITED, Action.HAND_RESTORED)  # a change that the history highlights
NOT_KEPT = {"csrfmiddlewaretoken", "client_key", "number", "bidding"}  # the basis comes from the sheet


def server_has(sheet: ScoreSheet, number: int | None) -> dict:
    """For a phone whose version of hand ``number`` was refused: what the
    server holds of it in words (``server``) and whether it holds that
    hand (``held``: fixing it is then a change to it)."""
    return {"server": server_words(sheet, number), "held": bool(number) and number <= len(sheet.rows)}


def server_words(sheet: ScoreSheet, number: int | None) -> str | None:
    """What the server holds of hand ``number``, in words: "Hand 5: Ann bid
    4, took 6 · …"."""
    if not number:
        return None
    noun = sheet.spec.hand_noun
    if number <= len(sheet.rows):
        # Translators: %(H)s is "Hand" (or "Deal"), then the hand as the server has it in words.
        return _("%(H)s %(n)d: %(hand)s") % {
            "H": noun.capitalize(),
            "n": number,
            "hand": entry_words(sheet.spec, sheet.names, sheet.rows[number - 1].entry),
        }
    if sheet.pending is not None and sheet.next_hand and number == sheet.next_hand.get("number"):
        return _("%(noun)s in force for %(h)s %(n)d: %(bids)s") % {
            "noun": sheet.spec.bidding_noun.capitalize(),
            "h": noun,
            "n": number,
            "bids": entry_words(sheet.spec, sheet.names, sheet.pending),
        }
    return _("The server has no %(h)s %(n)d yet.") % {"h": noun, "n": number}


def sheet_page(
    request: HttpRequest, sheet: ScoreSheet, viewer: Viewer, *, status: int = 200, entered: str | None = None, **extra
) -> HttpResponse:
    """The whole score sheet."""
    check = _pass_card(request, sheet, viewer, entered)
    return render(request, SHEET, _context(sheet, viewer, check=check, **extra), status=status)


def answer(
    request: HttpRequest, source: Held | int, actor: Actor, *, status: int = 200, entered: str | None = None, **extra
) -> HttpResponse:
    """The sheet as it stands after a write: drawn from what the write
    holds (``Held``: no read again), or read afresh by match id after a
    refusal. ``entered``: the one-time key of the hand this phone just saved."""
    sheet = sheet_of(source) if isinstance(source, Held) else score_sheet(source)
    viewer = Viewer.of(actor, sheet.match)
    if request.htmx:
        check = _pass_card(request, sheet, viewer, entered)
        response = render(request, f"{SHEET}#after_write", _context(sheet, viewer, check=check, **extra), status=status)
        error = extra.get("error") or " ".join(str(e) for e in (extra.get("errors") or {}).values())
        if error:
            about = plain_int(request.POST.get("number"))
            return declare(response, outcome="refused", words=error, **server_has(sheet, about))
        return declare(response, outcome="saved", words=extra.get("notice") or "", bidding=sheet.bidding_stamp)
    return sheet_page(request, sheet, viewer, status=status, entered=entered, **extra)


def _pass_card(request: HttpRequest, sheet: ScoreSheet, viewer: Viewer, entered: str | None) -> CheckCard | None:
    """The card asking the table to pass this phone to the other side, if
    this phone entered a hand they have not checked yet."""
    if not sheet.match.confirm_hands:
        return None
    keys = entered_keys(request) | ({entered} if entered else set())
    return pass_card(sheet, viewer, keys, later=plain_int(request.GET.get("later")))


def saved(
    request: HttpRequest,
    source: Held | int,
    actor: Actor,
    message: str,
    *,
    history: str | None = None,
    new_hand: int | None = None,
    warning: bool = False,
):
    """A write went through: htmx gets the new fragments, a plain form a
    redirect. ``history``: what of the hands to send again, "row" (the new
    last one), "all" or None (the write left them as they were).
    ``warning``: the message asks the table to act (a hand marked as
    wrong), shown as a warning, not as a success. ``source``: what the
    write holds (``Held``), or the match's id."""
    if request.htmx:
        tone = "warning" if warning else "success"
        return answer(request, source, actor, notice=message, history=history, new_hand=new_hand, tone=tone)
    (messages.warning if warning else messages.success)(request, message)
    return redirect("match", source.match.pk if isinstance(source, Held) else source)


def hand_saved(
    request: HttpRequest, held: Held, actor: Actor, message: str, number: int, entered: str | None = None
) -> HttpResponse:
    """A new hand: the page showed every hand before it (its number was
    checked), so the new row is all the history it needs. ``entered``:
    its one-time key (the card asking the table to pass the phone)."""
    if request.htmx:
        history = "row" if number > 1 else "all"
        return answer(request, held, actor, notice=message, history=history, new_hand=number, entered=entered)
    return saved(request, held, actor, message, history="row" if number > 1 else "all", new_hand=number)


def invalid(request: HttpRequest, match_id: int, actor: Actor, errors: dict[str, str]) -> HttpResponse:
    """A field is missing or wrong: each message by its field, the entry kept."""
    return answer(request, match_id, actor, status=Refusal.INVALID.status, errors=errors, kept=_typed(request))


def refused(request: HttpRequest, match_id: int, actor: Actor, error: ServiceError, spec: GameSpec) -> HttpResponse:
    """A service said no. A rule problem keeps the entry to correct. A page
    that was out of date shows the sheet as it now stands: the form starts
    afresh for the next hand (so a second tap cannot store another device's
    hand again), keeping only the tricks typed when just the bids changed."""
    if error.code == Refusal.LOCKED:  # the match ended while this device's page showed the form
        return refusal(request, error.code, error.message)
    if error.code == Refusal.CONFLICT:
        kept = {}
    elif error.code == Refusal.BIDS_CHANGED:
        play = {f.name for f in spec.hand_fields if f.phase == "play"}
        kept = {k: v for k, v in _typed(request).items() if k.rsplit("_", 1)[0] in play or k in play}
    else:
        kept = _typed(request)
    stale = error.code.stale
    return answer(
        request, match_id, actor, status=error.status, error=error.message, kept=kept, history="all" if stale else None
    )


def live(
    request: HttpRequest, sheet: ScoreSheet, viewer: Viewer, *, basis: str, typed: bool, shown: tuple[int, int] | None
) -> HttpResponse:
    """The "changed?" poll's answer when the match changed (htmx, out of
    band): the head, totals and hands; the entry panel only if what it was
    drawn from (``basis``) changed, with a note of who changed what.
    ``shown``: the version and the number of hands the page shows. One
    version behind with one hand fewer, the one write since added the last
    hand and changed no other row: only that row is sent (a page whose
    match that hand ended is sent them all: its Edit links may go)."""
    change = Change.of(sheet.match)
    replaced = basis != sheet.basis_key
    new_hand = change.hand_number if change is not None and change.action in NEW_ROW else None
    one_more = shown == (sheet.match.version - 1, len(sheet.rows) - 1) and len(sheet.rows) > 1
    context = _context(sheet, viewer, new_hand=new_hand)
    context.update(
        history="row" if one_more and not sheet.finished else "all",
        entry=replaced,
        live_note=live_sheet.note(sheet, change, replaced=replaced, typed=typed),
        live_warning=replaced and typed,
    )
    response = render(request, LIVE, context)
    if not replaced:
        response["HX-Trigger"] = "sheet-kept"  # live.js asks again for the preview of what is typed
    return response


def bad_basis(request: HttpRequest, error: BadBasis) -> HttpResponse:
    """A write that did not say what it was based on: refused, in words."""
    return refusal(request, Refusal.MALFORMED, str(error))


def _typed(request: HttpRequest) -> dict[str, str]:
    return {k: v for k, v in request.POST.items() if k not in NOT_KEPT}


def _context(
    sheet: ScoreSheet,
    viewer: Viewer,
    *,
    kept: dict | None = None,
    errors: dict | None = None,
    error: str | None = None,
    notice: str | None = None,
    tone: str = "success",
    history: str | None = None,
    new_hand: int | None = None,
    check: CheckCard | None = None,
) -> dict:
    return {
        "check": check,  # the card to pass to the other side (confirm.html)
        "sheet": sheet,
        "viewer": viewer,
        # The entry form starts with the bids in force, then what was typed.
        "values": {**entry_values(sheet.pending), **(kept or {})},
        "kept": bool(kept),  # the form shows what was typed (live.js: it is not a fresh form)
        "errors": errors or {},
        "error": error,
        "notice": notice,
        "tone": tone,  # the notice's banner: success, or warning when the table has something to do
        "history": history,
        "new_hand": new_hand,  # highlighted in the history
        "hints": sheet.hints,
        "client_key": uuid.uuid4().hex,
        **choices(sheet),
    }


def choices(sheet: ScoreSheet) -> dict:
    """The small choice lists the entry partials of any game may use."""
    return {
        "seat_choices": list(enumerate(sheet.names)),
        "side_choices": list(enumerate(sheet.side_names)),  # a game with partnerships (RULES.md 1.5)
        "yes_no": [("yes", _("Yes")), ("no", _("No"))],
    }


def entry_values(entry: dict | None) -> dict[str, str]:
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


def go_to(request: HttpRequest, url: str, *, words: str = "") -> HttpResponse:
    """A full redirect, also for htmx (which would otherwise swap the page
    in); ``words``: what a write that went through says (declared for the
    scripts: the offline queue's "sent" note)."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return declare(response, outcome="saved", words=words) if words else response
    return redirect(url)


def refused_about(request: HttpRequest, error: ServiceError, sheet: ScoreSheet, number: int) -> HttpResponse:
    """A write about hand ``number`` refused (the offline queue sending it
    later): the refusal, with what the server holds of that hand declared."""
    return refusal(request, error.code, error.message, **server_has(sheet, number))
