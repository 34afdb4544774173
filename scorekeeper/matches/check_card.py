"""What the other side reads to check a saved hand: each player's (or side's) points
and why (the engine's why-lines, worked out with the sheet) and the totals
after it. Read from the sheet already worked out: no query of its own."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from ..access.permissions import Viewer
from ..i18n import shown
from ..models import Match
from ..scoring import InvalidHand, preview_hand
from .confirmation import DISPUTED, PENDING, UNCONFIRMED
from .selectors import ScoreSheet


@dataclass
class CheckLine:
    name: str
    points: int | None
    why: str
    total: int | None


@dataclass
class CheckCard:
    number: int
    state: str  # "pending" or "disputed"
    lines: list[CheckLine]
    version: int  # what the answer is based on
    same_phone: bool  # shown on the phone that entered the hand: pass it across
    client_key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def disputed(self) -> bool:
        return self.state == DISPUTED


def card_for(sheet: ScoreSheet, number: int, *, same_phone: bool = False) -> CheckCard:
    """The card of hand ``number`` (1-based, a hand of the sheet)."""
    row = sheet.rows[number - 1]
    try:
        why = shown(_why(sheet, row))
    except InvalidHand:  # a stored hand a stricter rule refuses: the sheet says so
        why = []
    lines = [
        CheckLine(name, row.points[seat], why[seat] if seat < len(why) else "", row.totals[seat])
        for seat, (name, _short) in enumerate(sheet.scorers)
    ]
    return CheckCard(number, row.confirmation, lines, sheet.match.version, same_phone)


def _why(sheet: ScoreSheet, row) -> list[str]:
    """The hand's why-lines: worked out with the sheet for a hand waiting
    for its check (``Held.explained``), else scored again up to it."""
    if row.why is not None:
        return row.why
    earlier = {**sheet.engine_input, "hands": sheet.engine_input["hands"][: row.number - 1]}
    return preview_hand(earlier, row.entry)["hand"].get("why") or []


def asks_for_checks(sheet: ScoreSheet) -> bool:
    """The match asks the other side to check its hands, and is not abandoned."""
    return sheet.match.confirm_hands and sheet.match.status != Match.Status.ABANDONED


def may_be_checked(sheet: ScoreSheet) -> bool:
    """Its hands still take an answer: no organiser accepted it as it is
    (then every answer is refused: "needs no check")."""
    return asks_for_checks(sheet) and sheet.match.accepted_at is None


def may_check(sheet: ScoreSheet, row, viewer: Viewer, *, same_phone: bool = False) -> bool:
    """May this screen answer the check of ``row``? What the check view and
    ``services.check_hand`` allow, so that a Check link (or a card) is shown
    only where the answer will be taken: a screen that may score, a hand
    waiting for the other side, and not the link or login that made it as it
    stands unless this is the very phone (the card passed across)."""
    return (
        viewer.can_check
        and may_be_checked(sheet)
        and row.confirmation in UNCONFIRMED
        and (same_phone or not viewer.entered(row.entered_by_link_id, row.entered_by_user_id))
    )


def pass_card(sheet: ScoreSheet, viewer: Viewer, entered: set[str], later: int | None = None) -> CheckCard | None:
    """The card to pass across on the phone that entered a hand: its oldest
    hand still waiting for the other side (``later``: a hand the table put
    off for now)."""
    if not entered or not may_be_checked(sheet):
        return None
    for row in sheet.rows:
        mine = sheet.entry_keys.get(row.number) in entered
        waiting = row.confirmation == PENDING and row.number != later
        if waiting and mine and may_check(sheet, row, viewer, same_phone=True):
            return card_for(sheet, row.number, same_phone=True)
    return None
