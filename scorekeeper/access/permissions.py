"""Who may do what.

- Organisers are Django users. A match belongs to its owner; co-organisers
  may do everything the owner may. A tournament's table matches belong to
  the tournament's organisers.
- A device may score one match after exchanging that match's scoring link
  (see ``links``), until the match ends: from then on (``links_closed_at``)
  only its organisers may change its results. A match over whose hands
  still wait for the other side's check keeps its links open for those
  checks only (``only_checks_left``), until it counts.
- Players are one list for the club. A player may be renamed by an
  organiser of a match or tournament the player is in, by anyone logged in
  while the player is in none yet, and by a superuser
  (``renamable_players``).
- Everybody may read score sheets, except those of a private tournament's
  tables: only its organisers and the devices holding that table's link
  may read them (``may_view_match``).

Every write view checks here (``decorators``), whatever the page shows;
the services record who did it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from ..audit import Actor
from ..models import Entrant, Match, Player, Seat, Table, Tournament
from .links import active_link


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


def renamable_players(user) -> QuerySet[Player]:
    """The players this organiser may rename: those of the matches and
    tournaments they run, and those in none yet (renaming one changes no
    one's sheet). Subqueries, so no row is multiplied."""
    if not user.is_authenticated:
        return Player.objects.none()
    if user.is_superuser:
        return Player.objects.all()
    tournaments = Tournament.objects.filter(Q(owner=user) | Q(co_organisers=user)).values("pk")
    matches = Match.objects.filter(
        Q(owner=user) | Q(co_organisers=user) | Q(table__round__tournament__in=tournaments)
    ).values("pk")
    return Player.objects.filter(
        Q(pk__in=Seat.objects.filter(match__in=matches).values("player_id"))
        | Q(pk__in=Entrant.objects.filter(tournament__in=tournaments).values("player_id"))
        | (~Q(pk__in=Seat.objects.values("player_id")) & ~Q(pk__in=Entrant.objects.values("player_id")))
    )


def may_rename_player(user, player: Player) -> bool:
    return renamable_players(user).filter(pk=player.pk).exists()


def scorer(request: HttpRequest, match: Match) -> Actor | None:
    """The Actor allowed to score the match from this request, or None.
    An organiser is named as such even on a device that holds a link too."""
    if is_organiser_of(request.user, match):
        return Actor.organiser(request.user)
    link = active_link(request, match.pk, match)
    return Actor.device(link) if link else None


def match_and_scorer(request: HttpRequest, match_id: int) -> tuple[Match | None, Actor | None]:
    """The match (None: there is none) and who may score it from this
    request. A table device's link brings its match along: one query."""
    if not request.user.is_authenticated:
        link = active_link(request, match_id)
        if link is not None:
            return link.match, Actor.device(link)
    match = Match.objects.filter(pk=match_id).first()
    return match, (scorer(request, match) if match else None)


def in_private_tournament(match: Match) -> bool:
    return Tournament.objects.filter(rounds__tables__match=match, is_public=False).exists()


def may_view_match(request: HttpRequest, match: Match, *, private: bool | None = None) -> bool:
    """Anyone may read a match's pages, but a private tournament's table
    only its organisers and a device holding the table's link. ``private``:
    already known (saves the query)."""
    if private is None:
        private = in_private_tournament(match)
    return not private or scorer(request, match) is not None


def links_closed(match: Match, actor: Actor | None) -> bool:
    """A device whose link no longer writes: the match has ended."""
    return actor is not None and actor.link is not None and match.links_closed_at is not None


def only_checks_left(match: Match, actor: Actor | None) -> bool:
    """A device whose match is over while hands still wait for the other
    side: its link may check them (and correct one marked as wrong), and
    nothing else, until the match counts (``links_closed_at``)."""
    return (
        actor is not None
        and actor.link is not None
        and match.links_closed_at is None
        and match.status == Match.Status.FINISHED
    )


def closed_message(match: Match) -> str:
    """Why a device's link no longer writes, in plain words."""
    if Table.objects.filter(match_id=match.pk).exists():
        return _("This table has ended: only the organiser can change its results now.")
    if match.status == Match.Status.ABANDONED:
        return _("This match was abandoned: only the organiser can reopen it or change its results now.")
    return _("This match has ended: only the organiser can change its results now.")


@dataclass(frozen=True)
class Viewer:
    """What the person looking at a score sheet may do there. A device
    whose match has ended may only watch (``links_closed``); once its match
    is over but hands still wait for the other side, it may only check
    them, and correct a hand marked as wrong (``can_check`` without
    ``can_score``)."""

    can_score: bool
    is_organiser: bool
    links_closed: bool = False
    can_check: bool = False
    link_id: int | None = None  # who this screen is: its link, or its organiser's login
    user_id: int | None = None

    @classmethod
    def of(cls, actor: Actor | None, match: Match | None = None) -> Viewer:
        closed = match is not None and links_closed(match, actor)
        checks_only = match is not None and only_checks_left(match, actor)
        return cls(
            can_score=actor is not None and not closed and not checks_only,
            is_organiser=actor is not None and actor.link is None,
            links_closed=closed,
            can_check=actor is not None and not closed,
            link_id=actor.link.pk if actor is not None and actor.link is not None else None,
            user_id=actor.user.pk if actor is not None and actor.link is None and actor.user is not None else None,
        )

    def entered(self, entered_by_link_id: int | None, entered_by_user_id: int | None) -> bool:
        """Is this screen's link (or login) the one that made a hand as it stands?"""
        if self.link_id is not None:
            return entered_by_link_id == self.link_id
        return self.user_id is not None and entered_by_link_id is None and entered_by_user_id == self.user_id
