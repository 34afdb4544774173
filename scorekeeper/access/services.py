"""Every write of rights: scoring links, co-organisers, the first account."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor, record
from ..errors import ServiceError
from ..models import AccessLink, AuditEvent, Match, Table
from .links import token_for

Action = AuditEvent.Action

LABEL_MAX_LENGTH = 80


@transaction.atomic
def issue_link(*, match_id: int, label: str, actor: Actor, side: int | None = None) -> tuple[AccessLink, str]:
    """A new secret scoring link for one match (a tournament table's:
    for one ``side`` of it). Returns the link and its token, which is worked
    out from SECRET_KEY (``links.token_for``): not stored, and shown again
    to the organisers whenever they ask."""
    match = Match.objects.select_for_update().get(pk=match_id)
    link = AccessLink.objects.create(match=match, label=label[:LABEL_MAX_LENGTH], created_by=actor.user, side=side)
    record(actor, Action.LINK_ISSUED, match=match, after={"link": link.pk, "label": link.label})
    return link, token_for(link)


@transaction.atomic
def revoke_link(*, link_id: int, actor: Actor) -> AccessLink:
    """The link stops working at once: its token and the devices' grants
    were made for a generation it no longer has."""
    link = AccessLink.objects.select_for_update().select_related("match").get(pk=link_id)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.generation += 1
        link.save(update_fields=["revoked_at", "generation"])
        record(actor, Action.LINK_REVOKED, match=link.match, before={"link": link.pk, "label": link.label})
    return link


@transaction.atomic
def reissue_link(*, match_id: int, label: str, actor: Actor, side: int | None = None) -> tuple[AccessLink, str]:
    """The match's one scoring link (of ``side``, at a tournament table) in
    a new generation: its newest link (revoked or not) works again with a
    new token, the old token and every device's grant stop at once; any
    other link of it is revoked. None yet: a new one."""
    match = Match.objects.select_for_update().get(pk=match_id)
    links = list(AccessLink.objects.filter(match=match, side=side).order_by("-created_at", "-pk"))
    if not links:
        return issue_link(match_id=match_id, label=label, actor=actor, side=side)
    link, others = links[0], links[1:]
    for other in others:
        revoke_link(link_id=other.pk, actor=actor)
    link.generation += 1
    link.revoked_at = None
    link.label = label[:LABEL_MAX_LENGTH]
    link.save(update_fields=["generation", "revoked_at", "label"])
    record(actor, Action.LINK_REISSUED, match=match, after={"link": link.pk, "label": link.label})
    return link, token_for(link)


def revoke_match_links(*, match_id: int, actor: Actor) -> int:
    """Revoke every active link of a match; returns how many."""
    ids = list(AccessLink.objects.filter(match_id=match_id, revoked_at__isnull=True).values_list("pk", flat=True))
    for link_id in ids:
        revoke_link(link_id=link_id, actor=actor)
    return len(ids)


@transaction.atomic
def let_links_write(*, match_id: int, actor: Actor) -> Match:
    """An organiser gives a casual match's closed scoring links back, once
    the match is in progress again (reopened, or a correction undid its end)."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if Table.objects.filter(match=match).exists():
        raise ServiceError(_("A tournament table's links stay closed once the table has ended."), code="closed")
    if match.status != Match.Status.IN_PROGRESS:
        raise ServiceError(
            _("The match is over: its links can write again only once it is in progress again."), code="closed"
        )
    if match.links_closed_at is None:
        return match  # already writing (a double tap)
    match.links_closed_at = None
    match.version += 1  # a page drawn before shows the links closed
    match.save(update_fields=["links_closed_at", "version", "updated_at"])
    record(actor, Action.LINKS_REOPENED, match=match)
    return match


@transaction.atomic
def add_co_organiser(*, match_id: int, username: str, actor: Actor) -> Match:
    wanted = (username or "").strip()
    user = get_user_model().objects.filter(username__iexact=wanted).first()
    if user is None:
        raise ServiceError(_("There is no organiser account called %(name)s.") % {"name": wanted[:40]})
    match = Match.objects.select_for_update().get(pk=match_id)
    match.co_organisers.add(user)
    record(actor, Action.CO_ORGANISER_ADDED, match=match, after={"user": user.get_username()})
    return match


def needs_setup() -> bool:
    return not get_user_model().objects.exists()


@transaction.atomic
def create_first_organiser(*, username: str, password: str):
    """The first organiser account of a fresh install, once."""
    if not needs_setup():  # someone else was quicker
        raise ServiceError(_("This installation already has an organiser."), code="state")
    return get_user_model().objects.create_superuser(username=username, password=password)
