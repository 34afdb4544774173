"""A match's stored values in words, from the game's spec, for the history
of changes: "Ann bid 4, took 6 · Bob bid 5, took 7", "Target score 500 ·
Hook: yes". No game is named here: the labels, choices and ``says`` of
each field and option come from the game's description."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from ..i18n import bids_a_contract, listed, plays_deals, side_names
from ..models import AuditEvent
from ..numbers import plain_int
from ..scoring import Field, GameSpec

SEP = " · "


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def entry_words(spec: GameSpec, names: list[str], entry: Any) -> str:
    """A hand, or the bids of one, in words. The per-player values are
    grouped by player ("Ann bid 4, took 6"); the others in the spec's order,
    the bidding's in one piece ("Bob 4 ♠ spades doubled")."""
    if not isinstance(entry, dict):
        return "" if entry is None else str(entry)
    pieces: list[str] = []
    bidding: list[str] = []
    players_at: int | None = None
    per_player: list[Field] = []
    known = set()
    for spec_field in spec.hand_fields:
        known.add(spec_field.name)
        if spec_field.name not in entry:
            continue
        value = entry[spec_field.name]
        if spec_field.per_player and isinstance(value, list):
            if players_at is None:
                players_at = len(pieces)
            per_player.append(spec_field)
            continue
        if spec_field.per_side and isinstance(value, list):
            teams = side_names(spec, names)
            pieces += [f"{team} {_said(spec_field, v)}" for team, v in zip(teams, value, strict=False)]
            continue
        words = _value_words(spec_field, value, side_names(spec, names) if spec_field.kind == "side" else names)
        if not words:
            continue
        if spec_field.phase == "bidding":
            bidding.append(words)
        else:
            pieces.append(words)
    if per_player:
        seats = [
            f"{name} "
            + listed(
                _said(f, entry[f.name][seat])
                for f in per_player
                if seat < len(entry[f.name]) and entry[f.name][seat] is not None  # a Nil bidder's tricks only
            )
            for seat, name in enumerate(names)
        ]
        pieces[players_at:players_at] = seats
    if bidding:
        pieces.insert(0, " ".join(bidding))
    pieces += [f"{key.replace('_', ' ')} {value}" for key, value in entry.items() if key not in known]
    return SEP.join(pieces)


SHORT_NAME = 5  # characters of a name cut short, the "…" included: a column of 7 on a phone
ELLIPSIS = "…"


def short_names(names: list[str], shortest: int = SHORT_NAME) -> list[str]:
    """Each name as a narrow column or a crowded totals bar shows it: its
    first letters and "…" ("Bart…"), cut where it no longer begins another
    name ("Christa…", "Christo…"); whole when the cut would save no more
    than a letter ("Hannah", "Maximiliana" beside "Maximilian"). Marks that
    sit on a letter (an Urdu kasra) stay with it."""
    whole = [name.strip() for name in names]
    lengths = [shortest - 1] * len(whole)

    def kept(i: int) -> str | None:
        """The beginning shown before the "…", or None: the name is shown whole."""
        name, n = whole[i], lengths[i]
        while n < len(name) and unicodedata.combining(name[n]):
            n += 1
        if n >= len(name) - 2:  # "Hann…" is hardly narrower than "Hannah"
            return None
        return name[:n]

    while True:
        starts = [kept(i) for i in range(len(whole))]
        clash = [
            i
            for i, start in enumerate(starts)
            if start is not None and any(j != i and other.startswith(start) for j, other in enumerate(whole))
        ]
        if not clash:
            return [
                name if start is None else start.rstrip() + ELLIPSIS for name, start in zip(whole, starts, strict=True)
            ]
        for i in clash:
            lengths[i] += 1


def options_words(spec: GameSpec, options: dict) -> str:
    """The options a match was started with, by their labels."""
    pieces = []
    for option in spec.options:
        if option.name not in options:
            continue
        value = options[option.name]
        if option.kind == "bool":
            value = yes_no(bool(value))
        elif option.kind == "choice":
            value = dict(option.choices).get(value, value)
        # Translators: an option and its value in the history of changes: "Target score: 500".
        pieces.append(_("%(option)s: %(value)s") % {"option": option.label, "value": value})
    return SEP.join(pieces) if pieces else _("the usual rules")


# The audit log stores an action as English data (``AuditEvent.Action``:
# "hand recorded"); the history of changes shows it in the reader's language
# and in the game's words: a Sixty-Six hand is a deal, Draw Bridge's bids
# are its contract. The words are written out here for makemessages.
Action = AuditEvent.Action
HAND_ACTIONS = {
    Action.HAND_RECORDED: (gettext_noop("hand recorded"), gettext_noop("deal recorded")),
    Action.HAND_EDITED: (gettext_noop("hand edited"), gettext_noop("deal edited")),
    Action.HAND_RESTORED: (gettext_noop("hand restored"), gettext_noop("deal restored")),
    Action.HAND_UNDONE: (gettext_noop("hand undone"), gettext_noop("deal undone")),
    Action.HAND_CONFIRMED: (gettext_noop("hand confirmed"), gettext_noop("deal confirmed")),
    Action.HAND_DISPUTED: (gettext_noop("hand disputed"), gettext_noop("deal disputed")),
}
BIDDING_ACTIONS = {
    Action.BIDS_SAVED: (gettext_noop("bids saved"), gettext_noop("contract saved")),
    Action.BIDS_CLEARED: (gettext_noop("bids cleared"), gettext_noop("contract cleared")),
}
OTHER_ACTIONS = {
    Action.ACCEPTED: gettext_noop("accepted as it is"),
    Action.CO_ORGANISER_ADDED: gettext_noop("co-organiser added"),
    Action.CORRECTED_AFTER_CONFIRMATION: gettext_noop("corrected after confirmation"),
    Action.CORRECTED_AFTER_END: gettext_noop("corrected after the end"),
    Action.ENDED_EARLY: gettext_noop("ended early"),
    Action.LINK_ISSUED: gettext_noop("link issued"),
    Action.LINK_REISSUED: gettext_noop("link reissued"),
    Action.LINK_REVOKED: gettext_noop("link revoked"),
    Action.LINKS_REOPENED: gettext_noop("links reopened"),
    Action.MATCH_ABANDONED: gettext_noop("match abandoned"),
    Action.MATCH_IMPORTED: gettext_noop("match imported"),
    Action.MATCH_REOPENED: gettext_noop("match reopened"),
    Action.MATCH_STARTED: gettext_noop("match started"),
}


