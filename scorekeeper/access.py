"""Who may do what.

- Organisers are Django users. A match belongs to its owner; co-organisers
  may do everything the owner may. A tournament's table matches belong to
  the tournament's organisers.
- A device may score one match after exchanging that match's secret link
  (a casual match's shared link, or a tournament table's link) for a grant
  in its session. The token has 256 bits from ``secrets``; only its SHA-256
  is stored. Opening the link only shows a confirm page: the POST exchanges
  it, so link previewers and prefetchers change nothing.
- Everybody may read score sheets.

Every write view checks here (and services record who did it)."""

from __future__ import annotations

from functools import wraps

from django.http import HttpRequest
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from .models import AccessLink, Match, Tournament
from .services import Actor
from .tokens import hash_token

SESSION_KEY = "scoring_links"
FORBIDDEN = 403


def is_organiser_of(user, match: Match) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser or match.owner_id == user.pk:
        return True
    if match.co_organisers.filter(pk=user.pk).exists():
        return True
    # A tournament table's match is run by the tournament's organisers.
    tournament = Tournament.objects.filter(rounds__tables__match=match).first()
    return tournament is not None and is_tournament_organiser(user, tournament)


def is_tournament_organiser(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser or tournament.owner_id == user.pk:
        return True
    return tournament.co_organisers.filter(pk=user.pk).exists()


def granted_link(request: HttpRequest, match: Match) -> AccessLink | None:
    """The active link this device exchanged for this match, if any."""
    ids = request.session.get(SESSION_KEY, [])
    if not ids:
        return None
    return AccessLink.objects.filter(pk__in=ids, match=match, revoked_at__isnull=True).first()


def scorer(request: HttpRequest, match: Match) -> Actor | None:
    """The Actor allowed to score ``match`` from this request, or None."""
    if is_organiser_of(request.user, match):
        return Actor.for_request(request)
    link = granted_link(request, match)
    if link is not None:
        return Actor(label=f"device ({link.label})", link=link)
    return None


def refuse(request: HttpRequest, message: str | None = None):
    return render(
        request,
        "forbidden.html",
        {"message": message or _("This device may not change this match. Ask the organiser for its scoring link.")},
        status=FORBIDDEN,
    )


def scorer_required(view):
    """For views that change a match's hands: passes ``actor`` to the view."""

    @wraps(view)
    def wrapper(request, match_id, *args, **kwargs):
        match = get_object_or_404(Match, pk=match_id)
        actor = scorer(request, match)
        if actor is None:
            return refuse(request)
        return view(request, match_id, *args, actor=actor, **kwargs)

    return wrapper


def organiser_required(view):
    """For views that manage a match (abandon, share links, co-organisers)."""

    @wraps(view)
    def wrapper(request, match_id, *args, **kwargs):
        match = get_object_or_404(Match, pk=match_id)
        if not is_organiser_of(request.user, match):
            return refuse(request, _("Only the match's organisers can do this."))
        return view(request, match_id, *args, actor=Actor.for_request(request), **kwargs)

    return wrapper


def find_link(token: str) -> AccessLink | None:
    if not token or len(token) > 100:
        return None
    return AccessLink.objects.select_related("match").filter(token_hash=hash_token(token)).first()


def grant(request: HttpRequest, link: AccessLink) -> None:
    """Remember in this device's session that it may score the link's match."""
    ids = [i for i in request.session.get(SESSION_KEY, []) if i != link.pk]
    request.session[SESSION_KEY] = [*ids[-19:], link.pk]  # a device rarely holds more than a few
