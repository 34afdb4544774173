"""The checks in front of every write view: 404 for no such match or
tournament, 403 (and nothing changed) for someone without the right."""

from __future__ import annotations

from functools import wraps

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ..answers import refusal
from ..audit import Actor
from ..errors import Refusal
from ..models import Hand, Match, Tournament
from .permissions import closed_message, is_organiser_of, is_tournament_organiser, links_closed, match_and_scorer


def refuse(request, message: str | None = None, kind: Refusal = Refusal.FORBIDDEN):
    """Not for this screen (``answers.refusal``): a device without the
    match's link, by default, or the words given."""
    message = message or _("This device may not change this match. Ask the organiser for its scoring link.")
    return refusal(request, kind, message)


def refuse_private(request):
    return refuse(
        request,
        _("This match is a table of a private tournament: only its organisers and the table's device can see it."),
    )


def scorer_required(view=None, *, replays_first: bool = False):
    """For views that change a match's hands: passes the match and the
    ``actor`` (an organiser of the match or a device with its link). A
    device's link writes nothing once the match has ended (counts, or was
    ended): refused here, and again by the services under the match's lock
    (which also allow a match over that still waits for checks only those).
    ``replays_first``: a form whose one-time key was already saved goes
    through, for the service to answer it as the first time (a device whose
    answer was lost learns its last hand was saved); anything new is refused."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, match_id, *args, **kwargs):
            match, actor = match_and_scorer(request, match_id)
            if match is None:
                raise Http404("No such match")
            if actor is None:
                return refuse(request)
            # The replay check is a query: asked only of a device whose match has ended.
            if links_closed(match, actor) and not (replays_first and _saved_before(request, match)):
                return refuse(request, closed_message(match), Refusal.LOCKED)
            return view(request, match, *args, actor=actor, **kwargs)

        return wrapper

    return decorate(view) if view is not None else decorate


def _saved_before(request, match: Match) -> bool:
    key = request.POST.get("client_key") or ""
    return bool(key) and Hand.objects.filter(match=match, client_key=key).exists()


def organiser_required(view):
    """For views that manage a match (abandon, links, history)."""

    @wraps(view)
    def wrapper(request, match_id, *args, **kwargs):
        match = get_object_or_404(Match, pk=match_id)
        if not is_organiser_of(request.user, match):
            return refuse(request, _("Only the match's organisers can do this."))
        return view(request, match, *args, actor=Actor.organiser(request.user), **kwargs)

    return wrapper


def tournament_organiser_required(view):
    """Loads the tournament (``pk``) and refuses anyone but its organisers."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=pk)
        if not is_tournament_organiser(request.user, tournament):
            return refuse(request, _("Only the tournament's organisers can do this."))
        return view(request, tournament, *args, actor=Actor.organiser(request.user), **kwargs)

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
