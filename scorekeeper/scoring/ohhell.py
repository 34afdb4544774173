"""Oh Hell for 3 to 7 players (RULES.md section 5)."""

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
    check_keys,
    check_per_player_list,
    describe,
    is_int,
    ngettext,
)

PACK = 52
LARGEST_HAND = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}
SCHEDULES = ("up", "down", "up_down", "down_up")
BID, TRICKS_WORD = "bid", "tricks"  # which value a message is about
MISSED = _("missed, 0")

THE_BIDS = _("the bids")
THE_TRICKS = _("the tricks")

SPEC = GameSpec(
    id="ohhell",
    name=_("Oh Hell"),
    min_players=3,
    max_players=7,
    summary=_("Oh Hell for 3 to 7 players: the hands grow (or shrink) by one card; bid exactly the tricks you take."),
    options=(
        Option(
            "schedule",
            "choice",
            "up",
            _("Hand sizes"),
            _(
                "How many cards each hand deals: from 1 card up to the largest hand (15 cards for 3 players, "
                "13 for 4, 10 for 5, 8 for 6, 7 for 7), down again, or both ways."
            ),
            choices=(
                ("up", _("Up: 1, 2, 3 … cards")),
                ("down", _("Down: … 3, 2, 1 cards")),
                ("up_down", _("Up and down: 1 … most … 1")),
                ("down_up", _("Down and up: most … 1 … most")),
            ),
        ),
        Option(
            "hook",
            "bool",
            False,
            _("The hook (dealer's restriction)"),
            _(
                "If on, the bids may not add up to the number of cards dealt to each player, so somebody must miss. "
                "The dealer bids last and may not make the bid that would do it."
            ),
        ),
        Option(
            "made_bid_score",
            "choice",
            "ten_plus_tricks",
            _("Score for a bid made"),
            _("What a player scores for taking exactly the tricks they bid."),
            choices=(
                ("ten_plus_tricks", _("10 plus the tricks taken")),
                ("five_plus_cards", _("5 plus the cards dealt to each player")),
            ),
        ),
        Option(
            "miss_scores_tricks",
            "bool",
            False,
            _("A missed bid scores its tricks"),
            _("If on, a player who misses their bid still scores 1 point per trick taken; if off, a miss scores 0."),
        ),
        Option(
            "simultaneous_bidding",
            "bool",
            False,
            _("Bid all at once"),
            _(
                "If on, everyone bids at the same time (fists on the table, then fingers), "
                "so nobody bids first or last. Cannot be combined with the hook."
            ),
        ),
        Option(
            "must_trump",
            "bool",
            False,
            _("Must trump (La Podrida)"),
            _("If on, a player who cannot follow suit must play a trump. It changes the play only, not the scoring."),
        ),
    ),
    hand_fields=(
        Field(
            "bids",
            "int",
            _("Bid"),
            _("0 up to the cards dealt to each player in this hand."),
            per_player=True,
            phase="bidding",
            minimum=0,
            maximum=None,
            says=_("bid {}"),
        ),
        Field(
            "tricks",
            "int",
            _("Tricks"),
            _("Tricks taken; they add up to the cards dealt to each player."),
            per_player=True,
            minimum=0,
            maximum=None,
            says=_("took {}"),
        ),
    ),
    detail_keys=("cards", "trumps", "made"),
    has_bidding=True,
)


# ------------------------------------------------------------ pure helpers


def largest_hand(n_players: int) -> int:
    """N, the cards per player in the largest hand (RULES.md 5.1)."""
    return LARGEST_HAND[n_players]


def schedule(n_players: int, schedule_name: str) -> list[int]:
    """The cards per player of every hand, in play order."""
    top = largest_hand(n_players)
    up = list(range(1, top + 1))
    down = up[::-1]
    if schedule_name == "up":
        return up
    if schedule_name == "down":
        return down
    if schedule_name == "up_down":
        return up + down[1:]
    if schedule_name == "down_up":
        return down + up[1:]
    raise ValueError(f"unknown schedule {schedule_name!r}")


def trumps_for(n_players: int, schedule_name: str) -> list[bool]:
    """Per hand: is a trump turned up? No trumps in the last N-card hand of
    the schedule, nor in any hand that deals the whole pack (RULES.md 5.1)."""
    cards = schedule(n_players, schedule_name)
    top = largest_hand(n_players)
    last_top = max(i for i, c in enumerate(cards) if c == top)
    return [i != last_top and c * n_players < PACK for i, c in enumerate(cards)]


def forbidden_bid(cards: int, other_bids: list[int]) -> int | None:
    """The dealer's forbidden bid under the hook: the one that would make the
    bids add up to ``cards``; None when that is outside 0..cards."""
    bid = cards - sum(other_bids)
    return bid if 0 <= bid <= cards else None


# ------------------------------------------------------------------- game


@dataclass
class State:
    players: list[str]
    options: dict
    cards: list[int] = field(default_factory=list)
    trumps: list[bool] = field(default_factory=list)


