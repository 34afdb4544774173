"""Court Piece, or Rang: four players in two partnerships (RULES.md section 8)."""

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
    describe,
    is_int,
    ngettext,
    or_words,
    side_name,
)

SIDES = ((0, 2), (1, 3))
NONE, FIRST7, ALL13 = "none", "first7", "all13"  # the court entered
KOT, GOON_KOT, BAVNEY, RUN = "kot", "goon_kot", "bavney", "run"  # the court scored
SUITS = (
    ("C", _("♣ clubs")),
    ("D", _("♦ diamonds")),
    ("H", _("♥ hearts")),
    ("S", _("♠ spades")),
)
SUIT_CODES = tuple(code for code, _label in SUITS)

SPEC = GameSpec(
    id="courtpiece",
    name=_("Court Piece"),
    min_players=4,
    max_players=4,
    summary=_(
        "Court Piece (Rang) for four in two partnerships: the player after the dealer calls trumps from five "
        "cards, and seven tricks win the deal. A court for a kot, seven deals in a row or a bavney."
    ),
    options=(
        Option(
            "target",
            "int",
            2,
            _("Target in courts"),
            _("The first side to score this many courts wins. Empty: no target."),
            minimum=1,
            nullable=True,
        ),
        Option(
            "deals",
            "int",
            None,
            _("Number of deals"),
            _(
                "If set, the game ends after this many deals: the side with more courts wins, "
                "with equal courts the side that won more deals. Empty: no limit."
            ),
            minimum=1,
            nullable=True,
        ),
        Option(
            "deal_run",
            "int",
            7,
            _("Deals in a row for a court"),
            _("A side that wins this many deals in a row scores a court. 0: only a kot or a bavney scores."),
            minimum=0,
        ),
        Option(
            "goon_kot",
            "int",
            1,
            _("Courts for a goon kot"),
            _("Courts for a kot won by the dealer's side, against the side that called trumps; 2 counts it double."),
            minimum=1,
        ),
        Option(
            "bavney",
            "int",
            52,
            _("Courts for a bavney"),
            _("Courts for taking all thirteen tricks (52: the game is won)."),
            minimum=1,
        ),
    ),
    hand_fields=(
        Field(
            "trumps",
            "choice",
            _("Trumps (rang)"),
            _("The suit the caller named. Recorded for the table only: it does not change the score."),
            phase="bidding",
            required=False,
            choices=SUITS,
        ),
        Field(
            "winner",
            "side",
            _("Won the deal"),
            _("The side that took seven tricks first."),
            # Translators: a Court Piece deal in the history of changes: "Ann & Cat won the deal"; {} is the side.
            says=_("{} won the deal"),
        ),
        Field(
            "court",
            "choice",
            _("Court"),
            _("A kot: the winners took the first seven tricks. A bavney: they took all thirteen."),
            required=False,  # left out: no court
            choices=(
                (NONE, _("No court")),
                (FIRST7, _("Kot: the first seven tricks")),
                (ALL13, _("Bavney: all thirteen tricks")),
            ),
        ),
    ),
    detail_keys=("dealer", "caller", "winner", "court", "deals_won", "run"),
    side_details=("deals_won", "run"),
    has_bidding=True,
    hand_noun=_("deal"),
    hands_noun=_("deals"),
    bidding_noun=_("trumps"),
    sides=SIDES,
)


@dataclass
class State:
    players: list[str]
    options: dict
    dealer: int = 0  # of the next deal
    run: list[int] = field(default_factory=lambda: [0, 0])
    deals_won: list[int] = field(default_factory=lambda: [0, 0])
    courts: list[int] = field(default_factory=lambda: [0, 0])  # the totals, for the end test


