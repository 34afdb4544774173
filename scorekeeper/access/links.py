"""Scoring links: secret tokens that let one device score one match.

The token has 256 bits from ``secrets``; only its SHA-256 is stored, so a
link is shown once, when it is issued. Opening a link shows a confirm page;
its POST exchanges the link for a grant: the link's id in a cookie signed
with SECRET_KEY (HMAC), kept for a month. The link itself is checked again
on every write (``active_link``), so revoking it stops the device at once.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from ..models import AccessLink

GRANT_COOKIE = "scoring_links"
GRANT_SALT = "scorekeeper.access.grant"
GRANTS_KEPT = 20  # a device rarely holds more than a few
TOKEN_MAX_LENGTH = 100


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def find_link(token: str) -> AccessLink | None:
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    return AccessLink.objects.select_related("match").filter(token_hash=hash_token(token)).first()


def granted_ids(request: HttpRequest) -> list[int]:
    """The ids of the links this device exchanged (none if its cookie is
    missing, altered or older than a month). Signed by us, so ids."""
    value = request.get_signed_cookie(GRANT_COOKIE, default="", salt=GRANT_SALT, max_age=settings.SCORING_GRANT_AGE)
    return [int(i) for i in value.split(",") if i.isascii() and i.isdigit()]


def active_link(request: HttpRequest, match_id: int) -> AccessLink | None:
    """The unrevoked link of this match that this device exchanged, if any
    (with its match)."""
    ids = granted_ids(request)
    if not ids:
        return None
    return (
        AccessLink.objects.select_related("match")
        .filter(match_id=match_id, pk__in=ids, revoked_at__isnull=True)
        .first()
    )


def grant(request: HttpRequest, response: HttpResponse, link: AccessLink) -> None:
    """Let this device score the link's match: its cookie on ``response``."""
    ids = [i for i in granted_ids(request) if i != link.pk]
    response.set_signed_cookie(
        GRANT_COOKIE,
        ",".join(str(i) for i in [*ids[-(GRANTS_KEPT - 1) :], link.pk]),
        salt=GRANT_SALT,
        max_age=settings.SCORING_GRANT_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
