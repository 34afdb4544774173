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

from . import rows
from .models import AccessLink, Match, Tournament, could_be_id
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


def granted_link(request: HttpRequest, match_id: int) -> AccessLink | None:
    """The active link this device exchanged for this match, if any."""
    ids = [int(i) for i in request.session.get(SESSION_KEY, [])]
    if not ids or not could_be_id(match_id):
        return None
    # Plain SQL rather than a queryset: this runs for every hand a table
    # saves, and building the queryset cost five times running it.
    sql = (
        f"SELECT {rows.columns(AccessLink)} FROM {AccessLink._meta.db_table}"
        f" WHERE match_id = %s AND revoked_at IS NULL AND id IN ({', '.join(['%s'] * len(ids))})"
    )
    [found] = rows.select_sets((sql, [match_id, *ids]))
    return rows.instances(AccessLink, found[:1])[0] if found else None


def scorer(request: HttpRequest, match_id: int) -> Actor | None:
    """The Actor allowed to score the match from this request, or None.
    An organiser is named as such even on a device that holds a link too.
    A table device costs one query: its link proves the match exists."""
    if request.user.is_authenticated:
        match = get_object_or_404(Match, pk=match_id)
        if is_organiser_of(request.user, match):
            return Actor.for_request(request)
    link = granted_link(request, match_id)
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
        actor = scorer(request, match_id)
        if actor is None:
            get_object_or_404(Match, pk=match_id)  # no such match: 404, not 403
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
