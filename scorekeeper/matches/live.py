"""The live score sheet: what an open sheet is told when another device
changed its match (the "changed?" poll, ``views.sheet.match_changed``).

The poll carries the match version the page shows (If-None-Match: 304 while
nothing changed) and the digest of what its entry panel was drawn from
(``ScoreSheet.basis_key``). When the version moved, the answer swaps in the
head, the totals and the hands, and the entry panel only if its basis
changed: a correction of a past hand leaves what is being typed alone. The
note says, in words, what the newest change was and who made it (the
match's row keeps it: ``audit.Change``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..audit import Action, Change
from ..i18n import plays_deals
from .selectors import ScoreSheet
from .wording import label_words
from .write_checks import describe_bidding, who_changed


def note(sheet: ScoreSheet, change: Change | None, *, replaced: bool, typed: bool) -> str:
    """One line on the newest change: "Hand 5 was saved on the phone with
    the link “table 7”." When the entry panel was replaced under what the
    user had typed, say plainly that it was not saved."""
    text = _describe(sheet, change)
    if replaced and typed:
        if change is not None and change.action == Action.BIDS_SAVED:
            tail = _("check them; what you had chosen here was not saved.")
        else:
            tail = _("what you had chosen here was not saved.")
        # Translators: what another device changed (its full stop dropped), then that the typing was not saved.
        return _("%(change)s: %(tail)s") % {"change": text.rstrip(".۔"), "tail": tail}
    return text


def _describe(sheet: ScoreSheet, change: Change | None) -> str:
    if change is None:
        return _("Another device changed this match.")
    spec = sheet.spec
    n = change.hand_number
    deal = plays_deals(spec)
    on = _on(change)
    words = {
        Action.HAND_RECORDED: _("Deal %(n)s was saved %(on)s.") if deal else _("Hand %(n)s was saved %(on)s."),
        Action.HAND_EDITED: _("Deal %(n)s was corrected %(on)s.") if deal else _("Hand %(n)s was corrected %(on)s."),
        Action.HAND_RESTORED: _("Deal %(n)s was restored to an earlier version %(on)s.")
        if deal
        else _("Hand %(n)s was restored to an earlier version %(on)s."),
        Action.HAND_UNDONE: _("Deal %(n)s was undone %(on)s.") if deal else _("Hand %(n)s was undone %(on)s."),
        Action.MATCH_ABANDONED: _("The match was abandoned %(on)s."),
        Action.MATCH_REOPENED: _("The match was reopened %(on)s."),
        Action.ENDED_EARLY: _("The organiser ended this table at the round's time limit."),
    }
    if change.action in words and (n is not None or "%(n)s" not in words[change.action]):
        return words[change.action] % {"n": n, "on": on}
    if change.action == Action.BIDS_SAVED and isinstance(sheet.pending, dict):  # the newest change: these bids
        return _("%(who)s saved the %(noun)s %(bids)s.") % {
            "who": who_changed(change),
            "noun": spec.bidding_noun,
            "bids": describe_bidding(spec, sheet.names, sheet.pending),
        }
    if change.action == Action.BIDS_CLEARED:
        return _("%(who)s cleared the %(noun)s.") % {"who": who_changed(change), "noun": spec.bidding_noun}
    return _("This match was changed %(on)s.") % {"on": on}


def _on(change: Change) -> str:
    """Where or by whom: "on the phone with the link “table 7”"."""
    if change.link_label is not None:
        return _("on the phone with the link “%(label)s”") % {"label": label_words(change.link_label)}
    if change.user_name is not None:
        return _("by the organiser %(name)s") % {"name": change.user_name}
    return _("on another device")
