"""The one error every service raises for a request it cannot carry out,
and the kinds of refusal with their HTTP status: no view maps codes to
statuses of its own."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why a write was refused; each kind carries its HTTP status."""

    INVALID = "invalid"  # a rule or a field: 422, the entry kept to correct
    CONFLICT = "conflict"  # the page was out of date: 409
    BIDS_CHANGED = "bids_changed"  # another device changed the bids in force: 409
    CLOSED = "closed"  # the match or table is over: 409
    STATE = "state"  # a tournament is not at that step: 409
    LOCKED = "locked"  # this device's link no longer writes (the match ended): 403
    FORBIDDEN = "forbidden"  # this screen may not do this: 403
    NOT_FOUND = "not_found"  # no such hand, change or round: 404
    MALFORMED = "malformed"  # the form did not say what it was based on, or garbled it: 400

    @property
    def status(self) -> int:
        return _STATUS[self]

    @property
    def allowed(self) -> bool:
        """The asker may do this, but not now or not so (every kind but a 403)."""
        return self.status != 403

    @property
    def stale(self) -> bool:
        """The page the write came from no longer shows the match as it is."""
        return self in (Refusal.CONFLICT, Refusal.BIDS_CHANGED, Refusal.CLOSED)


_STATUS = {
    Refusal.INVALID: 422,
    Refusal.CONFLICT: 409,
    Refusal.BIDS_CHANGED: 409,
    Refusal.CLOSED: 409,
    Refusal.STATE: 409,
    Refusal.LOCKED: 403,
    Refusal.FORBIDDEN: 403,
    Refusal.NOT_FOUND: 404,
    Refusal.MALFORMED: 400,
}


class ServiceError(Exception):
    """``message`` is for the player, in plain words. ``code``: a kind of
    ``Refusal`` (its status), or the name of the form field at fault (then
    an INVALID refusal, ``field`` naming it)."""

    def __init__(self, message: str, *, code: str = Refusal.INVALID):
        super().__init__(message)
        self.message = message
        known = code in Refusal._value2member_map_
        self.code = Refusal(code) if known else Refusal.INVALID
        self.field = None if known else code

    @property
    def status(self) -> int:
        return self.code.status
