"""How a player plays, from the hands as entered: pure Python, no Django.

Every number comes from the entries and the engine's result for them
(``score_match``): no rule is written here a second time. A match is given
as a ``Played`` (what the app stores: the engine's input, the result the
app recorded, when it ended); one player's figures are summed over the
matches they sat in.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..scoring import InvalidHand, get_game, score_match
from ..scoring.courtpiece import BAVNEY, GOON_KOT, KOT, RUN
from ..scoring.courtpiece import SIDES as PARTNERS
from ..scoring.drawbridge import BOOK, PASSED_OUT
from ..scoring.sixtysix import CLOSED, PLAYED_OUT
from ..scoring.spades import BAG_LIMIT, BAG_PENALTY, BLIND_NIL


@dataclass(frozen=True)
class Played:
    """One match as stored: ``match`` is the engine's input (game, players,
    options, hands); ``finished``, ``winners`` and ``totals`` the result the
    app recorded (a table ended early is finished on its totals)."""

    id: int
    match: dict
    seat_keys: tuple[str, ...]  # who sat in each seat (the app's player keys)
    finished: bool
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    when: Any = None  # anything that sorts: date order of the player's matches


def ratio(part: int | float, whole: int | float) -> float | None:
    return part / whole if whole else None


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def places(totals: tuple[int, ...] | list[int]) -> list[float]:
    """Each seat's place by total, highest first; equal totals share the
    places they cover (two tied first of four: 1.5 each)."""
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    result = [0.0] * len(totals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        shared = (i + 1 + j + 1) / 2
        for k in range(i, j + 1):
            result[order[k]] = shared
        i = j + 1
    return result


@dataclass
class GameStats:
    """One player's figures in one game."""

    game: str
    played: int = 0  # matches sat in, any state
    finished: int = 0
    won: int = 0
    shared_wins: int = 0
    hands: int = 0
    points: int = 0
    best_hand: int | None = None
    final_scores: list[int] = field(default_factory=list)
    final_places: list[float] = field(default_factory=list)
    longest_run: int = 0
    # Spades and Oh Hell: bids that are a number of tricks (not Nil)
    bids: int = 0
    exact: int = 0
    set: int = 0
    bags: int = 0
    bag_penalties: int = 0
    nil: list[int] = field(default_factory=lambda: [0, 0])  # attempts, made
    blind_nil: list[int] = field(default_factory=lambda: [0, 0])
    by_bid: dict[int, list[int]] = field(default_factory=dict)  # bid: [made, of]
    # Draw Bridge
    declared: int = 0
    made: int = 0
    doubled: list[int] = field(default_factory=lambda: [0, 0])  # [made, of]
    redoubled: list[int] = field(default_factory=lambda: [0, 0])
    undertricks: list[int] = field(default_factory=list)
    # Sixty-Six
    closes: int = 0
    closes_won: int = 0
    won_going_out: int = 0  # claimed 66, or closed and made it
    won_playing_out: int = 0  # all cards played, more card points
    won_on_failure: int = 0  # the other's claim or close failed
    # Partnership Spades (the side's contract: declared, made) and Court Piece: the side's deals and courts
    deals_won: int = 0
    kots: int = 0  # a goon kot included
    bavneys: int = 0
    run_courts: int = 0  # courts for deals won in a row

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.finished)

    @property
    def average_final(self) -> float | None:
        return mean(self.final_scores)

    @property
    def points_per_hand(self) -> float | None:
        return ratio(self.points, self.hands)

    @property
    def exact_rate(self) -> float | None:
        return ratio(self.exact, self.bids)

    @property
    def set_rate(self) -> float | None:
        return ratio(self.set, self.bids)

    @property
    def bags_per_hand(self) -> float | None:
        return ratio(self.bags, self.hands)

    @property
    def made_rate(self) -> float | None:
        return ratio(self.made, self.declared)

    @property
    def average_undertricks(self) -> float | None:
        return mean(self.undertricks)

    @property
    def average_place(self) -> float | None:
        return mean(self.final_places)

    @property
    def close_rate(self) -> float | None:
        return ratio(self.closes_won, self.closes)

    def exact_by_bid(self) -> list[tuple[int, int, int, float]]:
        """(bid, made, of, rate) for each bid made at least once, lowest first."""
        return [(b, m, n, m / n) for b, (m, n) in sorted(self.by_bid.items())]


@dataclass
class Versus:
    """Finished matches against one opponent (at the same table)."""

    opponent: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


@dataclass
class PlayerStats:
    key: str
    games: dict[str, GameStats]
    versus: dict[str, Versus]

    @property
    def played(self) -> int:
        return sum(g.played for g in self.games.values())

    @property
    def won(self) -> int:
        return sum(g.won for g in self.games.values())


