"""Sixty-Six for two (RULES.md section 4)."""

from __future__ import annotations

from dataclasses import dataclass

from .base import (
    Field,
    Game,
    GameSpec,
    HandError,
    HandScore,
    Option,
    check_bool,
    check_int,
    check_keys,
    check_per_player_list,
    describe,
    is_int,
)

OUT = "out"
CLOSED = "closed"
PLAYED_OUT = "played_out"
ENDS = (OUT, CLOSED, PLAYED_OUT)

GOING_OUT = 66  # card points needed to claim
SCHNEIDER = 33  # a loser under this scores the winner 2
MAX_POINTS = 230  # 120 in the cards + 100 in marriages + 10 for the last trick
MAX_POINTS_CLOSED = 220  # no last-trick 10 after a close
CARDS_AND_LAST_TRICK = 130  # played out: 120 in the cards + 10 for the last trick
MARRIAGE_TOTALS = (0, 20, 40, 60, 80, 100)  # played out: whole marriages on top of the 130

BASE_KEYS = frozenset({"end", "player", "points", "opponent_took_trick"})
TRICK_AT_CLOSE = "opponent_trick_at_close"
OPPONENT_CLAIMED = "opponent_claimed"
CLOSED_ONLY = (TRICK_AT_CLOSE, OPPONENT_CLAIMED)

SPEC = GameSpec(
    id="sixtysix",
    name="Sixty-Six",
    min_players=2,
    max_players=2,
    summary="Two-player Sixty-Six with 24 cards: reach 66 card points first. Marriages, closing the stock.",
    options=(
        Option("target", "int", 7, "Target score", "The first player to reach this many game points wins.", minimum=1),
    ),
    hand_fields=(
        Field(
            "end",
            "choice",
            "How the deal ended",
            "Someone claimed 66, the stock was closed, or all 12 tricks were played.",
            choices=((OUT, "Someone claimed 66"), (CLOSED, "Stock was closed"), (PLAYED_OUT, "All cards played")),
        ),
        Field(
            "player",
            "player",
            "Player",
            "Who claimed 66; who closed the stock; or, with all cards played, who won the last trick.",
            says="by {}",
        ),
        Field(
            "points",
            "int",
            "Card points",
            "Card points when play stopped: cards in the tricks won + marriages (20, 40 in trumps)"
            " + 10 for the last trick when the stock ran out.",
            per_player=True,
            minimum=0,
            maximum=MAX_POINTS,
            says="{} card points",
        ),
        Field(
            "opponent_took_trick",
            "bool",
            "Opponent took a trick",
            "Had the other player (not the one above) won a trick when play stopped?",
        ),
        Field(
            TRICK_AT_CLOSE,
            "bool",
            "Opponent had a trick at the close",
            "Closed stock only: had the closer's opponent won a trick when the stock was closed?",
            required=False,  # required when the stock was closed, not allowed otherwise
            when=("end", (CLOSED,)),
        ),
        Field(
            OPPONENT_CLAIMED,
            "bool",
            "Opponent claimed 66",
            "Closed stock only: the closer's opponent stopped play by rightly claiming 66.",
            required=False,
            when=("end", (CLOSED,)),
            omit_if_false=True,
        ),
    ),
    detail_keys=("winner",),
    has_bidding=False,
    hand_noun="deal",
    hands_noun="deals",
)

PLAYER_ROLE = {OUT: "who claimed 66", CLOSED: "who closed the stock", PLAYED_OUT: "who won the last trick"}


@dataclass
class State:
    players: list[str]
    options: dict


