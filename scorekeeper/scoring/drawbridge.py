"""Draw Bridge, bridge for two with a draw half (RULES.md section 3)."""

from __future__ import annotations

from dataclasses import dataclass

from .base import (
    Field,
    Game,
    GameSpec,
    HandError,
    HandScore,
    Option,
    _,
    check_keys,
    describe,
    is_bool,
    is_int,
    or_words,
)

TRICKS = 13
BOOK = 6  # tricks declarer needs before the contract's level starts counting
MAX_LEVEL = 7
PASSED_OUT = "passed_out"

STRAINS = (
    ("C", _("♣ clubs")),
    ("D", _("♦ diamonds")),
    ("H", _("♥ hearts")),
    ("S", _("♠ spades")),
    ("NT", _("no trump")),
)
# Translators: "NT" is no trump in a contract such as "3NT"; the suits are symbols.
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": _("NT")}
DOUBLES = (("none", _("not doubled")), ("double", _("doubled")), ("redouble", _("redoubled")))
CONTRACT_ONLY = (PASSED_OUT, (False,))  # these fields are left out of a passed-out hand
MULTIPLIERS = {"none": 1, "double": 2, "redouble": 4}
TRICK_VALUES = {"C": 20, "D": 20, "H": 30, "S": 30}  # no trump: 40 for the first, 30 for each further
NT_FIRST = 40
NT_FURTHER = 30

PASSED_OUT_WHY = _("passed out: 0")
DEFENDING_WHY = _("defending: 0")

BIDDING_KEYS = {"declarer", "level", "strain"}
OPTIONAL_KEYS = {"double"}
PLAY_KEYS = {"tricks"}

SPEC = GameSpec(
    id="drawbridge",
    name=_("Draw Bridge"),
    min_players=2,
    max_players=2,
    summary=_(
        "Bridge for two: 13 tricks to draw the hands from the stock, then an auction "
        "and 13 tricks to play the contract. Doubles and redoubles, no bonuses."
    ),
    options=(
        Option("target", "int", 500, _("Target score"), _("The first player to reach this score wins."), minimum=1),
        Option(
            "undertrick_points",
            "int",
            50,
            _("Points per undertrick"),
            _(
                "When a contract is set, the defender scores this for each trick declarer is short. "
                "Doubling multiplies undertricks linearly: doubled, 1, 2, 3 down score 100, 200, 300 "
                "(redoubled 200, 400, 600), not the contract-bridge ladder. 0 means a set contract scores nothing."
            ),
            minimum=0,
        ),
        Option(
            "stock_face_up",
            "bool",
            False,
            _("Stock face up"),
            _("Play variant: the top card of the stock is shown to both players. It does not change the scoring."),
        ),
    ),
    hand_fields=(
        Field(
            PASSED_OUT,
            "bool",
            _("Passed out"),
            _("Both players passed before anyone bid; the hand scores nothing and the deal passes."),
            phase="bidding",
            required=False,
            omit_if_false=True,  # {"passed_out": false} is an error: leave the key out instead
        ),
        Field(
            "declarer",
            "player",
            _("Declarer"),
            _("The player who made the last bid."),
            phase="bidding",
            when=CONTRACT_ONLY,
        ),
        Field(
            "level",
            "int",
            _("Level"),
            _("1 to 7: tricks over six that declarer must win (1 = 7 tricks, 7 = all 13)."),
            phase="bidding",
            minimum=1,
            maximum=MAX_LEVEL,
            when=CONTRACT_ONLY,
        ),
        Field(
            "strain",
            "choice",
            _("Trumps"),
            _("The contract's trump suit, or no trump."),
            phase="bidding",
            choices=STRAINS,
            when=CONTRACT_ONLY,
        ),
        Field(
            "double",
            "choice",
            _("Doubled"),
            _("Doubled scores twice, redoubled four times, for either side."),
            phase="bidding",
            required=False,
            choices=DOUBLES,
            when=CONTRACT_ONLY,
        ),
        Field(
            "tricks",
            "int",
            _("Declarer's tricks"),
            _("Tricks declarer won in the contract half, 0 to 13."),
            minimum=0,
            maximum=TRICKS,
            when=CONTRACT_ONLY,
            # Translators: "7 tricks" in the history of changes; {} is the number (7 to 13 is usual).
            says=_("{} tricks"),
        ),
    ),
    detail_keys=("made",),
    has_bidding=True,
    bidding_noun=_("contract"),
)


