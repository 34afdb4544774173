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
    _,
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

THE_CARD_POINTS = _("the card points")

SPEC = GameSpec(
    id="sixtysix",
    name=_("Sixty-Six"),
    min_players=2,
    max_players=2,
    summary=_("Two-player Sixty-Six with 24 cards: reach 66 card points first. Marriages, closing the stock."),
    options=(
        Option(
            "target",
            "int",
            7,
            _("Target score"),
            _("The first player to reach this many game points wins."),
            minimum=1,
        ),
    ),
    hand_fields=(
        Field(
            "end",
            "choice",
            _("How the deal ended"),
            _("Someone claimed 66, the stock was closed, or all 12 tricks were played."),
            choices=(
                (OUT, _("Someone claimed 66")),
                (CLOSED, _("Stock was closed")),
                (PLAYED_OUT, _("All cards played")),
            ),
        ),
        Field(
            "player",
            "player",
            _("Player"),
            _("Who claimed 66; who closed the stock; or, with all cards played, who won the last trick."),
            # Translators: "by Ann" in the history of changes: who claimed 66, closed the stock or won the last trick.
            says=_("by {}"),
        ),
        Field(
            "points",
            "int",
            _("Card points"),
            _(
                "Card points when play stopped: cards in the tricks won + marriages (20, 40 in trumps)"
                " + 10 for the last trick when the stock ran out."
            ),
            per_player=True,
            minimum=0,
            maximum=MAX_POINTS,
            # Translators: "Ann 45 card points" in the history of changes; {} is the number.
            says=_("{} card points"),
        ),
        Field(
            "opponent_took_trick",
            "bool",
            _("Opponent took a trick"),
            _("Had the other player (not the one above) won a trick when play stopped?"),
        ),
        Field(
            TRICK_AT_CLOSE,
            "bool",
            _("Opponent had a trick at the close"),
            _("Closed stock only: had the closer's opponent won a trick when the stock was closed?"),
            required=False,  # required when the stock was closed, not allowed otherwise
            when=("end", (CLOSED,)),
        ),
        Field(
            OPPONENT_CLAIMED,
            "bool",
            _("Opponent claimed 66"),
            _("Closed stock only: the closer's opponent stopped play by rightly claiming 66."),
            required=False,
            when=("end", (CLOSED,)),
            omit_if_false=True,
        ),
    ),
    detail_keys=("winner",),
    has_bidding=False,
    hand_noun=_("deal"),
    hands_noun=_("deals"),
)

