"""How a request is answered when it is refused, one way for every view.

The kind of refusal (``errors.Refusal``) gives the HTTP status; the words
say why, in the reader's language. Three readers, one answer:

* htmx (and the offline queue's replays): the words as plain text, shown
  by app.js in the page's banner (htmx swaps no 4xx);
* a browser without JavaScript: a page in the site's frame with the words
  and a way on (``refused.html``);
* a client that asks for no HTML (its Accept has neither text/html nor
  */*), and any form too damaged to say what it was based on
  (``MALFORMED``, as Django's own 400s): the words as plain text.

All three carry the refusal in the ``HX-Trigger`` header (``declare``), so
no script reads it off the page. A score sheet's own writes answer a
refusal the table fixes on the sheet (a wrong field, a stale page) with the
sheet itself, the entry kept (``matches.render.answer``), declared the same
way; every other refusal is ``refusal`` below."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .errors import Refusal

ANSWER_EVENT = "sk-answer"  # the HX-Trigger event every write's answer carries (docs/page-contract.md)
PAGE = "refused.html"


def declare(response: HttpResponse, *, outcome: str, words: str, **more) -> HttpResponse:
    """What a write's answer says for the scripts, so that none reads it off
    the page: ``outcome`` "saved" or "refused", ``words`` (the notice or the
    refusal), and ``more`` (``bidding``: the new basis of the hand in play;
    ``server``: what the server holds of the hand the write was about).
    ASCII JSON in the HX-Trigger header: htmx fires it as an event, the
    offline queue reads it from the replay's answer."""
    payload = {"outcome": outcome, "words": words, **{k: v for k, v in more.items() if v is not None}}
    response["HX-Trigger"] = json.dumps({ANSWER_EVENT: payload}, ensure_ascii=True)
    return response


def refusal(request: HttpRequest, kind: Refusal, words: str, **more) -> HttpResponse:
    """``kind``'s status and ``words``, for whoever asked (see above);
    ``more`` is declared with them (``server``, ``held``: what the server
    holds of the hand a refused write was about)."""
    if request.htmx or kind == Refusal.MALFORMED or not request.accepts("text/html"):
        response = HttpResponse(words, status=kind.status, content_type="text/plain; charset=utf-8")
    else:
        response = render(request, PAGE, {"words": words, "kind": kind}, status=kind.status)
    return declare(response, outcome="refused", words=words, **more)