# A tournament table's scoring links (one per side) are named when the round
# is published and stored as English data (whoever published it); shown in
# the reader's language.
TABLE_LINK = gettext_noop("table %(t)d, round %(r)d")
TABLE_SIDE_LINK = gettext_noop("table %(t)d, round %(r)d, side %(s)s")
SIDE_LETTERS = "AB"  # stored; shown in the reader's letters (side_letter)


def side_letter(side: int) -> str:
    """A side of a tournament table as the reader names it: A and B in English."""
    return (pgettext("the first side of a table", "A"), pgettext("the second side of a table", "B"))[side]


_TABLE_LINK = re.compile(r"table (\d+), round (\d+)(?:, side ([AB]))?( · .*)?", re.S)


def table_link_label(tournament_name: str, round_number: int, table_number: int, side: int) -> str:
    """The stored name of a table side's scoring link: "table 3, round 2, side A · Club night"."""
    words = TABLE_SIDE_LINK % {"t": table_number, "r": round_number, "s": SIDE_LETTERS[side]}
    return f"{words} · {tournament_name}"[:80]


def label_words(stored: str) -> str:
    """A link's name in the reader's language: a table's link is reworded,
    a name someone typed is shown as typed."""
    found = _TABLE_LINK.fullmatch(stored)
    if found is None:
        return stored
    t, r = plain_int(found[1]), plain_int(found[2])
    if found[3]:
        return _(TABLE_SIDE_LINK) % {"t": t, "r": r, "s": side_letter(SIDE_LETTERS.index(found[3]))} + (found[4] or "")
    return _(TABLE_LINK) % {"t": t, "r": r} + (found[4] or "")


def actor_words(stored: str) -> str:
    """Who made a change, in the reader's language. The audit log stores
    it as English data (``audit.Actor``: "organiser olga", "device (table
    7)", "system"); the name or label inside is kept as it was then."""
    if stored.startswith("organiser "):
        return _("organiser %(name)s") % {"name": stored.removeprefix("organiser ")}
    if stored.startswith("device (") and stored.endswith(")"):
        return _("device (%(label)s)") % {"label": label_words(stored[len("device (") : -1])}
    if stored in STORED_ACTORS:
        return _(stored)
    return stored


STORED_ACTORS = {gettext_noop("system"), gettext_noop("demo data")}


def action_words(spec: GameSpec, action: str) -> str:
    """An audit action as the game says it: "deal recorded", "contract saved"."""
    if action in HAND_ACTIONS:
        return _(HAND_ACTIONS[action][plays_deals(spec)])
    if action in BIDDING_ACTIONS:
        return _(BIDDING_ACTIONS[action][bids_a_contract(spec)])
    if action in OTHER_ACTIONS:
        return _(OTHER_ACTIONS[action])
    return action


def change_words(spec: GameSpec, names: list[str], value: Any) -> str:
    """A ``before`` or ``after`` of the history of changes in words."""
    if not isinstance(value, dict):
        return "" if value is None else str(value)
    if "players" in value or "options" in value:  # the match started
        pieces = []
        if "players" in value:
            pieces.append(_("players %(names)s") % {"names": listed(value["players"])})
        if "options" in value:
            pieces.append(options_words(spec, value.get("options") or {}))
        return SEP.join(pieces)
    if "totals" in value:  # a table ended early
        totals = value.get("totals") or []
        pieces = [f"{name} {total}" for name, total in zip(names, totals, strict=False)]
        winners = [names[i] for i in value.get("winners") or [] if isinstance(i, int) and 0 <= i < len(names)]
        if winners:
            pieces.append(_("won by %(names)s") % {"names": listed(winners)})
        return SEP.join(pieces)
    if "label" in value:  # a scoring link
        return _("link “%(label)s”") % {"label": value["label"]}
    if "user" in value:
        return str(value["user"])
    return entry_words(spec, names, value)


def _said(spec_field: Field, value: Any) -> str:
    shown = dict(spec_field.choices).get(value, value)
    if spec_field.says:
        return spec_field.says.format(shown)
    # Translators: a value after a player's name in the history of changes: "Ann tricks 6".
    return _("%(field)s %(value)s") % {"field": spec_field.label.lower(), "value": shown}


def _value_words(spec_field: Field, value: Any, names: list[str]) -> str:
    if spec_field.kind == "bool":
        if spec_field.phase == "bidding" or spec_field.omit_if_false:
            return spec_field.label if value is True else ""
        return _("%(option)s: %(value)s") % {"option": spec_field.label, "value": yes_no(value is True)}
    # A player (or a side) by name: ``names`` are then the sides' names.
    if spec_field.kind in ("player", "side") and isinstance(value, int) and 0 <= value < len(names):
        return spec_field.says.format(names[value]) if spec_field.says else names[value]
    if value is None:
        return ""
    return _said(spec_field, value) if spec_field.says else str(dict(spec_field.choices).get(value, value))
