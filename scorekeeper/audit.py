"""Who is writing (Actor) and the one place every audit event is written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import AccessLink, AuditEvent, Match, Tournament


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