def player_stats(key: str, matches: list[Played], scored: dict[int, dict] | None = None) -> PlayerStats:
    """The figures of the player ``key`` over ``matches`` (those they sat
    in; others are ignored). ``scored`` may hold ``score_match`` results by
    match id, computed before (the engine is then not run again)."""
    games: dict[str, GameStats] = {}
    versus: dict[str, Versus] = {}
    runs: dict[str, int] = Counter()
    for played in sorted(matches, key=lambda p: (p.when is None, p.when, p.id)):
        if key not in played.seat_keys:
            continue
        seat = played.seat_keys.index(key)
        game = played.match["game"]
        spec = get_game(game).spec
        own = spec.scorer_of(seat)  # a side's result counts for both partners
        stats = games.setdefault(game, GameStats(game))
        stats.played += 1
        result = (scored or {}).get(played.id)
        if result is None:
            try:
                result = score_match(played.match)
            except InvalidHand:  # a stored hand the rules no longer accept: no hand figures
                result = None
        if result is not None:
            _hands(stats, played.match, result, seat, own)
        if not played.finished:
            continue
        stats.finished += 1
        stats.final_scores.append(played.totals[own])
        stats.final_places.append(places(played.totals)[own])
        if own in played.winners:
            stats.won += 1
            stats.shared_wins += len(played.winners) > 1
            runs[game] += 1
            stats.longest_run = max(stats.longest_run, runs[game])
        else:
            runs[game] = 0
        for other, other_key in enumerate(played.seat_keys):
            if spec.scorer_of(other) == own:  # themselves, or their partner
                continue
            v = versus.setdefault(other_key, Versus(other_key))
            v.played += 1
            mine, theirs = played.totals[own], played.totals[spec.scorer_of(other)]
            if mine > theirs:
                v.won += 1
            elif mine < theirs:
                v.lost += 1
            else:
                v.drawn += 1
    return PlayerStats(key, games, versus)


def _hands(stats: GameStats, match: dict, result: dict, seat: int, own: int) -> None:
    before = None
    for hand, row in zip(match["hands"], result["hands"], strict=False):
        points = row["points"][own]
        stats.hands += 1
        stats.points += points
        stats.best_hand = points if stats.best_hand is None else max(stats.best_hand, points)
        HAND_FIGURES.get(match["game"], _nothing)(stats, hand, row, before, seat)
        before = row


def _nothing(stats, hand, row, before, seat) -> None:
    pass


def _spades(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    bid, taken = hand["bids"][seat], hand["tricks"][seat]
    if bid == BLIND_NIL or bid == 0:
        tally = stats.blind_nil if bid == BLIND_NIL else stats.nil
        tally[0] += 1
        tally[1] += taken == 0
    else:
        stats.bids += 1
        stats.exact += taken == bid
        stats.set += taken < bid
        tally = stats.by_bid.setdefault(bid, [0, 0])
        tally[0] += taken == bid
        tally[1] += 1
    # Bags as the engine counted them (a failed Nil's tricks too, if the
    # match's options say so): the count after this hand, plus the ten each
    # penalty took away, less the count before.
    penalties = row["bag_penalty"][seat] // BAG_PENALTY
    stats.bag_penalties += penalties
    stats.bags += row["bags"][seat] + BAG_LIMIT * penalties - (before["bags"][seat] if before else 0)


def _ohhell(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    bid = hand["bids"][seat]
    made = row["made"][seat]
    stats.bids += 1
    stats.exact += made
    tally = stats.by_bid.setdefault(bid, [0, 0])
    tally[0] += made
    tally[1] += 1


def _drawbridge(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    if PASSED_OUT in hand or hand["declarer"] != seat:
        return
    stats.declared += 1
    made = bool(row["made"])
    stats.made += made
    double = hand.get("double", "none")
    if double in ("double", "redouble"):
        tally = stats.doubled if double == "double" else stats.redoubled
        tally[0] += made
        tally[1] += 1
    if not made:
        stats.undertricks.append(BOOK + hand["level"] - hand["tricks"])


def _sixtysix(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    won = row["winner"] == seat
    if hand["end"] == CLOSED and hand["player"] == seat:
        stats.closes += 1
        stats.closes_won += won
    if not won:
        return
    if hand["end"] == PLAYED_OUT:
        stats.won_playing_out += 1
    elif hand["player"] == seat:
        stats.won_going_out += 1
    else:
        stats.won_on_failure += 1


def _partnership_spades(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    """The player's own Nil bids; the side's contract and bags (RULES.md 7)."""
    side = next(s for s, players in enumerate(PARTNERS) if seat in players)
    bid = hand["bids"][seat]
    if bid == BLIND_NIL or bid == 0:
        tally = stats.blind_nil if bid == BLIND_NIL else stats.nil
        tally[0] += 1
        tally[1] += (hand.get("nil_tricks") or [None] * 4)[seat] == 0
    if row["made"][side] is not None:  # both partners bid Nil: no contract
        stats.declared += 1
        stats.made += bool(row["made"][side])
    penalties = row["bag_penalty"][side] // BAG_PENALTY
    stats.bag_penalties += penalties
    stats.bags += row["bags"][side] + BAG_LIMIT * penalties - (before["bags"][side] if before else 0)


def _courtpiece(stats: GameStats, hand: dict, row: dict, before: dict | None, seat: int) -> None:
    """The side's deals won and its courts, by kind (RULES.md 8)."""
    side = next(s for s, players in enumerate(PARTNERS) if seat in players)
    if row["winner"] != side:
        return
    stats.deals_won += 1
    stats.kots += row["court"] in (KOT, GOON_KOT)
    stats.bavneys += row["court"] == BAVNEY
    stats.run_courts += row["court"] == RUN


HAND_FIGURES = {
    "spades": _spades,
    "ohhell": _ohhell,
    "drawbridge": _drawbridge,
    "sixtysix": _sixtysix,
    "partnership_spades": _partnership_spades,
    "courtpiece": _courtpiece,
}
