"""Turn submitted form data into the engine's plain dicts, driven by each
game's self-description (scoring.GameSpec), and read what each write says
it was based on (``read_basis``). Only types are checked here: ranges and
every rule are the engine's job, so no rule is written twice."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from ..i18n import side_names
from ..numbers import plain_int, typed
from ..scoring import Field, GameSpec, Option

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
MAX_RAW_LENGTH = 20  # no value of a hand is longer; refuse junk early
MAX_OPTION_NUMBER = 1_000_000  # no table plays to more; bigger is a typo
NO_BIDDING = "none"  # the hidden field's value when no bids were in force
MAX_BASIS_LENGTH = 500  # the bids in force as JSON: under 100 characters in every game
CLIENT_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass
class Parsed:
    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)  # input name -> message

    @property
    def ok(self) -> bool:
        return not self.errors


def input_name(spec_field: Field, seat: int | None = None) -> str:
    return spec_field.name if seat is None else f"{spec_field.name}_{seat}"


def parse_hand(spec: GameSpec, data, players: list[str], phases: tuple[str, ...] = ("bidding", "play")) -> Parsed:
    """Parse the fields of the given phases into a hand (or bidding) dict.
    A per-side field is named like a per-player one, by side number
    ("tricks_0"); an optional per-player field left blank for every
    player is left out of the hand (Partnership Spades' Nil tricks)."""
    parsed = Parsed()
    teams = side_names(spec, players)
    for spec_field in (f for f in spec.hand_fields if f.phase in phases):
        if spec_field.when is not None:
            other, allowed = spec_field.when
            # A field left out (an unticked "passed out") counts as False.
            if parsed.values.get(other, False) not in allowed:
                continue
        if spec_field.per_player or spec_field.per_side:
            values = _parse_each(spec_field, data, players if spec_field.per_player else teams, parsed)
            if spec_field.required or any(v is not None for v in values):
                parsed.values[spec_field.name] = values
            continue
        value = _parse_value(spec_field, data.get(spec_field.name), spec_field.label, parsed, spec_field.name)
        if value is None or (spec_field.omit_if_false and value is False):
            continue
        parsed.values[spec_field.name] = value
    return parsed


def _parse_each(spec_field: Field, data, whose: list[str], parsed: Parsed) -> list:
    """A value for each player (or side), from the inputs "<field>_<index>";
    an error names whose value it is."""
    return [
        _parse_value(
            spec_field,
            data.get(input_name(spec_field, index)),
            lambda who=who: (
                # Translators: which input an error is about, a player's (or a side's) field: "Ann's tricks".
                # In an error: "Fill in Ann's tricks.", "Ann's card points: enter a whole number."
                _("%(name)s's %(field)s") % {"name": who, "field": spec_field.label.lower()}
            ),
            parsed,
            input_name(spec_field, index),
        )
        for index, who in enumerate(whose)
    ]


def _words(what: Any) -> str:
    return what() if callable(what) else what


def _parse_value(spec_field: Field, raw: Any, what: Any, parsed: Parsed, name: str) -> Any:
    """``what``: the field's words in an error, or a function making them
    (only called for an error: a saved hand builds no message)."""
    raw = typed(raw)
    if raw == "":
        if spec_field.required and not spec_field.omit_if_false and (spec_field.per_player or spec_field.per_side):
            # Translators: %(what)s is a player's field: "Fill in Ann's bid."
            parsed.errors[name] = _("Fill in %(what)s.") % {"what": _words(what)}
        elif spec_field.required and not spec_field.omit_if_false:
            parsed.errors[name] = _("%(what)s: this is needed.") % {"what": _words(what)}
        return None
    if len(raw) > MAX_RAW_LENGTH:
        parsed.errors[name] = _("%(what)s: that is not a value this field takes.") % {"what": _words(what)}
        return None
    for value, _label in spec_field.choices:
        if raw == str(value):
            return value
    if spec_field.kind in ("int", "player", "side"):
        number = plain_int(raw)
        if number is None:
            parsed.errors[name] = _("%(what)s: enter a whole number.") % {"what": _words(what)}
        return number
    if spec_field.kind == "bool":
        if raw.lower() in TRUE_WORDS:
            return True
        if raw.lower() in FALSE_WORDS:
            return False
        parsed.errors[name] = _("%(what)s: answer yes or no.") % {"what": _words(what)}
        return None
    parsed.errors[name] = _("%(what)s: choose one of the options.") % {"what": _words(what)}
    return None


def partial_bids(spec: GameSpec, data, players: list[str]) -> dict:
    """The bids typed so far (None where blank or junk), for the preview's
    hints (the hook) while the bidding is not complete."""
    if not any(f.name == "bids" for f in spec.hand_fields):
        return {}
    return {"bids": [plain_int(data.get(f"bids_{seat}")) for seat in range(len(players))]}


def parse_options(spec: GameSpec, data) -> Parsed:
    """Options from the new-match form; the engine checks the ranges."""
    parsed = Parsed()
    for option in spec.options:
        name = f"opt_{option.name}"
        parsed.values[option.name] = _parse_option(option, data.get(name), parsed, name)
    return parsed


def _parse_option(option: Option, raw: Any, parsed: Parsed, name: str) -> Any:
    if option.kind == "bool":
        # A checkbox sends nothing when unticked.
        return raw is not None and str(raw).lower() in TRUE_WORDS
    raw = typed(raw)
    if raw == "":
        # Left empty: "none" where the option may be off (Court Piece's target), else the usual value.
        return None if option.nullable else option.default
    if option.kind == "int":
        number = plain_int(raw)
        if number is None:
            parsed.errors[name] = _("%(what)s: enter a whole number.") % {"what": option.label}
            return option.default
        if number > MAX_OPTION_NUMBER:
            parsed.errors[name] = _("%(what)s: at most %(n)s.") % {"what": option.label, "n": f"{MAX_OPTION_NUMBER:,}"}
            return option.default
        return number
    return raw


# ------------------------------------------------------------ what a write is based on


class BadBasis(Exception):
    """A write that does not say (or garbles) what it was based on: refused
    with a 400 and this message, never treated as "no check"."""


@dataclass(frozen=True)
class Basis:
    """What the page that sent a write showed: the hand it was for, the
    bids (or contract) in force, the match's version, and the form's
    one-time key. Each write view asks for the parts it checks."""

    number: int | None = None
    bidding: dict | None = None  # None: the page showed no bids in force
    version: int | None = None
    client_key: str | None = None


def bidding_stamp(bidding: dict | None) -> str:
    """The hidden field's value for the bids in force the page shows."""
    return NO_BIDDING if bidding is None else json.dumps(bidding, sort_keys=True, separators=(",", ":"))


def read_basis(data, *, number=False, bidding=False, version=False, client_key=False) -> Basis:
    """The parts asked for, each required; raises BadBasis naming what is wrong."""
    found: dict[str, Any] = {}
    if number:
        found["number"] = _positive(data, "number", _("the hand number"))
    if version:
        found["version"] = _positive(data, "version", _("the version of the match"))
    if bidding:
        raw = data.get("bidding")
        if raw is None or len(raw) > MAX_BASIS_LENGTH:
            raise BadBasis(_outdated(_("the bids it was based on")))
        if raw != NO_BIDDING:
            try:
                found["bidding"] = json.loads(raw)
            except (ValueError, RecursionError):
                raise BadBasis(_outdated(_("the bids it was based on"))) from None
            if not isinstance(found["bidding"], dict):
                raise BadBasis(_outdated(_("the bids it was based on")))
    if client_key:
        raw = data.get("client_key") or ""
        if not CLIENT_KEY.fullmatch(raw):
            raise BadBasis(_outdated(_("its one-time key")))
        found["client_key"] = raw
    return Basis(**found)


def _positive(data, name: str, what: str) -> int:
    value = plain_int(data.get(name))
    if value is None or not 1 <= value < 2**31:
        raise BadBasis(_outdated(what))
    return value


def _outdated(what: str) -> str:
    return _(
        "Nothing was saved: this form is out of date or damaged (it did not carry %(what)s). "
        "Reload the page and enter it again."
    ) % {"what": _words(what)}
