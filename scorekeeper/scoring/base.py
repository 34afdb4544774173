"""The shared machinery of the rules engine: errors, type checks, the game
description (spec) and the one driver that scores any game hand by hand.

Pure Python on purpose: no Django import anywhere in this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ------------------------------------------------------------- translation
#
# Every word the engine says is English, built by ``_`` or ``ngettext``
# below. Both return a ``Text``: a plain ``str`` (so every comparison, JSON
# dump and test sees exactly the English words) that also remembers the
# message it was made from and the values put into it. The engine never
# translates; the app does, where a person reads the words, with
# ``Text.translated(gettext, ngettext)`` (scorekeeper/i18n.py). The two
# names are the ones ``makemessages`` (xgettext) looks for by default, so
# the engine's messages land in the catalogues with no extra keyword.


class Text(str):
    """English words that can be said again in another language.

    ``msgid`` (and ``plural`` with ``count`` for a message that depends on
    a number) is the message with ``%(name)s`` placeholders; ``params`` are
    the values, which may themselves be ``Text`` (a label inside a line)."""

    __slots__ = ("msgid", "plural", "count", "params")

    msgid: str
    plural: str | None
    count: int | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, plural: str | None = None, count: int | None = None, params: dict | None = None):
        template = msgid if plural is None or count == 1 else plural
        self = super().__new__(cls, template % params if params else template)
        self.msgid, self.plural, self.count, self.params = msgid, plural, count, params or {}
        return self

    def __reduce__(self):  # pickled (the cache) and copied as what it is
        return (Text, (self.msgid, self.plural, self.count, self.params))

    def translated(self, gettext, ngettext) -> str:
        """These words through the given gettext and ngettext, the values
        inside them too. With identity functions: the English again."""
        template = gettext(self.msgid) if self.plural is None else ngettext(self.msgid, self.plural, self.count)
        if not self.params:
            return template
        return template % {k: translate(v, gettext, ngettext) for k, v in self.params.items()}


def translate(value: Any, gettext, ngettext) -> Any:
    """``value`` with every ``Text`` in it translated: a Text, or a list or
    tuple of them (the why-lines of a hand); anything else as it is."""
    if isinstance(value, Text):
        return value.translated(gettext, ngettext)
    if isinstance(value, (list, tuple)):
        return type(value)(translate(v, gettext, ngettext) for v in value)
    return value


def _(message: str, **params: Any) -> Text:
    """Mark ``message`` for translation and fill in ``params`` (English)."""
    return Text(message, None, None, params)


def ngettext(singular: str, plural: str, count: int, **params: Any) -> Text:
    """The same for a message that depends on ``count``: "1 trick", "2 tricks"."""
    return Text(singular, plural, count, params)


def message_of(error: BaseException) -> Any:
    """The words of an engine error, a ``Text`` when the engine made them."""
    return error.args[0] if error.args else str(error)


class InvalidHand(ValueError):
    """The match (or one of its hands) breaks the rules.

    ``hand_index`` is None for problems with the game, players or options,
    otherwise the 0-based index of the first wrong hand. The message counts
    hands from 1, as players do. ``str(error)`` is the English message;
    ``error.message`` the ``Text`` it was made from, for the app to
    translate where it is shown.
    """

    def __init__(self, message: str, hand_index: int | None = None):
        super().__init__(message)
        self.message = message
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
        return _("nothing")
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
        raise HandError(_("the hand needs %(keys)s", keys=_names(missing)))
    unknown = sorted(data.keys() - required - optional, key=str)
    if unknown:
        raise HandError(
            ngettext(
                "the hand has unknown entry %(keys)s",
                "the hand has unknown entries %(keys)s",
                len(unknown),
                keys=_names(unknown),
            )
        )


def _names(keys: list) -> str:
    return ", ".join(f'"{k}"' for k in keys)


def or_words(items) -> str:
    """ "0 or 1", "0 or 1 or 2": a choice, in words the app can translate."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    # Translators: a choice between values, e.g. "0 or 1"; nested for more ("0 or 1 or 2").
    return _("%(items)s or %(last)s", items=or_words(items[:-1]), last=items[-1])


def _words(what: Any) -> str:
    """``what`` of a check: the words, or a function making them (only
    called when the check fails, so a legal hand builds no message)."""
    return what() if callable(what) else what


def check_int(value: Any, lo: int | None, hi: int | None, what: Any) -> int:
    """An int in lo..hi (None = no limit that way), or a HandError naming ``what``."""
    if type(value) is not int or (lo is not None and value < lo) or (hi is not None and value > hi):
        what = _words(what)
        if lo is None:
            raise HandError(
                _(
                    "%(what)s must be a whole number of %(hi)s or less, got %(value)s",
                    what=what,
                    hi=hi,
                    value=describe(value),
                )
            )
        if hi is None:
            raise HandError(
                _(
                    # Translators: %(what)s names a value, e.g. "The option "target"" or "Ann's tricks".
                    "%(what)s must be a whole number of %(lo)s or more, got %(value)s",
                    what=what,
                    lo=lo,
                    value=describe(value),
                )
            )
        raise HandError(
            _("%(what)s must be %(lo)s to %(hi)s, got %(value)s", what=what, lo=lo, hi=hi, value=describe(value))
        )
    return value


