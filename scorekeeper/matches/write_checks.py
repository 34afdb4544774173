"""What a write of a match must find before it writes anything, and the
refusals in plain words when it does not (``ServiceError``, its kind
carrying the HTTP status): the match still open, the page's hand and bids
still current, a device's link still writing. Used by ``services`` under
the match's lock; the views word the same situations with these messages."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from ..access.permissions import closed_message
from ..audit import BIDDING_ACTIONS, Actor, Change
from ..errors import ServiceError
from ..i18n import hand_words, listed, shown, shown_spec
from ..models import Match
from ..scoring import get_game
from .confirmation import has_sides
from .wording import label_words


def require_link_may_write(match: Match, actor: Actor, *, after_the_end: bool = False) -> None:
    """A device's link writes nothing once the match counts or was ended;
    while a match over waits for the other side's checks, only those (and
    the correction of a hand marked as wrong: ``after_the_end``)."""
    if actor.link is None:
        return
    if match.links_closed_at is not None:
        raise ServiceError(closed_message(match), code="locked")
    if match.status == Match.Status.FINISHED and not after_the_end:
        raise ServiceError(only_checks_message(match), code="locked")


def nothing_to_undo(match: Match) -> str:
    return _("There is no %(h)s to undo.") % hand_words(match.game)


def no_such_hand(match: Match, number: int) -> str:
    # Translators: %(h)s is the game's word for a hand ("hand"; Sixty-Six: "deal").
    return _("There is no %(h)s %(n)d in this match.") % {**hand_words(match.game), "n": number}


def own_entry_message(match: Match, number: int) -> str:
    """Why the screen that entered a hand may not confirm it (the check page says the same)."""
    words = {**hand_words(match.game), "n": number}
    if has_sides(match):
        return (
            _(
                "This screen entered %(h)s %(n)d, so it cannot also confirm it. "
                "A player of the other side checks it on their own phone, or on the phone that entered it."
            )
            % words
        )
    return (
        _(
            "This screen entered %(h)s %(n)d, so it cannot also confirm it. "
            "Another player checks it on their own phone, or on the phone that entered it."
        )
        % words
    )


def only_checks_message(match: Match) -> str:
    if has_sides(match):
        return _(
            "This match is over: what is left for the table is the other side's check of its %(hs)s "
            "(and correcting a %(h)s marked as wrong). Nothing was changed."
        ) % hand_words(match.game)
    return _(
        "This match is over: what is left for the table is another player's check of its %(hs)s "
        "(and correcting a %(h)s marked as wrong). Nothing was changed."
    ) % hand_words(match.game)


def require_open(match: Match) -> None:
    if match.status == Match.Status.FINISHED:
        # Translators: %(hs)s is the game's word for hands ("hands"; Sixty-Six: "deals").
        raise ServiceError(
            _("This match is over: no more %(hs)s can be added.") % hand_words(match.game), code="closed"
        )
    require_not_abandoned(match)


def require_not_abandoned(match: Match) -> None:
    if match.status == Match.Status.ABANDONED:
        raise ServiceError(_("This match was abandoned; reopen it to change it."), code="closed")


def require_next_hand(match: Match, number: int) -> None:
    if number != match.hands_played + 1:
        noun = shown(get_game(match.game).spec.hand_noun)
        raise ServiceError(
            # Translators: %(H)s and %(h)s are the game's word for a hand: "Hand"/"hand" (or "Deal"/"deal").
            _("%(H)s %(n)d was already saved from another device. Check the sheet below before entering more.")
            % {"H": noun.capitalize(), "n": number}
            if number <= match.hands_played
            else _("This page is ahead of the match: %(h)s %(n)d is next. Check the sheet below.")
            % {"h": noun, "n": match.hands_played + 1},
            code="conflict",
        )


def require_bidding_in_force(match: Match, shown: dict | None) -> None:
    """The bids the page showed must still be the ones in force."""
    if match.pending_bidding == shown:
        return
    spec = shown_spec(get_game(match.game).spec)
    change = Change.of(match)
    if change is not None and change.action not in BIDDING_ACTIONS:
        change = None  # a later change of another kind: who changed the bids is not kept
    who, when = who_changed(change), when_changed(change)
    if match.pending_bidding is None:
        # Translators: %(noun)s is "bids" (or "contract" in Draw Bridge); %(when)s "a moment ago", "5 minutes ago".
        message = _("%(who)s cleared the %(noun)s %(when)s.") % {"who": who, "noun": spec.bidding_noun, "when": when}
    else:
        message = _("%(who)s saved the %(noun)s %(bids)s %(when)s.") % {
            "who": who,
            "noun": spec.bidding_noun,
            "bids": describe_bidding(spec, match.player_names, match.pending_bidding),
            "when": when,
        }
    raise ServiceError(
        # Translators: %(message)s says who changed the bids; the rest asks to check them.
        _("%(message)s Nothing was changed: check them below, then enter again.") % {"message": message},
        code="bids_changed",
    )


def who_changed(change: Change | None) -> str:
    """The writer of ``change`` as the subject of a sentence."""
    if change is not None and change.link_label is not None:
        return _("The phone with the link “%(label)s”") % {"label": label_words(change.link_label)}
    if change is not None and change.user_name is not None:
        return _("The organiser %(name)s") % {"name": change.user_name}
    return _("Another device")


def when_changed(change: Change | None) -> str:
    if change is None or timezone.now() - change.at < timedelta(minutes=1):
        return _("a moment ago")
    return _("%(time)s ago") % {"time": timesince(change.at)}


def describe_bidding(spec, names: list[str], bidding: dict) -> str:
    """A bidding in words, from the game's spec: "Ann Nil, Bob 5";
    "Bob 4 ♠ spades doubled"; "Passed out"."""
    words = []
    for spec_field in spec.bidding_fields:
        value = bidding.get(spec_field.name)
        labels = dict(spec_field.choices)
        if spec_field.per_player and isinstance(value, list):
            words.append(listed(f"{name} {labels.get(v, v)}" for name, v in zip(names, value, strict=False)))
        elif spec_field.kind == "player" and isinstance(value, int) and 0 <= value < len(names):
            words.append(names[value])
        elif spec_field.kind == "bool":
            if value is True:
                words.append(spec_field.label)
        elif value is not None:
            words.append(str(labels.get(value, value)))
    return " ".join(words)


def require_version(match: Match, version: int) -> None:
    if version != match.version:
        raise ServiceError(
            _("Someone else changed this match while you were editing. Nothing was saved; here is the current sheet."),
            code="conflict",
        )
