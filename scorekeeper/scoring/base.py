"""The shared machinery of the rules engine: errors, type checks, the game
description (spec) and the one driver that scores any game hand by hand.

Pure Python on purpose: no Django import anywhere in this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class InvalidHand(ValueError):
    """The match (or one of its hands) breaks the rules.

    ``hand_index`` is None for problems with the game, players or options,
    otherwise the 0-based index of the first wrong hand. The message counts
    hands from 1, as players do.
    """

    def __init__(self, message: str, hand_index: int | None = None):
        super().__init__(message)
        self.hand_index = hand_index


class HandError(Exception):
    """Raised by a game module for a problem in one hand. The driver turns
    it into ``InvalidHand`` with the "Hand N: " prefix and the index, so no
    game has to build either itself."""


# ---------------------------------------------------------------- type checks


def is_int(value: Any) -> bool:
    # bool is a subclass of int; RULES.md 1.1 says True is not an int.
    return type(value) is int


def is_bool(value: Any) -> bool:
    return value is True or value is False


def describe(value: Any) -> str:
    """How a wrong value is shown in a message: 14, "3", true, 3.0."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def check_keys(data: dict, required: set[str], optional: set[str] = frozenset()) -> None:
    """Closed dicts: report a missing required key first, then an unknown one.
    A bidding is checked with the same words as a whole hand (RULES.md 1.4)."""
    keys = data.keys()
    if keys == required or (optional and required <= keys and keys <= required | optional):
        return  # the usual case, checked without building any message
    missing = sorted(required - data.keys())
    if missing:
        raise HandError(f"the hand needs {_names(missing)}")
    unknown = sorted(data.keys() - required - optional, key=str)
    if unknown:
        raise HandError(f"the hand has unknown {'entries' if len(unknown) > 1 else 'entry'} {_names(unknown)}")


def _names(keys: list) -> str:
    return ", ".join(f'"{k}"' for k in keys)


def check_int(value: Any, lo: int, hi: int | None, what: str) -> int:
    """An int in lo..hi (hi None = no upper limit), or a HandError naming ``what``."""
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        if hi is None:
            raise HandError(f"{what} must be a whole number of {lo} or more, got {describe(value)}")
        raise HandError(f"{what} must be {lo} to {hi}, got {describe(value)}")
    return value


def check_bool(value: Any, what: str) -> bool:
    if not is_bool(value):
        raise HandError(f"{what} must be true or false, got {describe(value)}")
    return value


def check_player(value: Any, players: list[str], what: str) -> int:
    if not is_int(value) or not 0 <= value < len(players):
        seats = " or ".join(str(i) for i in range(len(players)))
        raise HandError(f"{what} must be a player number ({seats}), got {describe(value)}")
    return value


def check_per_player_list(value: Any, players: list[str], what: str) -> list:
    if type(value) is not list:
        raise HandError(f"{what} must be a list with one entry per player, got {describe(value)}")
    if len(value) != len(players):
        raise HandError(f"{what} must have {len(players)} entries, one per player, got {len(value)}")
    return value


# ---------------------------------------------------------- self-description


@dataclass(frozen=True)
class Option:
    """One variant option. ``kind`` is "int", "bool" or "choice"."""

    name: str
    kind: str
    default: Any
    label: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)


@dataclass(frozen=True)
class Field:
    """One entry of a hand, for building forms.

    ``kind``: "int", "bool", "choice" or "player" (a seat number).
    ``per_player``: a list with one value per player (bids, tricks, points).
    ``phase``: "bidding" for what is known before play (RULES.md 1.4),
    "play" for what is known after it.
    """

    name: str
    kind: str
    label: str
    help: str = ""
    per_player: bool = False
    phase: str = "play"
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None  # None where it depends on the hand (Oh Hell cards)
    choices: tuple[tuple[Any, str], ...] = ()
    # Only part of the hand when another field has one of these values, e.g.
    # Sixty-Six's opponent_trick_at_close: ("end", ("closed",)).
    when: tuple[str, tuple[Any, ...]] | None = None
    # For an optional bool, False is sent as "leave the key out".
    omit_if_false: bool = False
    # A per-player value in words after the player's name, "{}" for the
    # value: "bid {}" gives "Ann bid 4" (the history of changes). Empty:
    # the label and the value ("Ann Tricks 6").
    says: str = ""


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    min_players: int
    max_players: int
    summary: str
    options: tuple[Option, ...]
    hand_fields: tuple[Field, ...]
    detail_keys: tuple[str, ...]
    has_bidding: bool  # False: the whole hand is entered after play
    hand_noun: str = "hand"  # what the table calls one (Sixty-Six: a deal)
    hands_noun: str = "hands"  # and more than one (Sixty-Six: deals)
    first_turn: str = "deals first"  # what seat 1 does to start hand 1 (Spades: draws first)
    bidding_noun: str = "bids"  # what is known before play (Draw Bridge: the contract)

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def bidding_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.hand_fields if f.phase == "bidding")


@dataclass
class HandScore:
    """What a game module returns for one scored hand."""

    points: list[int]
    details: dict[str, Any]
    why: list[str] = field(default_factory=list)  # one plain-words line per player


class Game:
    """The interface each game module implements. ``state`` is whatever the
    game needs to carry from hand to hand (bags, the schedule); the driver
    only passes it along."""

    spec: GameSpec

    def check_options(self, options: dict, players: list[str]) -> None:
        """Combinations of options (single values are checked from the spec)."""

    def new_state(self, players: list[str], options: dict) -> Any:
        return None

    def check_hand(self, state: Any, hand: dict, k: int) -> None:
        """Raise HandError if hand k (0-based) is not a legal completed hand."""
        raise NotImplementedError

    def check_bidding(self, state: Any, bidding: dict, k: int) -> None:
        raise HandError(f"{self.spec.name} has no bidding before play")

    def score_hand(self, state: Any, hand: dict, k: int) -> HandScore:
        """Score a checked hand; may update ``state``."""
        raise NotImplementedError

    def is_over(self, state: Any, totals: list[int], hands_played: int) -> bool:
        raise NotImplementedError

    def winners(self, state: Any, totals: list[int]) -> list[int]:
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def next_hand(self, state: Any, k: int) -> dict:
        raise NotImplementedError

    def hints(self, state: Any, k: int, bidding: dict | None) -> dict:
        """What an entry form for hand k needs beyond ``next_hand``: limits
        of the values and, for Oh Hell with the hook, the dealer's forbidden
        bid. Keeps every rule in the engine, none in a template."""
        return {}
