"""Who may confirm a hand (or say that something is wrong with it).

The other side checks what one side entered. Which player holds a phone
is beyond the app, so the rule is about screens:

- on the very phone that entered the hand, the table passes the phone
  across and the other side answers the card it shows. That phone is
  recognised by a cookie signed with SECRET_KEY holding the key of the
  write that made the hand as it stands (``Hand.entry_key``), set on the
  answer to that write (``remember_entry``): another phone of the same
  login or link has no such cookie, and a later correction from another
  screen gives the hand a new key;
- from any other screen, any scoring device or organiser login other
  than the one that made the hand as it stands (``Hand.entered_by_link``,
  ``Hand.entered_by_user``) may answer: at a tournament table the other
  side's link (each side has its own). The same link or the same organiser
  login from another screen may not (403, in plain words).

Everybody who may check must also be allowed to score the match
(``decorators.scorer_required``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from ..audit import Actor
from ..models import Hand

ENTERED_COOKIE = "entered_hands"
ENTERED_SALT = "scorekeeper.access.entered"
ENTRIES_KEPT = 20  # the latest hands this phone entered


def entered_keys(request: HttpRequest) -> set[str]:
    """The one-time keys of the hands this phone entered (none if the
    cookie is missing, altered or older than a day)."""
    value = request.get_signed_cookie(ENTERED_COOKIE, default="", salt=ENTERED_SALT, max_age=24 * 60 * 60)
    return {key for key in value.split(",") if key}


def remember_entry(request: HttpRequest, response: HttpResponse, client_key: str | None) -> None:
    """Mark on ``response`` that this phone entered the hand saved with ``client_key``."""
    if not client_key:
        return
    keys = [k for k in request.get_signed_cookie(ENTERED_COOKIE, "", salt=ENTERED_SALT).split(",") if k]
    keys = [k for k in keys if k != client_key][-(ENTRIES_KEPT - 1) :] + [client_key]
    response.set_signed_cookie(
        ENTERED_COOKIE,
        ",".join(keys),
        salt=ENTERED_SALT,
        max_age=24 * 60 * 60,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def wrote_it(actor: Actor, hand: Hand) -> bool:
    """Is ``actor`` (a link, or an organiser's login) the one that made the
    hand as it stands (``Hand.entered_by_*``)? The app itself (no link, no
    login) is nobody's screen."""
    if actor.link is not None:
        return hand.entered_by_link_id == actor.link.pk
    return actor.user is not None and hand.entered_by_link_id is None and hand.entered_by_user_id == actor.user.pk


def may_check(actor: Actor, hand: Hand, *, same_phone: bool) -> bool:
    """The other side, or the card on the phone that entered the hand."""
    return same_phone or not wrote_it(actor, hand)
