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
    _,
    check_int,
    check_keys,
    check_per_player_list,
    describe,
    is_int,
    ngettext,
)

TRICKS = 13
BLIND_NIL = "blind_nil"
BAG_LIMIT = 10
BAG_PENALTY = -100
NIL = _("Nil")
BLIND_NIL_WORDS = _("Blind Nil")

THE_BIDS = _("the bids")
THE_TRICKS = _("the tricks")

SPEC = GameSpec(
    id="spades",
    name=_("Spades"),
    min_players=2,
    max_players=2,
    summary=_("Two-player Spades: draw 13 cards each, bid, spades are trumps. Nil, Blind Nil and bags."),
    options=(
        Option("target", "int", 500, _("Target score"), _("The first player to reach this score wins."), minimum=1),
        Option(
            "failed_nil_bags",
            "bool",
            False,
            _("Failed Nil tricks count as bags"),
            _("If on, each trick taken by a player who bid Nil or Blind Nil and failed scores 1 point and 1 bag."),
        ),
    ),
    hand_fields=(
        Field(
            "bids",
            "int",
            _("Bid"),
            _("0 to 13; 0 is Nil. Blind Nil is declared before drawing."),
            per_player=True,
            phase="bidding",
            minimum=0,
            maximum=TRICKS,
            choices=((0, NIL), (BLIND_NIL, BLIND_NIL_WORDS)),
            # Translators: "Ann bid 4" in the history of changes; {} is the bid.
            says=_("bid {}"),
        ),
        Field(
            "tricks",
            "int",
            _("Tricks"),
            _("Tricks taken; the two add up to 13."),
            per_player=True,
            minimum=0,
            maximum=TRICKS,
            # Translators: "Ann took 6" in the history of changes; {} is the number of tricks.
            says=_("took {}"),
        ),
    ),
    detail_keys=("bags", "bag_penalty"),
    has_bidding=True,
    # Translators: what seat 1 does to start hand 1 of Spades: "Ann (seat 1) draws first."
    first_turn=_("draws first"),
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
        bids = check_per_player_list(bidding["bids"], state.players, THE_BIDS)
        self._check_bid_types(state, bids)
        self._check_bid_ranges(state, bids)

    def check_hand(self, state, hand, k):
        # RULES.md 1.3 order: keys, then types, then ranges, then sums.
        check_keys(hand, {"bids", "tricks"})
        bids = check_per_player_list(hand["bids"], state.players, THE_BIDS)
        tricks = check_per_player_list(hand["tricks"], state.players, THE_TRICKS)
        self._check_bid_types(state, bids)
        for name, taken in zip(state.players, tricks, strict=True):
            if not is_int(taken):
                raise HandError(
                    _(
                        "%(name)s's tricks must be a whole number 0 to %(max)s, got %(value)s",
                        name=name,
                        max=TRICKS,
                        value=describe(taken),
                    )
                )
        self._check_bid_ranges(state, bids)
        for name, taken in zip(state.players, tricks, strict=True):
            check_int(taken, 0, TRICKS, lambda name=name: _("%(name)s's tricks", name=name))
        total = sum(tricks)
        if total != TRICKS:
            raise HandError(
                ngettext(
                    "tricks add up to %(total)s, but %(n)s trick is played",
                    "tricks add up to %(total)s, but %(n)s tricks are played",
                    TRICKS,
                    total=total,
                    n=TRICKS,
                )
            )

    def _check_bid_types(self, state, bids):
        for name, bid in zip(state.players, bids, strict=True):
            if bid != BLIND_NIL and not is_int(bid):
                raise HandError(_bid_message(name, bid))

    def _check_bid_ranges(self, state, bids):
        for name, bid in zip(state.players, bids, strict=True):
            if bid != BLIND_NIL and not 0 <= bid <= TRICKS:
                raise HandError(_bid_message(name, bid))

    def score_hand(self, state, hand, k, explain=True):
        points, penalties, why = [], [], []
        for i, (bid, taken) in enumerate(zip(hand["bids"], hand["tricks"], strict=True)):
            score, new_bags = self._score_player(state, bid, taken)
            bags = state.bags[i] + new_bags
            penalty = 0
            while bags >= BAG_LIMIT:
                bags -= BAG_LIMIT
                penalty += BAG_PENALTY
            if explain:
                why.append(self._why(state, bid, taken, penalty))
            state.bags[i] = bags
            points.append(score + penalty)
            penalties.append(penalty)
        return HandScore(points, {"bags": list(state.bags), "bag_penalty": penalties}, why)

    def _score_player(self, state, bid, taken):
        """(points before the bag penalty, bags added)."""
        if bid == BLIND_NIL or bid == 0:
            value = 200 if bid == BLIND_NIL else 100
            if taken == 0:
                return value, 0
            if state.options["failed_nil_bags"]:
                return -value + taken, taken
            return -value, 0
        if taken >= bid:
            over = taken - bid
            return 10 * bid + over, over
        return -10 * bid, 0

    def _why(self, state, bid, taken, penalty):
        """The player's line of the preview, in words (RULES.md 2)."""
        line = self._why_before_penalty(state, bid, taken)
        if not penalty:
            return line
        return _(
            # Translators: a why-line and what the bags cost: "bid 4, took 6: 40 + 2 bags; 10 bags reached: -100".
            "%(why)s; %(bags)s bags reached: %(penalty)s",
            why=line,
            bags=BAG_LIMIT * penalty // BAG_PENALTY,
            penalty=penalty,
        )

    def _why_before_penalty(self, state, bid, taken):
        if bid == BLIND_NIL or bid == 0:
            value = 200 if bid == BLIND_NIL else 100
            label = BLIND_NIL_WORDS if bid == BLIND_NIL else NIL
            if taken == 0:
                # Translators: a why-line: %(nil)s is "Nil" or "Blind Nil", %(value)s 100 or 200.
                return _("%(nil)s made: +%(value)s", nil=label, value=value)
            if state.options["failed_nil_bags"]:
                return ngettext(
                    # Translators: a why-line, e.g. "Nil failed (2 tricks): -100 + 2 bags".
                    "%(nil)s failed (%(n)s trick): -%(value)s + %(n)s bag",
                    "%(nil)s failed (%(n)s tricks): -%(value)s + %(n)s bags",
                    taken,
                    nil=label,
                    n=taken,
                    value=value,
                )
            return ngettext(
                # Translators: a why-line, e.g. "Blind Nil failed (1 trick): -200".
                "%(nil)s failed (%(n)s trick): -%(value)s",
                "%(nil)s failed (%(n)s tricks): -%(value)s",
                taken,
                nil=label,
                n=taken,
                value=value,
            )
        if taken >= bid:
            over = taken - bid
            if not over:
                # Translators: a why-line, e.g. "bid 4, took 4: 40".
                return _("bid %(bid)s, took %(took)s: %(points)s", bid=bid, took=taken, points=10 * bid)
            return ngettext(
                # Translators: a why-line, e.g. "bid 4, took 6: 40 + 2 bags" (a bag: a trick over the bid).
                "bid %(bid)s, took %(took)s: %(points)s + %(bags)s bag",
                "bid %(bid)s, took %(took)s: %(points)s + %(bags)s bags",
                over,
                bid=bid,
                took=taken,
                points=10 * bid,
                bags=over,
            )
        # Translators: a why-line, e.g. "bid 5, took 3: set, -50" (set: the bid was not made).
        return _("bid %(bid)s, took %(took)s: set, -%(points)s", bid=bid, took=taken, points=10 * bid)

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


def _bid_message(name, bid):
    return _(
        '%(name)s\'s bid must be 0 to %(max)s or "%(blind_nil)s", got %(value)s',
        name=name,
        max=TRICKS,
        blind_nil=BLIND_NIL,
        value=describe(bid),
    )


GAME = Spades()
