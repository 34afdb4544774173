"""Spades for four, in partnerships (RULES.md section 7)."""

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
    check_per_side_list,
    describe,
    is_int,
    ngettext,
    side_name,
)

TRICKS = 13
BLIND_NIL = "blind_nil"
NIL_VALUES = {0: 100, BLIND_NIL: 200}
BAG_LIMIT = 10
BAG_PENALTY = -100
BEHIND = 100  # how far behind a side must be for Blind Nil (by default)
SIDES = ((0, 2), (1, 3))
NIL = _("Nil")
BLIND_NIL_WORDS = _("Blind Nil")

THE_BIDS = _("the bids")
THE_TRICKS = _("the tricks")
THE_NIL_TRICKS = _("the Nil bidders' tricks")

SPEC = GameSpec(
    id="partnership_spades",
    name=_("Partnership Spades"),
    min_players=4,
    max_players=4,
    summary=_(
        "Spades for four in two partnerships, partners opposite: bid, spades are trumps, "
        "each side makes its partners' bids together. Nil, Blind Nil and bags."
    ),
    options=(
        Option("target", "int", 500, _("Target score"), _("The first side to reach this score wins."), minimum=1),
        Option(
            "failed_nil_tricks",
            "choice",
            "bags",
            _("A failed Nil's tricks"),
            _("What the tricks of a player who bid Nil or Blind Nil and took some do for their side."),
            choices=(
                ("bags", _("Bags: 1 point and 1 bag each")),
                ("contract", _("They help make the partner's bid")),
                ("none", _("They count for nothing")),
            ),
        ),
        Option(
            "blind_nil",
            "choice",
            "behind_100",
            _("Blind Nil"),
            _("When a player may bid Blind Nil: Nil before looking at their cards, for 200 points."),
            choices=(
                ("behind_100", _("Only when their side is 100 or more behind")),
                ("always", _("Always")),
                ("never", _("Never")),
            ),
        ),
        Option(
            "partners_both_nil",
            "bool",
            True,
            _("Both partners may bid Nil"),
            _("If off, two partners may not both bid Nil or Blind Nil in the same hand."),
        ),
        Option(
            "losing_score",
            "int",
            None,
            _("Losing score"),
            _(
                "If set (e.g. -200), a side at or below this score after a hand ends the game, "
                "and the side with the higher score wins. Empty: no losing score."
            ),
            maximum=-1,
            nullable=True,
        ),
    ),
    hand_fields=(
        Field(
            "bids",
            "int",
            _("Bid"),
            _("0 to 13; 0 is Nil. Blind Nil is declared before looking at the cards."),
            per_player=True,
            phase="bidding",
            minimum=0,
            maximum=TRICKS,
            choices=((0, NIL), (BLIND_NIL, BLIND_NIL_WORDS)),
            says=_("bid {}"),
        ),
        Field(
            "tricks",
            "int",
            _("Tricks"),
            _("Tricks each side took, its Nil bidders' included; the two add up to 13."),
            per_side=True,
            minimum=0,
            maximum=TRICKS,
            says=_("took {}"),
        ),
        Field(
            "nil_tricks",
            "int",
            _("Nil bidder's tricks"),
            _("Only for a player who bid Nil or Blind Nil: the tricks they took themselves."),
            per_player=True,
            required=False,  # required exactly when someone bid Nil or Blind Nil
            minimum=0,
            maximum=TRICKS,
            # Translators: "Ann took 2 as Nil" in the history of changes; {} is the number of tricks.
            says=_("took {} as Nil"),
        ),
    ),
    detail_keys=("contract", "made", "nil_made", "bags", "bag_penalty"),
    side_details=("contract", "made", "bags", "bag_penalty"),
    has_bidding=True,
    sides=SIDES,
)


def is_nil(bid) -> bool:
    """Nil or Blind Nil (a bid already checked: an int or "blind_nil")."""
    return bid == BLIND_NIL or bid == 0


@dataclass
class State:
    players: list[str]
    options: dict
    bags: list[int] = field(default_factory=lambda: [0, 0])
    totals: list[int] = field(default_factory=lambda: [0, 0])  # for the Blind Nil rule