def check_bool(value: Any, what: Any) -> bool:
    if not is_bool(value):
        what = _words(what)
        raise HandError(_("%(what)s must be true or false, got %(value)s", what=what, value=describe(value)))
    return value


def check_player(value: Any, players: list[str], what: Any) -> int:
    if not is_int(value) or not 0 <= value < len(players):
        what = _words(what)
        seats = or_words(str(i) for i in range(len(players)))
        raise HandError(
            _(
                # Translators: %(seats)s is "0 or 1" (seat numbers).
                "%(what)s must be a player number (%(seats)s), got %(value)s",
                what=what,
                seats=seats,
                value=describe(value),
            )
        )
    return value


def check_per_player_list(value: Any, players: list[str], what: Any) -> list:
    if type(value) is not list or len(value) != len(players):
        what = _words(what)
    if type(value) is not list:
        raise HandError(
            _("%(what)s must be a list with one entry per player, got %(value)s", what=what, value=describe(value))
        )
    if len(value) != len(players):
        raise HandError(
            _(
                "%(what)s must have %(n)s entries, one per player, got %(got)s",
                what=what,
                n=len(players),
                got=len(value),
            )
        )
    return value


def check_per_side_list(value: Any, sides: tuple, what: Any) -> list:
    """A list with one entry per side of partners (RULES.md 1.5)."""
    if type(value) is not list:
        raise HandError(
            _(
                "%(what)s must be a list with one entry per side, got %(value)s",
                what=_words(what),
                value=describe(value),
            )
        )
    if len(value) != len(sides):
        raise HandError(
            _(
                "%(what)s must have %(n)s entries, one per side, got %(got)s",
                what=_words(what),
                n=len(sides),
                got=len(value),
            )
        )
    return value


def side_name(players: list[str], side: tuple[int, ...]) -> Text:
    """A side of partners named by its two players, as the table says it."""
    first, second = side
    # Translators: a side of two partners, named by its players: "Ann & Cat".
    return _("%(first)s & %(second)s", first=players[first], second=players[second])


# ---------------------------------------------------------- self-description


@dataclass(frozen=True)
class Option:
    """One variant option. ``kind`` is "int", "bool" or "choice".
    ``nullable``: None is a legal value too, and turns the option off
    (Court Piece's target, Partnership Spades' losing score)."""

    name: str
    kind: str
    default: Any
    label: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    nullable: bool = False


@dataclass(frozen=True)
class Field:
    """One entry of a hand, for building forms.

    ``kind``: "int", "bool", "choice", "player" (a seat number) or "side"
    (a side number, in a game with partnerships).
    ``per_player``: a list with one value per player (bids, tricks, points).
    ``per_side``: a list with one value per side (Partnership Spades' tricks).
    ``phase``: "bidding" for what is known before play (RULES.md 1.4),
    "play" for what is known after it.
    """

    name: str
    kind: str
    label: str
    help: str = ""
    per_player: bool = False
    per_side: bool = False
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
    hand_noun: str = _("hand")  # what the table calls one (Sixty-Six: a deal)
    hands_noun: str = _("hands")  # and more than one (Sixty-Six: deals)
    # Translators: what seat 1 does to start hand 1: "Ann (seat 1) deals first."
    first_turn: str = _("deals first")  # what seat 1 does to start hand 1 (Spades: draws first)
    bidding_noun: str = _("bids")  # what is known before play (Draw Bridge: the contract)
    # Games with partnerships (RULES.md 1.5): the players of each side, e.g.
    # ((0, 2), (1, 3)). Then points, totals and winners are per side, and so
    # are the detail keys named in side_details (the others are per player
    # or single values). Empty: every player for themselves.
    sides: tuple[tuple[int, ...], ...] = ()
    side_details: tuple[str, ...] = ()

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def has_sides(self) -> bool:
        """Partnerships (``sides``): a hand is checked by the other side;
        without, every player for themselves, by another player."""
        return bool(self.sides)

    def scorer_of(self, seat: int) -> int:
        """Where the player in ``seat`` is in points, totals and winners:
        their side where the game has sides (a side's result counts for
        both partners), else their own seat."""
        if not self.sides:
            return seat
        return next(i for i, side in enumerate(self.sides) if seat in side)

    @property
    def bidding_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.hand_fields if f.phase == "bidding")


@dataclass
class HandScore:
    """What a game module returns for one scored hand."""

    points: list[int]
    details: dict[str, Any]
    # one plain-words line per player, or per side where the game has sides (empty: not explained)
    why: list[str] = field(default_factory=list)


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
        raise HandError(_("%(game)s has no bidding before play", game=self.spec.name))

    def score_hand(self, state: Any, hand: dict, k: int, explain: bool = True) -> HandScore:
        """Score a checked hand; may update ``state``. The why-lines are
        only wanted (and only need building) when ``explain`` is true."""
        raise NotImplementedError

    def is_over(self, state: Any, totals: list[int], hands_played: int) -> bool:
        raise NotImplementedError

    def winners(self, state: Any, totals: list[int]) -> list[int]:
        """Player indices, or side indices in a game with sides."""
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def next_hand(self, state: Any, k: int) -> dict:
        raise NotImplementedError

    def hints(self, state: Any, k: int, bidding: dict | None) -> dict:
        """What an entry form for hand k needs beyond ``next_hand``: limits
        of the values and, for Oh Hell with the hook, the dealer's forbidden
        bid. Keeps every rule in the engine, none in a template."""
        return {}
