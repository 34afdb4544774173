"""Who is writing (Actor) and the one place every audit event is written."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from .models import AccessLink, AuditEvent, Match, Tournament

Action = AuditEvent.Action
BIDDING_ACTIONS = (Action.BIDS_SAVED, Action.BIDS_CLEARED)
# The changes that move what a score sheet shows; links issued or revoked,
# a hand confirmed or accepted do not change what it shows of the hands.
SHEET_ACTIONS = (
    *BIDDING_ACTIONS,
    Action.HAND_RECORDED,
    Action.HAND_EDITED,
    Action.HAND_RESTORED,
    Action.HAND_UNDONE,
    Action.MATCH_ABANDONED,
    Action.MATCH_REOPENED,
    Action.ENDED_EARLY,
)


@dataclass(frozen=True)
class Actor:
    """Who is writing, for permissions and the audit trail."""

    label: str
    user: Any = None
    link: AccessLink | None = None  # the scoring link a device used, if any

    @classmethod
    def organiser(cls, user) -> Actor:
        return cls(label=f"organiser {user.get_username()}", user=user)

    @classmethod
    def device(cls, link: AccessLink) -> Actor:
        return cls(label=f"device ({link.label})", link=link)


SYSTEM = Actor(label="system")


@dataclass(frozen=True)
class Change:
    """The newest change of a match's sheet as its row keeps it
    (``Match.last_change``): what, which hand, by whom, when."""

    action: str
    hand_number: int | None
    link_label: str | None  # made on a device with this scoring link
    user_name: str | None  # else by this organiser
    at: datetime

    @classmethod
    def of(cls, match: Match) -> Change | None:
        kept = match.last_change
        if not isinstance(kept, dict):
            return None
        try:
            return cls(
                kept["action"], kept.get("hand"), kept.get("link"), kept.get("user"), datetime.fromisoformat(kept["at"])
            )
        except (KeyError, TypeError, ValueError):
            return None


def change_of(actor: Actor, action: str, hand_number: int | None) -> dict:
    """What a write leaves in ``Match.last_change`` (read by ``Change.of``)."""
    return {
        "action": action,
        "hand": hand_number,
        "link": actor.link.label if actor.link is not None else None,
        "user": actor.user.get_username() if actor.link is None and actor.user is not None else None,
        "at": timezone.now().isoformat(),
    }


def record(
    actor: Actor,
    action: str,
    *,
    match: Match | None = None,
    tournament: Tournament | None = None,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEvent:
    """Record who changed what, with the state before and after."""
    return AuditEvent.objects.create(
        match=match,
        tournament=tournament,
        user=actor.user,
        link=actor.link,
        actor=actor.label,
        action=action,
        hand_number=hand_number,
        before=before,
        after=after,
    )