class CourtPiece(Game):
    spec = SPEC

    def new_state(self, players, options):
        return State(players, options)

    def check_bidding(self, state, bidding, k):
        # RULES.md 8.6: the trumps, for guidance only.
        check_keys(bidding, {"trumps"})
        if not (isinstance(bidding["trumps"], str) and bidding["trumps"] in SUIT_CODES):
            raise HandError(_trumps_message(bidding["trumps"]))

    def check_hand(self, state, hand, k):
        # RULES.md 8.2: keys, then types, then ranges; nothing across values.
        check_keys(hand, {"winner"}, {"court", "trumps"})
        winner, court = hand["winner"], hand.get("court", NONE)
        called = "trumps" in hand
        if not is_int(winner):
            raise HandError(_winner_message(state, winner))
        if not isinstance(court, str):
            raise HandError(_court_message(court))
        if called and not isinstance(hand["trumps"], str):
            raise HandError(_trumps_message(hand["trumps"]))
        if winner not in (0, 1):
            raise HandError(_winner_message(state, winner))
        if court not in (NONE, FIRST7, ALL13):
            raise HandError(_court_message(court))
        if called and hand["trumps"] not in SUIT_CODES:
            raise HandError(_trumps_message(hand["trumps"]))

    def score_hand(self, state, hand, k, explain=True):
        options = state.options
        winner, entered = hand["winner"], hand.get("court", NONE)
        dealer = state.dealer
        caller = (dealer + 1) % 4
        callers_won = winner == caller % 2
        run = 0  # the winners' run, where this deal counts towards it
        if entered == ALL13:
            court, courts = BAVNEY, options["bavney"]
        elif entered == FIRST7:
            court, courts = (KOT, 1) if callers_won else (GOON_KOT, options["goon_kot"])
        else:
            state.run[winner] += 1
            state.run[1 - winner] = 0
            run = state.run[winner]
            court, courts = (RUN, 1) if options["deal_run"] and run >= options["deal_run"] else (None, 0)
        if court:
            state.run = [0, 0]  # every court starts the runs again (decision 35)
        state.deals_won[winner] += 1
        state.courts[winner] += courts
        # RULES.md 8.1: the dealer is always on the side that lost the last deal.
        if not callers_won:
            state.dealer = caller
        elif court:
            state.dealer = (dealer + 2) % 4
        points = [0, 0]
        points[winner] = courts
        details = {
            "dealer": dealer,
            "caller": caller,
            "winner": winner,
            "court": court,
            "deals_won": list(state.deals_won),
            "run": list(state.run),
        }
        why = []
        if explain:
            line = self._why(state, winner, court, courts, run)
            if self._leader(state) is None:
                who = state.players[state.dealer]
                again = state.dealer == dealer
                # Translators: who deals the next deal of Court Piece: "Ann deals again", "Cat deals next".
                turn = _("%(name)s deals again", name=who) if again else _("%(name)s deals next", name=who)
                # Translators: a why-line, then who deals next: "Bob & Dan took the first seven tricks: a kot, Cat deals
                # next".
                line = _("%(line)s, %(turn)s", line=line, turn=turn)
            why = [_("%(team)s lost the deal: 0", team=side_name(state.players, SIDES[1 - winner]))] * 2
            why[winner] = line
        return HandScore(points, details, why)

    def _why(self, state, winner, court, courts, run):
        """The winners' line of the preview, without who deals next (RULES.md 8.3)."""
        team = side_name(state.players, SIDES[winner])
        if court == BAVNEY:
            return ngettext(
                # Translators: a why-line of Court Piece; a bavney: all thirteen tricks (52 cards).
                "%(team)s took all thirteen tricks: a bavney, %(n)s court",
                "%(team)s took all thirteen tricks: a bavney, %(n)s courts",
                courts,
                team=team,
                n=courts,
            )
        if court == KOT:
            # Translators: a why-line of Court Piece; a kot: the first seven tricks, one court.
            return _("%(team)s took the first seven tricks: a kot", team=team)
        if court == GOON_KOT:
            return ngettext(
                # Translators: a why-line of Court Piece; a goon kot: a kot won by the dealer's side.
                "%(team)s took the first seven tricks against the callers: a goon kot, %(n)s court",
                "%(team)s took the first seven tricks against the callers: a goon kot, %(n)s courts",
                courts,
                team=team,
                n=courts,
            )
        if court == RUN:
            return ngettext(
                # Translators: a why-line of Court Piece: seven deals won in a row (by default) score a court.
                "%(team)s won %(n)s deal in a row: a court",
                "%(team)s won %(n)s deals in a row: a court",
                run,
                team=team,
                n=run,
            )
        if run == 1:
            # Translators: a why-line of Court Piece: a deal won, not a court.
            return _("%(team)s won the deal: no court", team=team)
        return ngettext(
            # Translators: a why-line of Court Piece: a deal won, the side's run of deals so far, not a court.
            "%(team)s won the deal, %(n)s deal in a row: no court",
            "%(team)s won the deal, %(n)s deals in a row: no court",
            run,
            team=team,
            n=run,
        )

    def _leader(self, state):
        """The side that has won (RULES.md 8.5), or None while the game goes on."""
        totals = state.courts
        target, deals = state.options["target"], state.options["deals"]
        if target is not None and max(totals) >= target:
            return 0 if totals[0] > totals[1] else 1  # only the winner of a deal scores: never equal here
        if deals is not None and sum(state.deals_won) >= deals:
            first, second = (totals[0], state.deals_won[0]), (totals[1], state.deals_won[1])
            if first != second:
                return 0 if first > second else 1
        return None

    def is_over(self, state, totals, hands_played):
        return self._leader(state) is not None

    def winners(self, state, totals):
        return [self._leader(state)]

    def next_hand(self, state, k):
        caller = (state.dealer + 1) % 4
        return {"number": k + 1, "dealer": state.dealer, "caller": caller, "leader": caller}

    def hints(self, state, k, bidding):
        caller = (state.dealer + 1) % 4
        return {
            "dealer": state.dealer,
            "caller": caller,
            "leader": caller,
            "run": list(state.run),  # "Bob & Dan: 5 deals in a row"
            "deal_run": state.options["deal_run"],
            "deals_won": list(state.deals_won),
        }


def _winner_message(state, value):
    # Translators: a side by its number and its players, in a message: "0 (Ann & Cat)".
    sides = or_words(
        _("%(number)s (%(team)s)", number=s, team=side_name(state.players, side)) for s, side in enumerate(SIDES)
    )
    return _("the winner must be %(sides)s, got %(value)s", sides=sides, value=describe(value))


def _court_message(value):
    return _(
        'the court must be "none", "first7" or "all13" (no court, the first seven tricks or all thirteen), '
        "got %(value)s",
        value=describe(value),
    )


def _trumps_message(value):
    return _(
        'the trumps must be "C", "D", "H" or "S" (clubs, diamonds, hearts or spades), got %(value)s',
        value=describe(value),
    )


GAME = CourtPiece()
