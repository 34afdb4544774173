"""Scoring links: tokens that let one device score one match, and the
device's signed grant cookie.

No token is stored anywhere on the server. A link's token is worked out
when it is needed: ``<id>-<generation>-<HMAC>``, the HMAC-SHA256 (256 bits)
keyed with the server's SECRET_KEY under its own salt, of the link's id,
match, generation and creation time. So an organiser can show a link again
on any device (table cards, share page), the database and the sessions
hold nothing that opens a match, and revoking or reissuing a link (the
generation goes up) stops its old token at once. Changing SECRET_KEY
changes every token: that reissues all links (README, Accounts).

Opening a link shows a confirm page; its POST exchanges the link for a
grant: the link's id and a tag of its generation in a cookie signed with
SECRET_KEY, kept for a month. The link is checked again on every write
(``active_link``), so revoking or reissuing it stops the device at once.
"""

from __future__ import annotations

import base64
import re
from datetime import UTC

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac

from ..models import AccessLink, Match

GRANT_COOKIE = "scoring_links"
GRANT_SALT = "scorekeeper.access.grant"
TOKEN_SALT = "scorekeeper.access.link-token"  # keys the tokens' HMAC: used for nothing else
GRANT_TAG_SALT = "scorekeeper.access.grant-tag"
GRANT_TAG_LENGTH = 16  # characters of base64: 96 bits
GRANTS_KEPT = 20  # a device rarely holds more than a few
TOKEN_MAX_LENGTH = 100
TOKEN = re.compile(r"([1-9][0-9]{0,17})-([1-9][0-9]{0,8})-([A-Za-z0-9_-]{43})")


def _mac(salt: str, link: AccessLink) -> str:
    """HMAC-SHA256 of what names this link in this generation, keyed with
    SECRET_KEY under ``salt``, in URL-safe base64 (43 characters). The
    creation time (to the microsecond) ties it to this row: a token of a
    database since wiped and rebuilt with the same key opens nothing."""
    created = link.created_at.astimezone(UTC).strftime("%Y%m%d%H%M%S%f")
    value = f"{link.pk}:{link.match_id}:{link.generation}:{created}"
    digest = salted_hmac(salt, value, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_for(link: AccessLink) -> str:
    """The link's token as it stands (its generation): worked out, never stored."""
    return f"{link.pk}-{link.generation}-{_mac(TOKEN_SALT, link)}"


def find_link(token: str) -> AccessLink | None:
    """The link (with its match) whose current token this is, revoked or
    not; None for a wrong, forged or stale (older generation) token."""
    found = TOKEN.fullmatch(token or "") if len(token or "") <= TOKEN_MAX_LENGTH else None
    if found is None:
        return None
    pk, generation, mac = int(found[1]), int(found[2]), found[3]
    link = AccessLink.objects.select_related("match").filter(pk=pk).first()
    if link is None or link.generation != generation:
        return None
    return link if constant_time_compare(mac, _mac(TOKEN_SALT, link)) else None


def _grant_tag(link: AccessLink) -> str:
    return _mac(GRANT_TAG_SALT, link)[:GRANT_TAG_LENGTH]


def grants(request: HttpRequest) -> dict[int, str]:
    """The links this device exchanged, {id: tag of their generation} (none
    if its cookie is missing, altered or older than a month). Every grant
    carries its tag: an id alone opens nothing, even in a cookie signed
    with the server's key."""
    value = request.get_signed_cookie(GRANT_COOKIE, default="", salt=GRANT_SALT, max_age=settings.SCORING_GRANT_AGE)
    found: dict[int, str] = {}
    for item in value.split(","):
        pk, _dot, tag = item.partition(".")
        if pk.isascii() and pk.isdigit() and len(pk) <= 18 and len(tag) == GRANT_TAG_LENGTH:
            found[int(pk)] = tag
    return found


def granted_ids(request: HttpRequest) -> list[int]:
    """The ids of the links this device exchanged."""
    return list(grants(request))


def _holds(link: AccessLink, tag: str) -> bool:
    return constant_time_compare(tag, _grant_tag(link))


def active_link(request: HttpRequest, match_id: int, match: Match | None = None) -> AccessLink | None:
    """The unrevoked link of this match that this device exchanged in its
    current generation, if any, with its match: read along, or ``match``
    when the caller holds it already (the join costs a third of the check)."""
    held = grants(request)
    if not held:
        return None
    links = AccessLink.objects.filter(match_id=match_id, pk__in=list(held), revoked_at__isnull=True)
    if match is None:
        links = links.select_related("match")
    link = next((link for link in links if _holds(link, held[link.pk])), None)
    if link is not None and match is not None:
        link.match = match
    return link


def grant(request: HttpRequest, response: HttpResponse, link: AccessLink) -> None:
    """Let this device score the link's match: its cookie on ``response``."""
    kept = [f"{pk}.{tag}" for pk, tag in grants(request).items() if pk != link.pk]
    response.set_signed_cookie(
        GRANT_COOKIE,
        ",".join([*kept[-(GRANTS_KEPT - 1) :], f"{link.pk}.{_grant_tag(link)}"]),
        salt=GRANT_SALT,
        max_age=settings.SCORING_GRANT_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