@dataclass
class State:
    players: list[str]
    options: dict


class DrawBridge(Game):
    spec = SPEC

    def new_state(self, players, options):
        return State(players, options)

    def check_bidding(self, state, bidding, k):
        self._check(state, bidding, after_play=False)  # score_match's messages (RULES.md 1.4)

    def check_hand(self, state, hand, k):
        self._check(state, hand, after_play=True)

    def _check(self, state, data, after_play):
        # RULES.md 1.3 order: missing or unknown keys, then types, then ranges.
        if PASSED_OUT in data:
            self._check_passed_out(data)
            return
        required = BIDDING_KEYS | PLAY_KEYS if after_play else BIDDING_KEYS
        if not data:
            needed = ", ".join(f'"{key}"' for key in _ordered(required))
            raise HandError(
                _('the hand needs a contract (%(keys)s) or "%(passed_out)s": true', keys=needed, passed_out=PASSED_OUT)
            )
        check_keys(data, required, OPTIONAL_KEYS)
        self._check_types(state, data, after_play)
        self._check_ranges(state, data, after_play)

    def _check_passed_out(self, data):
        others = sorted(set(data) - {PASSED_OUT}, key=str)
        if others:
            listed = ", ".join(f'"{key}"' for key in others)
            raise HandError(
                _(
                    '"%(passed_out)s" must be the only entry of a passed-out hand, but it also has %(keys)s',
                    passed_out=PASSED_OUT,
                    keys=listed,
                )
            )
        value = data[PASSED_OUT]
        if not is_bool(value):
            raise HandError(
                _('"%(passed_out)s" must be true, got %(value)s', passed_out=PASSED_OUT, value=describe(value))
            )
        if value is not True:
            raise HandError(
                _(
                    '"%(passed_out)s" must be true, got false; for a played contract leave it out '
                    'and give "declarer", "level", "strain" and "tricks"',
                    passed_out=PASSED_OUT,
                )
            )

    def _check_types(self, state, data, after_play):
        if not is_int(data["declarer"]):
            raise HandError(_declarer_message(state, data["declarer"]))
        if not is_int(data["level"]):
            raise HandError(_level_message(data["level"]))
        if not isinstance(data["strain"], str):
            raise HandError(_strain_message(data["strain"]))
        if "double" in data and not isinstance(data["double"], str):
            raise HandError(_double_message(data["double"]))
        if after_play and not is_int(data["tricks"]):
            raise HandError(_tricks_message(state, data))

    def _check_ranges(self, state, data, after_play):
        if not 0 <= data["declarer"] < len(state.players):
            raise HandError(_declarer_message(state, data["declarer"]))
        if not 1 <= data["level"] <= MAX_LEVEL:
            raise HandError(_level_message(data["level"]))
        if data["strain"] not in SYMBOLS:
            raise HandError(_strain_message(data["strain"]))
        if "double" in data and data["double"] not in MULTIPLIERS:
            raise HandError(_double_message(data["double"]))
        if after_play and not 0 <= data["tricks"] <= TRICKS:
            raise HandError(_tricks_message(state, data))

    def score_hand(self, state, hand, k, explain=True):
        if PASSED_OUT in hand:
            return HandScore([0, 0], {"made": None}, [PASSED_OUT_WHY, PASSED_OUT_WHY] if explain else [])
        declarer, level, strain, tricks = hand["declarer"], hand["level"], hand["strain"], hand["tricks"]
        mult = MULTIPLIERS[hand.get("double", "none")]
        defender = 1 - declarer
        points = [0, 0]
        made = tricks >= BOOK + level
        if made:
            odd = tricks - BOOK
            value = NT_FIRST + NT_FURTHER * (odd - 1) if strain == "NT" else TRICK_VALUES[strain] * odd
            points[declarer] = value * mult
        else:
            points[defender] = (BOOK + level - tricks) * state.options["undertrick_points"] * mult
        return HandScore(points, {"made": made}, self._why(state, hand, points) if explain else [])

    def _why(self, state, hand, points):
        """Both players' lines of the preview, in words (RULES.md 3)."""
        declarer, level, strain, tricks = hand["declarer"], hand["level"], hand["strain"], hand["tricks"]
        double = hand.get("double", "none")
        mult = MULTIPLIERS[double]
        need = BOOK + level
        # Translators: a contract in the usual notation, level then suit: "4♥", "3NT".
        contract = _("%(level)s%(strain)s", level=level, strain=SYMBOLS[strain])
        if double != "none":
            # Translators: a contract and its double, e.g. "4♥ doubled".
            contract = _("%(contract)s %(doubled)s", contract=contract, doubled=dict(DOUBLES)[double])
        defender = 1 - declarer
        why = ["", ""]
        if tricks >= need:
            odd = tricks - BOOK
            if strain == "NT":
                # Words, not an f-string: the "x" is a letter the other languages write as "×".
                sum_text = (
                    # Translators: a made no-trump sum, e.g. "40 + 2 x 30" (the first trick over six, the others).
                    _("%(first)s + %(n)s x %(further)s", first=NT_FIRST, n=odd - 1, further=NT_FURTHER)
                    if odd > 1
                    else f"{NT_FIRST}"
                )
                if mult > 1:
                    if odd > 1:
                        sum_text = _("(%(sum)s) x %(mult)s", sum=sum_text, mult=mult)
                    else:
                        sum_text = _("%(sum)s x %(mult)s", sum=sum_text, mult=mult)
            else:
                # Translators: the sum for a made contract, e.g. "3 over six x 30" (tricks over the six of the book).
                sum_text = _("%(odd)s over six x %(value)s", odd=odd, value=TRICK_VALUES[strain])
                if mult > 1:
                    sum_text = _("%(sum)s x %(mult)s", sum=sum_text, mult=mult)
            result = str(points[declarer])
            sum_text = result if sum_text == result else _("%(sum)s = %(result)s", sum=sum_text, result=result)
            why[declarer] = _(
                # Translators: a why-line, e.g. "4♥ doubled, 10 tricks: 4 over six x 30 x 2 = 240".
                "%(contract)s, %(tricks)s tricks: %(sum)s",
                contract=contract,
                tricks=tricks,
                sum=sum_text,
            )
            why[defender] = DEFENDING_WHY
        else:
            down = need - tricks
            per = state.options["undertrick_points"]
            if mult > 1:
                why[defender] = _(
                    # Translators: a why-line for the defenders, e.g. "2 down x 50 x 2 = 200".
                    "%(down)s down x %(per)s x %(mult)s = %(points)s",
                    down=down,
                    per=per,
                    mult=mult,
                    points=points[defender],
                )
            else:
                # Translators: a why-line for the defenders, e.g. "2 down x 50 = 100".
                why[defender] = _("%(down)s down x %(per)s = %(points)s", down=down, per=per, points=points[defender])
            # Translators: a why-line for the declarer, e.g. "4♥ set by 2: 0".
            why[declarer] = _("%(contract)s set by %(down)s: 0", contract=contract, down=down)
        return why

    def is_over(self, state, totals, hands_played):
        return max(totals) >= state.options["target"]

    def next_hand(self, state, k):
        return {"number": k + 1, "dealer": k % 2, "first_bidder": k % 2, "leader": (k + 1) % 2}

    def hints(self, state, k, bidding):
        hints = {"tricks_total": TRICKS}
        level = bidding.get("level") if isinstance(bidding, dict) else None
        if is_int(level) and 1 <= level <= MAX_LEVEL:
            hints["need"] = BOOK + level
        return hints


