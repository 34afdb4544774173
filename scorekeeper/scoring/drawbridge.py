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
    check_keys,
    describe,
    is_bool,
    is_int,
)

TRICKS = 13
BOOK = 6  # tricks declarer needs before the contract's level starts counting
MAX_LEVEL = 7
PASSED_OUT = "passed_out"

STRAINS = (("C", "♣ clubs"), ("D", "♦ diamonds"), ("H", "♥ hearts"), ("S", "♠ spades"), ("NT", "no trump"))
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
DOUBLES = (("none", "not doubled"), ("double", "doubled"), ("redouble", "redoubled"))
CONTRACT_ONLY = (PASSED_OUT, (False,))  # these fields are left out of a passed-out hand
MULTIPLIERS = {"none": 1, "double": 2, "redouble": 4}
TRICK_VALUES = {"C": 20, "D": 20, "H": 30, "S": 30}  # no trump: 40 for the first, 30 for each further
NT_FIRST = 40
NT_FURTHER = 30

BIDDING_KEYS = {"declarer", "level", "strain"}
OPTIONAL_KEYS = {"double"}
PLAY_KEYS = {"tricks"}

SPEC = GameSpec(
    id="drawbridge",
    name="Draw Bridge",
    min_players=2,
    max_players=2,
    summary=(
        "Bridge for two: 13 tricks to draw the hands from the stock, then an auction "
        "and 13 tricks to play the contract. Doubles and redoubles, no bonuses."
    ),
    options=(
        Option("target", "int", 500, "Target score", "The first player to reach this score wins.", minimum=1),
        Option(
            "undertrick_points",
            "int",
            50,
            "Points per undertrick",
            "When a contract is set, the defender scores this for each trick declarer is short. "
            "Doubling multiplies undertricks linearly: doubled, 1, 2, 3 down score 100, 200, 300 "
            "(redoubled 200, 400, 600), not the contract-bridge ladder. 0 means a set contract scores nothing.",
            minimum=0,
        ),
        Option(
            "stock_face_up",
            "bool",
            False,
            "Stock face up",
            "Play variant: the top card of the stock is shown to both players. It does not change the scoring.",
        ),
    ),
    hand_fields=(
        Field(
            PASSED_OUT,
            "bool",
            "Passed out",
            "Both players passed before anyone bid; the hand scores nothing and the deal passes.",
            phase="bidding",
            required=False,
            omit_if_false=True,  # {"passed_out": false} is an error: leave the key out instead
        ),
        Field(
            "declarer", "player", "Declarer", "The player who made the last bid.", phase="bidding", when=CONTRACT_ONLY
        ),
        Field(
            "level",
            "int",
            "Level",
            "1 to 7: tricks over six that declarer must win (1 = 7 tricks, 7 = all 13).",
            phase="bidding",
            minimum=1,
            maximum=MAX_LEVEL,
            when=CONTRACT_ONLY,
        ),
        Field(
            "strain",
            "choice",
            "Trumps",
            "The contract's trump suit, or no trump.",
            phase="bidding",
            choices=STRAINS,
            when=CONTRACT_ONLY,
        ),
        Field(
            "double",
            "choice",
            "Doubled",
            "Doubled scores twice, redoubled four times, for either side.",
            phase="bidding",
            required=False,
            choices=DOUBLES,
            when=CONTRACT_ONLY,
        ),
        Field(
            "tricks",
            "int",
            "Declarer's tricks",
            "Tricks declarer won in the contract half, 0 to 13.",
            minimum=0,
            maximum=TRICKS,
            when=CONTRACT_ONLY,
            says="{} tricks",
        ),
    ),
    detail_keys=("made",),
    has_bidding=True,
    bidding_noun="contract",
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
            raise HandError(f'the hand needs a contract ({needed}) or "{PASSED_OUT}": true')
        check_keys(data, required, OPTIONAL_KEYS)
        self._check_types(state, data, after_play)
        self._check_ranges(state, data, after_play)

    def _check_passed_out(self, data):
        others = sorted(set(data) - {PASSED_OUT}, key=str)
        if others:
            listed = ", ".join(f'"{key}"' for key in others)
            raise HandError(f'"{PASSED_OUT}" must be the only entry of a passed-out hand, but it also has {listed}')
        value = data[PASSED_OUT]
        if not is_bool(value):
            raise HandError(f'"{PASSED_OUT}" must be true, got {describe(value)}')
        if value is not True:
            raise HandError(
                f'"{PASSED_OUT}" must be true, got false; for a played contract leave it out '
                'and give "declarer", "level", "strain" and "tricks"'
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

    def score_hand(self, state, hand, k):
        if PASSED_OUT in hand:
            return HandScore([0, 0], {"made": None}, ["passed out: 0", "passed out: 0"])
        declarer, level, strain, tricks = hand["declarer"], hand["level"], hand["strain"], hand["tricks"]
        double = hand.get("double", "none")
        mult = MULTIPLIERS[double]
        need = BOOK + level
        contract = f"{level}{SYMBOLS[strain]}" + ("" if double == "none" else f" {dict(DOUBLES)[double]}")
        defender = 1 - declarer
        points = [0, 0]
        why = ["", ""]
        if tricks >= need:
            odd = tricks - BOOK
            if strain == "NT":
                value = NT_FIRST + NT_FURTHER * (odd - 1)
                sum_text = f"{NT_FIRST} + {odd - 1} x {NT_FURTHER}" if odd > 1 else f"{NT_FIRST}"
                if mult > 1:
                    sum_text = f"({sum_text}) x {mult}" if odd > 1 else f"{sum_text} x {mult}"
            else:
                value = TRICK_VALUES[strain] * odd
                sum_text = f"{odd} over six x {TRICK_VALUES[strain]}" + (f" x {mult}" if mult > 1 else "")
            points[declarer] = value * mult
            result = str(points[declarer])
            sum_text = result if sum_text == result else f"{sum_text} = {result}"
            why[declarer] = f"{contract}, {tricks} tricks: {sum_text}"
            why[defender] = "defending: 0"
            made = True
        else:
            down = need - tricks
            per = state.options["undertrick_points"]
            points[defender] = down * per * mult
            why[defender] = f"{down} down x {per}" + (f" x {mult}" if mult > 1 else "") + f" = {points[defender]}"
            why[declarer] = f"{contract} set by {down}: 0"
            made = False
        return HandScore(points, {"made": made}, why)

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
    seats = " or ".join(f"{i} ({name})" for i, name in enumerate(state.players))
    return f"the declarer must be {seats}, got {describe(value)}"


def _level_message(value):
    return f"the level must be 1 to {MAX_LEVEL}, got {describe(value)}"


def _strain_message(value):
    return (
        'the strain must be "C", "D", "H", "S" or "NT" (clubs, diamonds, hearts, spades or no trump), '
        f"got {describe(value)}"
    )


def _double_message(value):
    allowed = ", ".join(f'"{code}"' for code, _ in DOUBLES)
    return f"the double must be one of {allowed}, got {describe(value)}"


def _tricks_message(state, data):
    declarer = data.get("declarer")
    if is_int(declarer) and 0 <= declarer < len(state.players):
        who = f"{state.players[declarer]}'s tricks"
    else:
        who = "the declarer's tricks"
    return f"{who} must be 0 to {TRICKS}, got {describe(data['tricks'])}"


GAME = DrawBridge()