class PartnershipSpades(Game):
    spec = SPEC

    def new_state(self, players, options):
        return State(players, options)

    def check_bidding(self, state, bidding, k):
        # RULES.md 7.7: steps 3, 10 and 11 of 7.2 on their own.
        check_keys(bidding, {"bids"})
        bids = self._check_bids(state, bidding["bids"])
        self._check_bidding_rules(state, bids)

    def check_hand(self, state, hand, k):
        # The order of RULES.md 7.2, step by step.
        check_keys(hand, {"bids", "tricks"}, {"nil_tricks"})
        bids = self._check_bids(state, hand["bids"])
        tricks = check_per_side_list(hand["tricks"], SIDES, THE_TRICKS)
        for side, taken in zip(SIDES, tricks, strict=True):
            check_int(taken, 0, TRICKS, lambda side=side: _("%(name)s's tricks", name=side_name(state.players, side)))
        nil_tricks = hand.get("nil_tricks")
        if "nil_tricks" in hand:
            self._check_nil_trick_values(state, nil_tricks)
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
        nil_bidders = [i for i, bid in enumerate(bids) if is_nil(bid)]
        if nil_bidders and "nil_tricks" not in hand:
            first = nil_bidders[0]
            raise HandError(
                _(
                    '%(name)s bid %(nil)s, so the hand needs "nil_tricks": the tricks each Nil bidder took',
                    name=state.players[first],
                    nil=_nil_words(bids[first]),
                )
            )
        if not nil_bidders and "nil_tricks" in hand:
            raise HandError(_('nobody bid Nil, so the hand has no "nil_tricks"'))
        if nil_bidders:
            self._check_nil_tricks(state, bids, tricks, nil_tricks)
        self._check_bidding_rules(state, bids)

    def _check_bids(self, state, bids):
        check_per_player_list(bids, state.players, THE_BIDS)
        for name, bid in zip(state.players, bids, strict=True):
            if bid != BLIND_NIL and not (is_int(bid) and 0 <= bid <= TRICKS):
                raise HandError(
                    _(
                        '%(name)s\'s bid must be 0 to %(max)s or "%(blind_nil)s", got %(value)s',
                        name=name,
                        max=TRICKS,
                        blind_nil=BLIND_NIL,
                        value=describe(bid),
                    )
                )
        return bids

    def _check_nil_trick_values(self, state, nil_tricks):
        check_per_player_list(nil_tricks, state.players, THE_NIL_TRICKS)
        for name, taken in zip(state.players, nil_tricks, strict=True):
            if taken is not None and not (is_int(taken) and 0 <= taken <= TRICKS):
                raise HandError(
                    _(
                        "%(name)s's Nil tricks must be 0 to %(max)s, or null for a player who did not bid Nil,"
                        " got %(value)s",
                        name=name,
                        max=TRICKS,
                        value=describe(taken),
                    )
                )

    def _check_nil_tricks(self, state, bids, tricks, nil_tricks):
        """Steps 8 and 9: an entry exactly for each Nil bidder, fitting the side's tricks."""
        for name, bid, taken in zip(state.players, bids, nil_tricks, strict=True):
            if is_nil(bid) and taken is None:
                raise HandError(
                    _(
                        "%(name)s bid %(nil)s, so %(name)s's Nil tricks must be 0 to %(max)s, got nothing",
                        name=name,
                        nil=_nil_words(bid),
                        max=TRICKS,
                    )
                )
            if not is_nil(bid) and taken is not None:
                raise HandError(
                    _(
                        "%(name)s did not bid Nil, so %(name)s's Nil tricks must be null, got %(value)s",
                        name=name,
                        value=describe(taken),
                    )
                )
        for s, side in enumerate(SIDES):
            nils = [i for i in side if is_nil(bids[i])]
            taken = sum(nil_tricks[i] for i in nils)
            team = side_name(state.players, side)
            if len(nils) == len(side) and taken != tricks[s]:
                raise HandError(
                    _(
                        "%(team)s both bid Nil, so their Nil tricks (%(first)s + %(second)s) must add up to "
                        "the %(total)s tricks %(team)s took",
                        team=team,
                        first=nil_tricks[side[0]],
                        second=nil_tricks[side[1]],
                        total=tricks[s],
                    )
                )
            if len(nils) == 1 and taken > tricks[s]:
                raise HandError(
                    ngettext(
                        "%(name)s took %(n)s trick as a Nil bidder, but %(team)s took only %(total)s",
                        "%(name)s took %(n)s tricks as a Nil bidder, but %(team)s took only %(total)s",
                        taken,
                        name=state.players[nils[0]],
                        n=taken,
                        team=team,
                        total=tricks[s],
                    )
                )

    def _check_bidding_rules(self, state, bids):
        """Steps 10 and 11: both partners Nil, then Blind Nil, on the totals before the hand."""
        if not state.options["partners_both_nil"]:
            for side in SIDES:
                if all(is_nil(bids[i]) for i in side):
                    raise HandError(
                        _(
                            "%(team)s are partners and may not both bid Nil or Blind Nil in this game",
                            team=side_name(state.players, side),
                        )
                    )
        allowed = self._blind_nil_allowed(state)
        for i, bid in enumerate(bids):
            if bid == BLIND_NIL and not allowed[i % 2]:
                if state.options["blind_nil"] == "never":
                    raise HandError(
                        _("%(name)s may not bid Blind Nil: it is not allowed in this game", name=state.players[i])
                    )
                side = SIDES[i % 2]
                raise HandError(
                    _(
                        "%(name)s may not bid Blind Nil: only a side at least %(behind)s points behind may, "
                        "and %(team)s have %(own)s to %(other)s",
                        name=state.players[i],
                        behind=BEHIND,
                        team=side_name(state.players, side),
                        own=state.totals[i % 2],
                        other=state.totals[1 - i % 2],
                    )
                )

    def _blind_nil_allowed(self, state) -> list[bool]:
        rule = state.options["blind_nil"]
        if rule != "behind_100":
            return [rule == "always"] * 2
        return [state.totals[1 - s] - state.totals[s] >= BEHIND for s in (0, 1)]

    def score_hand(self, state, hand, k, explain=True):
        bids, tricks = hand["bids"], hand["tricks"]
        nil_tricks = hand.get("nil_tricks") or [None] * 4
        rule = state.options["failed_nil_tricks"]
        points, contracts, made, penalties, why = [], [], [], [], []
        for s, side in enumerate(SIDES):
            nils = [i for i in side if is_nil(bids[i])]
            contract = sum(bids[i] for i in side if i not in nils)
            failed = sum(nil_tricks[i] for i in nils)  # a made Nil adds 0
            counted = tricks[s] if rule == "contract" else tricks[s] - failed
            over = counted - contract
            contract_points = 10 * contract + over if over >= 0 else -10 * contract
            nil_points = sum(NIL_VALUES[bids[i]] * (1 if nil_tricks[i] == 0 else -1) for i in nils)
            nil_bags = failed if rule == "bags" else 0
            bags = state.bags[s] + max(over, 0) + nil_bags
            penalty = BAG_PENALTY * (bags // BAG_LIMIT)
            state.bags[s] = bags % BAG_LIMIT
            points.append(contract_points + nil_points + nil_bags + penalty)
            contracts.append(contract)
            made.append(None if contract == 0 else over >= 0)
            penalties.append(penalty)
            if explain:
                why.append(self._why(state, side, bids, nil_tricks, contract, counted, nil_bags, penalty))
        state.totals = [t + p for t, p in zip(state.totals, points, strict=True)]
        details = {
            "contract": contracts,
            "made": made,
            "nil_made": [nil_tricks[i] == 0 if is_nil(bid) else None for i, bid in enumerate(bids)],
            "bags": list(state.bags),
            "bag_penalty": penalties,
        }
        return HandScore(points, details, why)

    def _why(self, state, side, bids, nil_tricks, contract, counted, nil_bags, penalty):
        """The side's line of the preview, in words (RULES.md 7.3)."""
        team = side_name(state.players, side)
        nils = [i for i in side if is_nil(bids[i])]
        over = counted - contract
        if contract == 0:
            # Both partners bid Nil: a failed one's tricks are bags, also where
            # they count towards the (empty) contract (decision 26).
            line = _("%(team)s both bid Nil: no contract", team=team)
            nil_bags += counted
        elif over < 0:
            # Translators: a why-line, e.g. "Bob & Dan bid 8, took 7: set, -80" (set: the bid was not made).
            line = _(
                "%(team)s bid %(bid)s, took %(took)s: set, -%(points)s",
                team=team,
                bid=contract,
                took=counted,
                points=10 * contract,
            )
        elif over == 0:
            line = _(
                "%(team)s bid %(bid)s, took %(took)s: %(points)s",
                team=team,
                bid=contract,
                took=counted,
                points=10 * contract,
            )
        else:
            line = ngettext(
                # Translators: a why-line, e.g. "Ann & Cat bid 7, took 9: 70 + 2 bags" (a bag: a trick over the bid).
                "%(team)s bid %(bid)s, took %(took)s: %(points)s + %(bags)s bag",
                "%(team)s bid %(bid)s, took %(took)s: %(points)s + %(bags)s bags",
                over,
                team=team,
                bid=contract,
                took=counted,
                points=10 * contract,
                bags=over,
            )
        for i in nils:
            line = _and(line, _nil_why(state.players[i], bids[i], nil_tricks[i]))
        if nil_bags:
            more = ngettext(
                # Translators: part of a why-line: the tricks of a failed Nil are bags, and a point each.
                "failed Nil: %(n)s bag, +%(n)s",
                "failed Nil: %(n)s bags, +%(n)s",
                nil_bags,
                n=nil_bags,
            )
            line = _and(line, more)
        if penalty:
            line = _(
                "%(why)s; %(bags)s bags reached: %(penalty)s",
                why=line,
                bags=BAG_LIMIT * penalty // BAG_PENALTY,
                penalty=penalty,
            )
        return line

    def is_over(self, state, totals, hands_played):
        losing = state.options["losing_score"]
        reached = max(totals) >= state.options["target"] or (losing is not None and min(totals) <= losing)
        return reached and totals[0] != totals[1]

    def next_hand(self, state, k):
        first = (k + 1) % 4
        return {
            "number": k + 1,
            "dealer": k % 4,
            "first_bidder": first,
            "leader": first,
            "blind_nil_allowed": self._blind_nil_allowed(state),
        }

    def hints(self, state, k, bidding):
        bids = bidding.get("bids") if isinstance(bidding, dict) else None
        if type(bids) is not list or len(bids) != 4:
            bids = [None] * 4
        return {
            "max_bid": TRICKS,
            "tricks_total": TRICKS,
            "bags": list(state.bags),
            "dealer": k % 4,
            "bidding_order": [(k + 1 + i) % 4 for i in range(4)],
            "blind_nil_allowed": self._blind_nil_allowed(state),
            # the players offered Blind Nil: partners share their side's right
            "blind_nil_seats": [i for i in range(4) if self._blind_nil_allowed(state)[i % 2]],
            # who needs a Nil tricks entry after play, from the bids given so far
            "nil_bidders": [i for i, bid in enumerate(bids) if bid == BLIND_NIL or (is_int(bid) and bid == 0)],
        }


def _nil_words(bid):
    return BLIND_NIL_WORDS if bid == BLIND_NIL else NIL


def _nil_why(name, bid, taken):
    value = NIL_VALUES[bid]
    if taken == 0:
        # Translators: part of a why-line: "Ann's Nil made: +100"; %(nil)s is "Nil" or "Blind Nil".
        return _("%(name)s's %(nil)s made: +%(value)s", name=name, nil=_nil_words(bid), value=value)
    return ngettext(
        # Translators: part of a why-line: "Cat's Blind Nil failed (1 trick): -200".
        "%(name)s's %(nil)s failed (%(n)s trick): -%(value)s",
        "%(name)s's %(nil)s failed (%(n)s tricks): -%(value)s",
        taken,
        name=name,
        nil=_nil_words(bid),
        n=taken,
        value=value,
    )


def _and(line, more):
    # Translators: two parts of a why-line: "Ann & Cat bid 5, took 6: 50 + 1 bag; Ann's Nil made: +100".
    return _("%(line)s; %(more)s", line=line, more=more)


GAME = PartnershipSpades()
