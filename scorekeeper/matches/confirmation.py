"""Opponent confirmation: the rules the writes of a match follow when the
other side checks each saved hand (``Match.confirm_hands``), as Bridgemate
has East verify what North entered.

- A saved hand is *pending* until a player of the other side says
  "Correct" (*confirmed*) or "Something is wrong" (*disputed*: the table
  corrects it, and the corrected hand is pending again).
- A confirmed hand is locked: only an organiser changes it, and such a
  change is named in the history of changes. So is every change made
  after the match was over.
- ``Match.unconfirmed_hands`` counts the pending and disputed hands; a
  match counts (in a tournament's standings) when it is over and that
  count is 0, or when an organiser accepted it as it is
  (``Match.accepted_at``) or ended its table. Until then a match over
  keeps its links open for the checks left (and the correction of a hand
  marked as wrong) only; once it counts they close (``settle``).
- Who may check is decided from the hand itself (``Hand.entered_by_*``,
  ``Hand.entry_key``; access/confirming.py), never from the audit log.

These helpers run inside the caller's locked transaction
(``services``); they write nothing of their own except the audit event of
a correction."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor, record
from ..errors import ServiceError
from ..i18n import hand_words
from ..models import AuditEvent, Hand, Match
from ..scoring import get_game

Action = AuditEvent.Action
PENDING = Hand.Confirmation.PENDING
CONFIRMED = Hand.Confirmation.CONFIRMED
DISPUTED = Hand.Confirmation.DISPUTED
UNCONFIRMED = (PENDING, DISPUTED)
CHECK_ACTIONS = (Action.HAND_CONFIRMED, Action.HAND_DISPUTED)


def counts_as_final(match: Match) -> bool:
    """Over, and nothing left for the other side to check (or an organiser
    accepted it as it is): what a tournament's standings count."""
    if match.status != Match.Status.FINISHED:
        return False
    return match.unconfirmed_hands == 0 or match.accepted_at is not None


def settle(match: Match) -> list[str]:
    """A match over that now counts closes its links for good; the fields to
    save (none if nothing changed). Until it counts, a match over keeps them
    open for the other side's checks (``permissions.only_checks_left``)."""
    if match.links_closed_at is None and counts_as_final(match):
        match.links_closed_at = timezone.now()
        return ["links_closed_at"]
    return []


def by_organiser(actor: Actor) -> bool:
    """An organiser's login (or the app itself), not a table's link."""
    return actor.link is None


# ------------------------------------------------------------ a new hand


def first_state(match: Match) -> str:
    return PENDING if match.confirm_hands else ""


def count_new_hand(match: Match) -> list[str]:
    """Count a new hand as waiting for the other side; the fields to save."""
    if not match.confirm_hands:
        return []
    match.unconfirmed_hands += 1
    return ["unconfirmed_hands"]


# ------------------------------------------------------------ corrections


@dataclass(frozen=True)
class Correction:
    """What a correction (edit, undo, restore) of one hand changes."""

    state: str  # the hand's confirmation before the write
    was_over: bool  # the match was over before the write
    by_organiser: bool


def guard_correction(match: Match, number: int, actor: Actor) -> Correction:
    """Refuse a table's change of a locked hand (confirmed, or the match
    accepted by an organiser as it is): code "locked", nothing changed."""
    state = ""
    if match.confirm_hands:
        state = Hand.objects.filter(match=match, number=number).values_list("confirmation", flat=True).first() or ""
    organiser = by_organiser(actor)
    if not organiser and (state == CONFIRMED or match.accepted_at is not None):
        raise ServiceError(locked_message(match, number), code="locked")
    return Correction(state, match.status == Match.Status.FINISHED, organiser)


def locked_message(match: Match, number: int) -> str:
    words = {**hand_words(match.game), "n": number}
    if has_sides(match):
        return (
            _(
                "%(H)s %(n)d is locked: it was confirmed by the other side "
                "(or an organiser accepted the match as it is). "
                "Only an organiser can correct it now; nothing was changed."
            )
            % words
        )
    return (
        _(
            "%(H)s %(n)d is locked: it was confirmed by another player "
            "(or an organiser accepted the match as it is). "
            "Only an organiser can correct it now; nothing was changed."
        )
        % words
    )


def has_sides(match: Match) -> bool:
    """The game has partnerships: the other side checks; else another player (GameSpec.has_sides)."""
    return get_game(match.game).spec.has_sides


def state_after_edit(correction: Correction) -> dict:
    """A disputed hand, once corrected, waits for the other side again (its
    earlier answer's key no longer stands for it)."""
    return {"confirmation": PENDING, "check_key": None} if correction.state == DISPUTED else {}


def mark_correction(match: Match, correction: Correction, *, removed: bool = False) -> list[str]:
    """Keep the match's count of hands to check and its "corrected by the
    organiser" mark; the fields to save."""
    fields = []
    if removed and correction.state in UNCONFIRMED:
        match.unconfirmed_hands -= 1
        fields.append("unconfirmed_hands")
    if correction.by_organiser and correction.was_over:
        match.corrected_at = timezone.now()
        fields.append("corrected_at")
    return fields


def record_correction(actor: Actor, match: Match, number: int, correction: Correction) -> None:
    """Name a correction made after the match was over or after the hand
    was confirmed, beside the edit itself, in the history of changes."""
    if correction.was_over and correction.by_organiser:
        record(actor, Action.CORRECTED_AFTER_END, match=match, hand_number=number)
    elif correction.state == CONFIRMED:
        record(actor, Action.CORRECTED_AFTER_CONFIRMATION, match=match, hand_number=number)