def _ordered(keys):
    order = ["declarer", "level", "strain", "double", "tricks"]
    return [key for key in order if key in keys]


def _declarer_message(state, value):
    seats = or_words(f"{i} ({name})" for i, name in enumerate(state.players))
    return _("the declarer must be %(seats)s, got %(value)s", seats=seats, value=describe(value))


def _level_message(value):
    return _("the level must be 1 to %(max)s, got %(value)s", max=MAX_LEVEL, value=describe(value))


def _strain_message(value):
    return _(
        'the strain must be "C", "D", "H", "S" or "NT" (clubs, diamonds, hearts, spades or no trump), got %(value)s',
        value=describe(value),
    )


def _double_message(value):
    allowed = ", ".join(f'"{code}"' for code, _words in DOUBLES)
    return _("the double must be one of %(allowed)s, got %(value)s", allowed=allowed, value=describe(value))


def _tricks_message(state, data):
    declarer = data.get("declarer")
    value = describe(data["tricks"])
    if is_int(declarer) and 0 <= declarer < len(state.players):
        return _(
            "%(name)s's tricks must be 0 to %(max)s, got %(value)s",
            name=state.players[declarer],
            max=TRICKS,
            value=value,
        )
    return _("the declarer's tricks must be 0 to %(max)s, got %(value)s", max=TRICKS, value=value)


GAME = DrawBridge()
