"""Every write of rights: scoring links, co-organisers, the first account."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor, record
from ..errors import ServiceError
from ..models import AccessLink, Match
from .links import hash_token, new_token

LABEL_MAX_LENGTH = 80


@transaction.atomic
def issue_link(*, match_id: int, label: str, actor: Actor) -> tuple[AccessLink, str]:
    """A new secret scoring link for one match. Returns the link and its
    token; the token is not stored and cannot be shown again."""
    token = new_token()
    match = Match.objects.select_for_update().get(pk=match_id)
    link = AccessLink.objects.create(
        match=match, token_hash=hash_token(token), label=label[:LABEL_MAX_LENGTH], created_by=actor.user
    )
    record(actor, "link issued", match=match, after={"link": link.pk, "label": link.label})
    return link, token


@transaction.atomic
def revoke_link(*, link_id: int, actor: Actor) -> AccessLink:
    link = AccessLink.objects.select_for_update().select_related("match").get(pk=link_id)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        record(actor, "link revoked", match=link.match, before={"link": link.pk, "label": link.label})
    return link


def revoke_match_links(*, match_id: int, actor: Actor) -> int:
    """Revoke every active link of a match; returns how many."""
    ids = list(AccessLink.objects.filter(match_id=match_id, revoked_at__isnull=True).values_list("pk", flat=True))
    for link_id in ids:
        revoke_link(link_id=link_id, actor=actor)
    return len(ids)


@transaction.atomic
def add_co_organiser(*, match_id: int, username: str, actor: Actor) -> Match:
    wanted = (username or "").strip()
    user = get_user_model().objects.filter(username__iexact=wanted).first()
    if user is None:
        raise ServiceError(_("There is no organiser account called %(name)s.") % {"name": wanted[:40]})
    match = Match.objects.select_for_update().get(pk=match_id)
    match.co_organisers.add(user)
    record(actor, "co-organiser added", match=match, after={"user": user.get_username()})
    return match


def needs_setup() -> bool:
    return not get_user_model().objects.exists()


@transaction.atomic
def create_first_organiser(*, username: str, password: str):
    """The first organiser account of a fresh install, once."""
    if not needs_setup():  # someone else was quicker
        raise ServiceError(_("This installation already has an organiser."), code="state")
    return get_user_model().objects.create_superuser(username=username, password=password)