class OhHell(Game):
    spec = SPEC

    def check_options(self, options, players):
        if options["hook"] and options["simultaneous_bidding"]:
            raise HandError(
                _(
                    "The hook cannot be played with simultaneous bidding: nobody bids last, "
                    "so no player can be kept from making the bids add up"
                )
            )

    def new_state(self, players, options):
        n = len(players)
        return State(players, options, schedule(n, options["schedule"]), trumps_for(n, options["schedule"]))

    def check_bidding(self, state, bidding, k):
        c = state.cards[k]
        check_keys(bidding, {"bids"})
        bids = check_per_player_list(bidding["bids"], state.players, THE_BIDS)
        self._check_values(state, bids, c, BID)
        self._check_hook(state, bids, c, k)

    def check_hand(self, state, hand, k):
        # RULES.md 1.3 order: keys, then types, then ranges, then sums, then the hook.
        c = state.cards[k]
        check_keys(hand, {"bids", "tricks"})
        bids = check_per_player_list(hand["bids"], state.players, THE_BIDS)
        tricks = check_per_player_list(hand["tricks"], state.players, THE_TRICKS)
        for values, what in ((bids, BID), (tricks, TRICKS_WORD)):
            self._check_types(state, values, c, what)
        for values, what in ((bids, BID), (tricks, TRICKS_WORD)):
            self._check_ranges(state, values, c, what)
        total = sum(tricks)
        if total != c:
            # the words of RULES.md 1.3's example
            raise HandError(
                ngettext(
                    "tricks add up to %(total)s, but %(n)s trick is played",
                    "tricks add up to %(total)s, but %(n)s tricks are played",
                    c,
                    total=total,
                    n=c,
                )
            )
        self._check_hook(state, bids, c, k)

    def _check_values(self, state, values, c, what):
        self._check_types(state, values, c, what)
        self._check_ranges(state, values, c, what)

    def _check_types(self, state, values, c, what):
        for name, value in zip(state.players, values, strict=True):
            if not is_int(value):
                raise HandError(_value_message(name, what, c, value))

    def _check_ranges(self, state, values, c, what):
        for name, value in zip(state.players, values, strict=True):
            if not 0 <= value <= c:
                raise HandError(_value_message(name, what, c, value))

    def _check_hook(self, state, bids, c, k):
        if not state.options["hook"]:
            return
        total = sum(bids)
        if total == c:
            dealer = k % len(state.players)
            others = [b for i, b in enumerate(bids) if i != dealer]
            raise HandError(
                _(
                    "the bids add up to %(total)s in a %(cards)s-card hand; "
                    "%(dealer)s deals and may not bid %(bid)s (the hook)",
                    total=total,
                    cards=c,
                    dealer=state.players[dealer],
                    bid=forbidden_bid(c, others),
                )
            )

    def score_hand(self, state, hand, k, explain=True):
        c = state.cards[k]
        points, made, why = [], [], []
        for bid, taken in zip(hand["bids"], hand["tricks"], strict=True):
            points.append(self._score_player(state, c, bid, taken))
            made.append(bid == taken)
            if explain:
                why.append(
                    _(
                        # Translators: a why-line: "bid 3, took 3: 10 + 3 = 13"; %(reason)s is the sum or "missed, 0".
                        "bid %(bid)s, took %(took)s: %(reason)s",
                        bid=bid,
                        took=taken,
                        reason=self._why(state, c, bid, taken),
                    )
                )
        return HandScore(points, {"cards": c, "trumps": state.trumps[k], "made": made}, why)

    def _score_player(self, state, c, bid, taken):
        if taken == bid:
            return 5 + c if state.options["made_bid_score"] == "five_plus_cards" else 10 + taken
        return taken if state.options["miss_scores_tricks"] else 0

    def _why(self, state, c, bid, taken):
        """The words after "bid b, took t: "."""
        if taken == bid:
            if state.options["made_bid_score"] == "five_plus_cards":
                return ngettext("5 + %(n)s card = %(sum)s", "5 + %(n)s cards = %(sum)s", c, n=c, sum=5 + c)
            return _("10 + %(n)s = %(sum)s", n=taken, sum=10 + taken)
        if state.options["miss_scores_tricks"]:
            return _("missed, 1 per trick = %(n)s", n=taken)
        return MISSED

    def is_over(self, state, totals, hands_played):
        return hands_played >= len(state.cards)

    def next_hand(self, state, k):
        n = len(state.players)
        first = None if state.options["simultaneous_bidding"] else (k + 1) % n
        return {
            "number": k + 1,
            "dealer": k % n,
            "first_bidder": first,
            "leader": (k + 1) % n,
            "cards": state.cards[k],
            "trumps": state.trumps[k],
        }

    def hints(self, state, k, bidding):
        if not 0 <= k < len(state.cards):
            return {}
        n = len(state.players)
        c = state.cards[k]
        dealer = k % n
        hook = state.options["hook"]
        bids = _partial_bids(bidding, n, c)
        given = [b for b in bids if b is not None]
        forbidden = None
        if hook:
            others = [b for i, b in enumerate(bids) if i != dealer]
            if others and all(b is not None for b in others):
                forbidden = forbidden_bid(c, others)
        return {
            "cards": c,
            "hands_total": len(state.cards),
            "trumps": state.trumps[k],
            "max_bid": c,
            "tricks_total": c,
            "hook": hook,
            "dealer": dealer,
            "bidding_order": [(dealer + 1 + i) % n for i in range(n)],
            "bid_total": sum(given) if given else None,
            "forbidden_bid": forbidden,
        }


def _partial_bids(bidding, n, c) -> list[int | None]:
    """The legal bids of a possibly partial or junk bidding, one entry per
    player, None where no legal bid (an int 0..c) is given."""
    if not isinstance(bidding, dict):
        return [None] * n
    bids = bidding.get("bids")
    if type(bids) is not list or len(bids) != n:
        return [None] * n
    return [b if is_int(b) and 0 <= b <= c else None for b in bids]


def _value_message(name, what, c, value):
    if what == BID:
        return _("%(name)s's bid must be 0 to %(max)s, got %(value)s", name=name, max=c, value=describe(value))
    return _("%(name)s's tricks must be 0 to %(max)s, got %(value)s", name=name, max=c, value=describe(value))


GAME = OhHell()