LOST = _("lost the deal: 0")


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
            raise HandError(_player_message(end, player))
        check_per_player_list(points, state.players, THE_CARD_POINTS)
        for name, value in zip(state.players, points, strict=True):
            if not is_int(value):
                raise HandError(
                    _(
                        "%(name)s's card points must be a whole number 0 to %(max)s, got %(value)s",
                        name=name,
                        max=MAX_POINTS,
                        value=describe(value),
                    )
                )
        for key in ("opponent_took_trick", *CLOSED_ONLY):
            if key in hand:
                check_bool(hand[key], f'"{key}"')

        if not 0 <= player <= 1:
            raise HandError(_player_message(end, player))
        for name, value in zip(state.players, points, strict=True):
            check_int(value, 0, MAX_POINTS, lambda name=name: _("%(name)s's card points", name=name))

        self._check_across(state, hand)

    def _check_keys(self, hand):
        end = hand.get("end")
        required = (BASE_KEYS | {TRICK_AT_CLOSE}) if end == CLOSED else BASE_KEYS
        # While "end" is unknown the closed-only keys are let through here;
        # the bad "end" is reported first among the types.
        check_keys(hand, required, set(CLOSED_ONLY))
        if not (isinstance(end, str) and end in ENDS):
            allowed = ", ".join(f'"{e}"' for e in ENDS)
            raise HandError(
                _("the end of the deal must be one of %(allowed)s, got %(value)s", allowed=allowed, value=describe(end))
            )
        if end != CLOSED:
            for key in CLOSED_ONLY:
                if key in hand:
                    raise HandError(
                        _(
                            '"%(key)s" is only entered when the stock was closed, not for the end "%(end)s"',
                            key=key,
                            end=end,
                        )
                    )

    def _check_across(self, state, hand):
        end, player, points = hand["end"], hand["player"], hand["points"]
        other = 1 - player
        name, other_name = state.players[player], state.players[other]
        total = sum(points)
        if end == CLOSED and total > MAX_POINTS_CLOSED:
            raise HandError(
                _(
                    "card points add up to %(total)s, but after a close there are at most %(max)s"
                    " (no 10 for the last trick)",
                    total=total,
                    max=MAX_POINTS_CLOSED,
                )
            )
        if total > MAX_POINTS:
            raise HandError(
                _(
                    "card points add up to %(total)s, but there are at most %(max)s"
                    " (120 in the cards, 100 in marriages, 10 for the last trick)",
                    total=total,
                    max=MAX_POINTS,
                )
            )
        if hand.get(OPPONENT_CLAIMED, False) and points[other] < GOING_OUT:
            raise HandError(
                _(
                    "%(name)s claimed 66, so %(name)s's card points must be %(min)s or more, got %(got)s",
                    name=other_name,
                    min=GOING_OUT,
                    got=points[other],
                )
            )
        if not hand["opponent_took_trick"] and points[other] != 0:
            raise HandError(
                _(
                    "%(name)s took no trick, so %(name)s's card points must be 0, got %(got)s",
                    name=other_name,
                    got=points[other],
                )
            )
        if hand.get(TRICK_AT_CLOSE, False) and not hand["opponent_took_trick"]:
            raise HandError(
                _(
                    "%(name)s had a trick when the stock was closed, so %(name)s took a trick:"
                    ' "opponent_took_trick" must be true',
                    name=other_name,
                )
            )
        if end == PLAYED_OUT:
            if points[player] < 10:
                raise HandError(
                    _(
                        "%(name)s won the last trick, so %(name)s's card points must be at least 10, got %(got)s",
                        name=name,
                        got=points[player],
                    )
                )
            if total - CARDS_AND_LAST_TRICK not in MARRIAGE_TOTALS:
                allowed = ", ".join(str(CARDS_AND_LAST_TRICK + m) for m in MARRIAGE_TOTALS[:-1])
                raise HandError(
                    _(
                        "with all cards played the card points add up to %(base)s plus whole marriages"
                        " (%(allowed)s or %(last)s), got %(total)s",
                        base=CARDS_AND_LAST_TRICK,
                        allowed=allowed,
                        last=CARDS_AND_LAST_TRICK + MARRIAGE_TOTALS[-1],
                        total=total,
                    )
                )

    def score_hand(self, state, hand, k, explain=True):
        # Each why-line is a function, called only when the hand is explained
        # (the preview): scoring a whole match builds no words.
        end, player, points = hand["end"], hand["player"], hand["points"]
        other = 1 - player
        name, other_name = state.players[player], state.players[other]
        took_trick = hand["opponent_took_trick"]

        if end == OUT and points[player] >= GOING_OUT:
            value, scale = self._scale(other_name, points[other], took_trick)

            def line():
                # Translators: a why-line, e.g. "went out with 70; Bob has 40 (33 or more): 1".
                return _("went out with %(points)s; %(scale)s", points=points[player], scale=scale())

            return self._result(player, value, line, explain)
        if end == OUT:
            value = 2 if took_trick else 3

            def line():
                if value == 3:
                    return _(
                        # Translators: a why-line: Ann claimed 66 wrongly (with 60 card points); Bob scores 3.
                        "false claim by %(name)s (%(points)s); %(other)s took no trick: 3",
                        name=name,
                        points=points[player],
                        other=other_name,
                    )
                return _(
                    # Translators: a why-line: Ann claimed 66 wrongly (with 60 card points); Bob scores 2.
                    "false claim by %(name)s (%(points)s): %(other)s wins 2",
                    name=name,
                    points=points[player],
                    other=other_name,
                )

            return self._result(other, value, line, explain)

        if end == CLOSED:
            claimed = hand.get(OPPONENT_CLAIMED, False)
            if not claimed and points[player] >= GOING_OUT:
                value, scale = self._scale(other_name, points[other], took_trick)

                def line():
                    return _("closed and went out with %(points)s; %(scale)s", points=points[player], scale=scale())

                return self._result(player, value, line, explain)
            trick_at_close = hand[TRICK_AT_CLOSE]
            value = 2 if trick_at_close else 3

            def line():
                if claimed:
                    reason = _(
                        "%(name)s closed and %(other)s claimed 66 first (%(points)s)",
                        name=name,
                        other=other_name,
                        points=points[other],
                    )
                else:
                    reason = _("%(name)s closed and fell short", name=name)
                if trick_at_close:
                    return _(
                        # Translators: a why-line: %(reason)s says how the close failed; Bob scores 2.
                        "%(reason)s; %(other)s had a trick at the close: %(value)s",
                        reason=reason,
                        other=other_name,
                        value=value,
                    )
                return _(
                    # Translators: a why-line: %(reason)s says how the close failed; Bob scores 3.
                    "%(reason)s; %(other)s had no trick at the close: %(value)s",
                    reason=reason,
                    other=other_name,
                    value=value,
                )

            return self._result(other, value, line, explain)

        # played out
        if points[0] == points[1]:
            why = [_("drawn deal (%(a)s - %(b)s): 0", a=points[0], b=points[1])] * 2 if explain else []
            return HandScore([0, 0], {"winner": None}, why)
        winner = 0 if points[0] > points[1] else 1
        loser = 1 - winner
        loser_took_trick = loser == player or took_trick
        value, scale = self._scale(state.players[loser], points[loser], loser_took_trick)

        def line():
            return _(
                "all cards played, %(won)s - %(lost)s; %(scale)s", won=points[winner], lost=points[loser], scale=scale()
            )

        return self._result(winner, value, line, explain)

    @staticmethod
    def _scale(loser_name, loser_points, loser_took_trick):
        """(game points, a function giving the why) on the winning scale of RULES.md 4.3."""
        if not loser_took_trick:
            return 3, lambda: _("%(name)s took no trick: 3", name=loser_name)
        if loser_points < SCHNEIDER:
            return 2, lambda: _(
                "%(name)s has %(points)s (under %(limit)s): 2", name=loser_name, points=loser_points, limit=SCHNEIDER
            )
        return 1, lambda: _(
            "%(name)s has %(points)s (%(limit)s or more): 1", name=loser_name, points=loser_points, limit=SCHNEIDER
        )

    @staticmethod
    def _result(winner, value, line, explain):
        """Only the winner of a deal scores; ``line()`` explains the winner's points."""
        points = [0, 0]
        points[winner] = value
        why = []
        if explain:
            why = [LOST, LOST]
            why[winner] = line()
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


def _player_message(end, value):
    # Written out in full, one message per end, so that each can be translated whole.
    if end == OUT:
        return _("the player who claimed 66 must be a player number (0 or 1), got %(value)s", value=describe(value))
    if end == CLOSED:
        return _(
            "the player who closed the stock must be a player number (0 or 1), got %(value)s", value=describe(value)
        )
    return _("the player who won the last trick must be a player number (0 or 1), got %(value)s", value=describe(value))


GAME = SixtySix()
