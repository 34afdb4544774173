"""What the other side reads to check a saved hand: each player's points
and why (the engine's why-lines, worked out with the sheet) and the totals
after it. Read from the sheet already worked out: no query of its own."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from ..access.permissions import Viewer
from ..i18n import shown
from ..models import Match
from ..scoring import InvalidHand, preview_hand
from .confirmation import DISPUTED, PENDING
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
        for seat, name in enumerate(sheet.names)
    ]
    return CheckCard(number, row.confirmation, lines, sheet.match.version, same_phone)


def _why(sheet: ScoreSheet, row) -> list[str]:
    """The hand's why-lines: worked out with the sheet for a hand waiting
    for its check (``Held.explained``), else scored again up to it."""
    if row.why is not None:
        return row.why
    earlier = {**sheet.engine_input, "hands": sheet.engine_input["hands"][: row.number - 1]}
    return preview_hand(earlier, row.entry)["hand"].get("why") or []


def may_be_checked(sheet: ScoreSheet) -> bool:
    return sheet.match.confirm_hands and sheet.match.status != Match.Status.ABANDONED


def pass_card(sheet: ScoreSheet, viewer: Viewer, entered: set[str], later: int | None = None) -> CheckCard | None:
    """The card to pass across on the phone that entered a hand: its oldest
    hand still waiting for the other side (``later``: a hand the table put
    off for now)."""
    if not viewer.can_check or not entered or not may_be_checked(sheet):
        return None
    for row in sheet.rows:
        if row.confirmation == PENDING and row.number != later and sheet.entry_keys.get(row.number) in entered:
            return card_for(sheet, row.number, same_phone=True)
    return None
