"""Two-player Spades (RULES.md section 2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import (
    Field,
    Game,
    GameSpec,
    HandError,
    HandScore,
    Option,
    check_int,
    check_keys,
    check_per_player_list,
    describe,
    is_int,
)

TRICKS = 13
BLIND_NIL = "blind_nil"
BAG_LIMIT = 10
BAG_PENALTY = -100

SPEC = GameSpec(
    id="spades",
    name="Spades",
    min_players=2,
    max_players=2,
    summary="Two-player Spades: draw 13 cards each, bid, spades are trumps. Nil, Blind Nil and bags.",
    options=(
        Option("target", "int", 500, "Target score", "The first player to reach this score wins.", minimum=1),
        Option(
            "failed_nil_bags",
            "bool",
            False,
            "Failed Nil tricks count as bags",
            "If on, each trick taken by a player who bid Nil or Blind Nil and failed scores 1 point and 1 bag.",
        ),
    ),
    hand_fields=(
        Field(
            "bids",
            "int",
            "Bid",
            "0 to 13; 0 is Nil. Blind Nil is declared before drawing.",
            per_player=True,
            phase="bidding",
            minimum=0,
            maximum=TRICKS,
            choices=((0, "Nil"), (BLIND_NIL, "Blind Nil")),
            says="bid {}",
        ),
        Field(
            "tricks",
            "int",
            "Tricks",
            "Tricks taken; the two add up to 13.",
            per_player=True,
            minimum=0,
            maximum=TRICKS,
            says="took {}",
        ),
    ),
    detail_keys=("bags", "bag_penalty"),
    has_bidding=True,
    first_turn="draws first",
)


@dataclass
class State:
    players: list[str]
    options: dict
    bags: list[int] = field(default_factory=lambda: [0, 0])


class Spades(Game):
    spec = SPEC

    def new_state(self, players, options):
        return State(players, options)

    def check_bidding(self, state, bidding, k):
        check_keys(bidding, {"bids"})
        bids = check_per_player_list(bidding["bids"], state.players, "the bids")
        self._check_bid_types(state, bids)
        self._check_bid_ranges(state, bids)

    def check_hand(self, state, hand, k):
        # RULES.md 1.3 order: keys, then types, then ranges, then sums.
        check_keys(hand, {"bids", "tricks"})
        bids = check_per_player_list(hand["bids"], state.players, "the bids")
        tricks = check_per_player_list(hand["tricks"], state.players, "the tricks")
        self._check_bid_types(state, bids)
        for name, taken in zip(state.players, tricks, strict=True):
            if not is_int(taken):
                raise HandError(f"{name}'s tricks must be a whole number 0 to {TRICKS}, got {describe(taken)}")
        self._check_bid_ranges(state, bids)
        for name, taken in zip(state.players, tricks, strict=True):
            check_int(taken, 0, TRICKS, f"{name}'s tricks")
        total = sum(tricks)
        if total != TRICKS:
            raise HandError(f"tricks add up to {total}, but {TRICKS} tricks are played")

    def _check_bid_types(self, state, bids):
        for name, bid in zip(state.players, bids, strict=True):
            if bid != BLIND_NIL and not is_int(bid):
                raise HandError(f'{name}\'s bid must be 0 to {TRICKS} or "{BLIND_NIL}", got {describe(bid)}')

    def _check_bid_ranges(self, state, bids):
        for name, bid in zip(state.players, bids, strict=True):
            if bid != BLIND_NIL and not 0 <= bid <= TRICKS:
                raise HandError(f'{name}\'s bid must be 0 to {TRICKS} or "{BLIND_NIL}", got {describe(bid)}')

    def score_hand(self, state, hand, k):
        points, penalties, why = [], [], []
        for i, (bid, taken) in enumerate(zip(hand["bids"], hand["tricks"], strict=True)):
            score, new_bags, reason = self._score_player(state, bid, taken)
            bags = state.bags[i] + new_bags
            penalty = 0
            while bags >= BAG_LIMIT:
                bags -= BAG_LIMIT
                penalty += BAG_PENALTY
            if penalty:
                reason += f"; {BAG_LIMIT * penalty // BAG_PENALTY} bags reached: {penalty}"
            state.bags[i] = bags
            points.append(score + penalty)
            penalties.append(penalty)
            why.append(reason)
        return HandScore(points, {"bags": list(state.bags), "bag_penalty": penalties}, why)

    def _score_player(self, state, bid, taken):
        """(points before the bag penalty, bags added, why)."""
        if bid == BLIND_NIL or bid == 0:
            value = 200 if bid == BLIND_NIL else 100
            label = "Blind Nil" if bid == BLIND_NIL else "Nil"
            if taken == 0:
                return value, 0, f"{label} made: +{value}"
            tricks = f"{taken} trick{'s' if taken != 1 else ''}"
            if state.options["failed_nil_bags"]:
                return (
                    -value + taken,
                    taken,
                    f"{label} failed ({tricks}): -{value} + {taken} bag{'s' if taken != 1 else ''}",
                )
            return -value, 0, f"{label} failed ({tricks}): -{value}"
        if taken >= bid:
            over = taken - bid
            extra = f" + {over} bag{'s' if over != 1 else ''}" if over else ""
            return 10 * bid + over, over, f"bid {bid}, took {taken}: {10 * bid}{extra}"
        return -10 * bid, 0, f"bid {bid}, took {taken}: set, -{10 * bid}"

    def is_over(self, state, totals, hands_played):
        best = max(totals)
        return best >= state.options["target"] and totals.count(best) == 1

    def next_hand(self, state, k):
        return {"number": k + 1, "first_drawer": k % 2, "first_bidder": (k + 1) % 2, "leader": (k + 1) % 2}

    def hints(self, state, k, bidding):
        first = (k + 1) % 2
        return {
            "max_bid": TRICKS,
            "tricks_total": TRICKS,
            "bags": list(state.bags),
            "bidding_order": [first, 1 - first],
        }


GAME = Spades()
