"""Turn submitted form data into the engine's plain dicts, driven by each
game's self-description (scoring.GameSpec). Only types are checked here:
ranges and every rule are the engine's job, so no rule is written twice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from .scoring import Field, GameSpec, Option

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}
MAX_RAW_LENGTH = 20  # no value of a hand is longer; refuse junk early
MAX_OPTION_NUMBER = 1_000_000  # no table plays to more; bigger is a typo


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
    """Parse the fields of the given phases into a hand (or bidding) dict."""
    parsed = Parsed()
    fields = [f for f in spec.hand_fields if f.phase in phases]
    for spec_field in fields:
        if spec_field.when is not None:
            other, allowed = spec_field.when
            # A field left out (an unticked "passed out") counts as False.
            if parsed.values.get(other, False) not in allowed:
                continue
        if spec_field.per_player:
            values = []
            for seat, name in enumerate(players):
                what = f"{name}: {spec_field.label.lower()}"
                values.append(
                    _parse_value(
                        spec_field,
                        data.get(input_name(spec_field, seat)),
                        what,
                        parsed,
                        input_name(spec_field, seat),
                        players,
                    )
                )
            parsed.values[spec_field.name] = values
        else:
            value = _parse_value(
                spec_field, data.get(spec_field.name), spec_field.label, parsed, spec_field.name, players
            )
            if value is None:
                continue
            if spec_field.omit_if_false and value is False:
                continue
            parsed.values[spec_field.name] = value
    return parsed


def _parse_value(spec_field: Field, raw: Any, what: str, parsed: Parsed, name: str, players: list[str]) -> Any:
    raw = "" if raw is None else str(raw).strip()
    if raw == "":
        if spec_field.required and not spec_field.omit_if_false:
            parsed.errors[name] = _("%(what)s: this is needed.") % {"what": what}
        return None
    if len(raw) > MAX_RAW_LENGTH:
        parsed.errors[name] = _("%(what)s: that is not a value this field takes.") % {"what": what}
        return None
    for value, _label in spec_field.choices:
        if raw == str(value):
            return value
    if spec_field.kind in ("int", "player"):
        try:
            number = int(raw)
        except ValueError:
            parsed.errors[name] = _("%(what)s: enter a whole number.") % {"what": what}
            return None
        return number
    if spec_field.kind == "bool":
        if raw.lower() in TRUE_WORDS:
            return True
        if raw.lower() in FALSE_WORDS:
            return False
        parsed.errors[name] = _("%(what)s: answer yes or no.") % {"what": what}
        return None
    parsed.errors[name] = _("%(what)s: choose one of the options.") % {"what": what}
    return None


def parse_options(spec: GameSpec, data) -> Parsed:
    """Options from the new-match form; the engine checks the ranges."""
    parsed = Parsed()
    for option in spec.options:
        name = f"opt_{option.name}"
        raw = data.get(name)
        parsed.values[option.name] = _parse_option(option, raw, parsed, name)
    return parsed


def _parse_option(option: Option, raw: Any, parsed: Parsed, name: str) -> Any:
    if option.kind == "bool":
        # A checkbox sends nothing when unticked.
        return raw is not None and str(raw).lower() in TRUE_WORDS
    raw = "" if raw is None else str(raw).strip()
    if raw == "":
        return option.default
    if option.kind == "int":
        try:
            number = int(raw) if len(raw) <= MAX_RAW_LENGTH else None
        except ValueError:
            number = None
        if number is None:
            parsed.errors[name] = _("%(what)s: enter a whole number.") % {"what": option.label}
            return option.default
        if number > MAX_OPTION_NUMBER:
            parsed.errors[name] = _("%(what)s: at most %(n)s.") % {"what": option.label, "n": f"{MAX_OPTION_NUMBER:,}"}
            return option.default
        return number
    return raw


def parse_positive_int(raw: Any) -> int | None:
    """A hand number or version sent back by a form; None if absent or junk."""
    try:
        value = int(str(raw))
    except (TypeError, ValueError):
        return None
    return value if value >= 0 else None