class SixtySix(Game):
    spec = SPEC

    def new_state(self, players, options):
        return State(players, options)

    # check_bidding: the base class already rejects any bidding (RULES.md 1.4).

    def check_hand(self, state, hand, k):
        # RULES.md 1.3 order: keys, then types, then ranges, then checks across values.
        self._check_keys(hand)
        end = hand["end"]
        player, points = hand["player"], hand["points"]
        if not is_int(player):
            raise HandError(f"the player {PLAYER_ROLE[end]} must be a player number (0 or 1), got {describe(player)}")
        check_per_player_list(points, state.players, "the card points")
        for name, value in zip(state.players, points, strict=True):
            if not is_int(value):
                raise HandError(f"{name}'s card points must be a whole number 0 to {MAX_POINTS}, got {describe(value)}")
        for key in ("opponent_took_trick", *CLOSED_ONLY):
            if key in hand:
                check_bool(hand[key], f'"{key}"')

        if not 0 <= player <= 1:
            raise HandError(f"the player {PLAYER_ROLE[end]} must be a player number (0 or 1), got {describe(player)}")
        for name, value in zip(state.players, points, strict=True):
            check_int(value, 0, MAX_POINTS, f"{name}'s card points")

        self._check_across(state, hand)

    def _check_keys(self, hand):
        end = hand.get("end")
        required = (BASE_KEYS | {TRICK_AT_CLOSE}) if end == CLOSED else BASE_KEYS
        # While "end" is unknown the closed-only keys are let through here;
        # the bad "end" is reported first among the types.
        check_keys(hand, required, set(CLOSED_ONLY))
        if not (isinstance(end, str) and end in ENDS):
            allowed = ", ".join(f'"{e}"' for e in ENDS)
            raise HandError(f"the end of the deal must be one of {allowed}, got {describe(end)}")
        if end != CLOSED:
            for key in CLOSED_ONLY:
                if key in hand:
                    raise HandError(f'"{key}" is only entered when the stock was closed, not for the end "{end}"')

    def _check_across(self, state, hand):
        end, player, points = hand["end"], hand["player"], hand["points"]
        other = 1 - player
        name, other_name = state.players[player], state.players[other]
        total = sum(points)
        if end == CLOSED and total > MAX_POINTS_CLOSED:
            raise HandError(
                f"card points add up to {total}, but after a close there are at most {MAX_POINTS_CLOSED}"
                " (no 10 for the last trick)"
            )
        if total > MAX_POINTS:
            raise HandError(
                f"card points add up to {total}, but there are at most {MAX_POINTS}"
                " (120 in the cards, 100 in marriages, 10 for the last trick)"
            )
        if hand.get(OPPONENT_CLAIMED, False) and points[other] < GOING_OUT:
            raise HandError(
                f"{other_name} claimed 66, so {other_name}'s card points must be {GOING_OUT} or more,"
                f" got {points[other]}"
            )
        if not hand["opponent_took_trick"] and points[other] != 0:
            raise HandError(f"{other_name} took no trick, so {other_name}'s card points must be 0, got {points[other]}")
        if hand.get(TRICK_AT_CLOSE, False) and not hand["opponent_took_trick"]:
            raise HandError(
                f"{other_name} had a trick when the stock was closed, so {other_name} took a trick:"
                ' "opponent_took_trick" must be true'
            )
        if end == PLAYED_OUT:
            if points[player] < 10:
                raise HandError(
                    f"{name} won the last trick, so {name}'s card points must be at least 10, got {points[player]}"
                )
            if total - CARDS_AND_LAST_TRICK not in MARRIAGE_TOTALS:
                allowed = ", ".join(str(CARDS_AND_LAST_TRICK + m) for m in MARRIAGE_TOTALS[:-1])
                raise HandError(
                    f"with all cards played the card points add up to {CARDS_AND_LAST_TRICK} plus whole marriages"
                    f" ({allowed} or {CARDS_AND_LAST_TRICK + MARRIAGE_TOTALS[-1]}), got {total}"
                )

    def score_hand(self, state, hand, k):
        end, player, points = hand["end"], hand["player"], hand["points"]
        other = 1 - player
        name, other_name = state.players[player], state.players[other]
        took_trick = hand["opponent_took_trick"]

        if end == OUT and points[player] >= GOING_OUT:
            value, scale = self._scale(other_name, points[other], took_trick)
            return self._result(player, value, f"went out with {points[player]}; {scale}")
        if end == OUT:
            value = 2 if took_trick else 3
            reason = f"false claim by {name} ({points[player]})"
            if value == 3:
                return self._result(other, value, f"{reason}; {other_name} took no trick: 3")
            return self._result(other, value, f"{reason}: {other_name} wins 2")

        if end == CLOSED:
            if not hand.get(OPPONENT_CLAIMED, False) and points[player] >= GOING_OUT:
                value, scale = self._scale(other_name, points[other], took_trick)
                return self._result(player, value, f"closed and went out with {points[player]}; {scale}")
            trick_at_close = hand[TRICK_AT_CLOSE]
            value = 2 if trick_at_close else 3
            if hand.get(OPPONENT_CLAIMED, False):
                reason = f"{name} closed and {other_name} claimed 66 first ({points[other]})"
            else:
                reason = f"{name} closed and fell short"
            had = "had a trick" if trick_at_close else "had no trick"
            return self._result(other, value, f"{reason}; {other_name} {had} at the close: {value}")

        # played out
        if points[0] == points[1]:
            line = f"drawn deal ({points[0]} - {points[1]}): 0"
            return HandScore([0, 0], {"winner": None}, [line, line])
        winner = 0 if points[0] > points[1] else 1
        loser = 1 - winner
        loser_took_trick = loser == player or took_trick
        value, scale = self._scale(state.players[loser], points[loser], loser_took_trick)
        return self._result(winner, value, f"all cards played, {points[winner]} - {points[loser]}; {scale}")

    @staticmethod
    def _scale(loser_name, loser_points, loser_took_trick):
        """(game points, why) on the winning scale of RULES.md 4.3."""
        if not loser_took_trick:
            return 3, f"{loser_name} took no trick: 3"
        if loser_points < SCHNEIDER:
            return 2, f"{loser_name} has {loser_points} (under {SCHNEIDER}): 2"
        return 1, f"{loser_name} has {loser_points} ({SCHNEIDER} or more): 1"

    @staticmethod
    def _result(winner, value, line):
        """Only the winner of a deal scores; ``line`` explains the winner's points."""
        points = [0, 0]
        points[winner] = value
        why = ["lost the deal: 0", "lost the deal: 0"]
        why[winner] = line
        return HandScore(points, {"winner": winner}, why)

    def is_over(self, state, totals, hands_played):
        return max(totals) >= state.options["target"]

    def next_hand(self, state, k):
        return {"number": k + 1, "dealer": k % 2, "leader": (k + 1) % 2}

    def hints(self, state, k, bidding):
        return {
            "max_points": MAX_POINTS,
            "max_points_closed": MAX_POINTS_CLOSED,
            "going_out": GOING_OUT,
            "dealer": k % 2,
            "leader": (k + 1) % 2,
        }


GAME = SixtySix()
