"""Who may do what.

- Organisers are Django users. A match belongs to its owner; co-organisers
  may do everything the owner may. A tournament's table matches belong to
  the tournament's organisers.
- A device may score one match after exchanging that match's secret link
  (a casual match's shared link, or a tournament table's link) for a grant:
  the link's id in a signed cookie (HMAC with SECRET_KEY, a month). A
  table device sends it with every hand, and reading it costs no query,
  where a session would cost one; the link itself is still checked on
  every write, so revoking it stops the device at once. The token has 256
  bits from ``secrets``; only its SHA-256 is stored. Opening the link only
  shows a confirm page: the POST exchanges it, so link previewers and
  prefetchers change nothing.
- Everybody may read score sheets.

Every write view checks here (and services record who did it)."""

from __future__ import annotations

from functools import partial, wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from . import selectors
from .models import AccessLink, Match, Tournament, could_be_id
from .services import Actor
from .tokens import hash_token

GRANT_COOKIE = "scoring_links"
GRANT_SALT = "scorekeeper.access.grant"
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


def granted_ids(request: HttpRequest) -> list[int]:
    """The ids of the links this device exchanged (none if its cookie is
    missing, altered or older than a month)."""
    value = request.get_signed_cookie(GRANT_COOKIE, default="", salt=GRANT_SALT, max_age=settings.SESSION_COOKIE_AGE)
    return [int(i) for i in value.split(",") if i.isascii() and i.isdigit()]


def granted_link(request: HttpRequest, match_id: int) -> AccessLink | None:
    """The active link this device exchanged for this match, if any."""
    ids = granted_ids(request)
    if not ids or not could_be_id(match_id):
        return None
    return selectors.active_link(match_id, ids)


def scorer(request: HttpRequest, match_id: int) -> Actor | None:
    """The Actor allowed to score the match from this request, or None.
    An organiser is named as such even on a device that holds a link too.
    A table device costs one query: its link proves the match exists."""
    if request.user.is_authenticated:
        match = get_object_or_404(Match, pk=match_id)
        if is_organiser_of(request.user, match):
            return Actor.for_request(request)
    return _device(granted_link(request, match_id))


def _device(link: AccessLink | None) -> Actor | None:
    return None if link is None else Actor(label=f"device ({link.label})", link=link)


def refuse(request: HttpRequest, message: str | None = None):
    return render(
        request,
        "forbidden.html",
        {"message": message or _("This device may not change this match. Ask the organiser for its scoring link.")},
        status=FORBIDDEN,
    )


def scorer_required(view=None, *, with_state: bool = False):
    """For views that change a match's hands: passes ``actor`` to the view.
    ``with_state``: for views that start by reading the match; passes
    ``state`` too (selectors.match_state), read together with the device's
    link check: one round trip on PostgreSQL for both."""
    if view is None:
        return partial(scorer_required, with_state=with_state)

    @wraps(view)
    def wrapper(request, match_id, *args, **kwargs):
        if with_state:
            state = selectors.match_state(match_id, device_links=granted_ids(request))  # 404: no such match
            if request.user.is_authenticated and is_organiser_of(request.user, state.match):
                actor = Actor.for_request(request)
            else:
                actor = _device(state.device_link)
            kwargs["state"] = state
        else:
            actor = scorer(request, match_id)
            if actor is None:
                get_object_or_404(Match, pk=match_id)  # no such match: 404, not 403
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


def grant(request: HttpRequest, response: HttpResponse, link: AccessLink) -> None:
    """Let this device score the link's match: its cookie on ``response``."""
    ids = [i for i in granted_ids(request) if i != link.pk]
    response.set_signed_cookie(
        GRANT_COOKIE,
        ",".join(str(i) for i in [*ids[-19:], link.pk]),  # a device rarely holds more than a few
        salt=GRANT_SALT,
        max_age=settings.SESSION_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
