"""Ratings per game with OpenSkill: pure Python, no Django.

Ratings are derived, never stored: they are worked out from every finished
match of a game in the order the matches ended, so after an edit, a
correction or a restored hand they are always what a fresh recomputation
gives (the app caches the result under a stamp of the game's results).

Model: Bradley-Terry with full pairing (``BradleyTerryFull``). It rates a
table as every pair of players at it, each pair a win, a loss or a draw, so
an Oh Hell table's shared place is a draw between those two and a win over
everyone below: two players sharing first gain the same, less than an
outright winner and more than a second place (tests/stats/test_ratings.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import BradleyTerryFull

from . import places

MIN_MATCHES = 5  # on the leaderboard only after this many rated matches


@dataclass(frozen=True)
class Result:
    """A finished match: who sat where (keys in seat order) and the final
    totals; ``winners`` as the app recorded them (a two-player match with
    no winner is a draw)."""

    seat_keys: tuple
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    # A game with partnerships: the seats of each side, rated as a team of
    # two (``totals`` and ``winners`` are then per side). Empty: each player alone.
    sides: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class Rating:
    key: object
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        """The conservative figure shown: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def ranks(result: Result) -> list[float]:
    """1 is best; equal figures are a shared place."""
    if len(result.seat_keys) == 2 or result.sides:
        if not result.winners or len(result.winners) == 2:
            return [1, 1]
        return [1 if unit in result.winners else 2 for unit in range(2)]
    return places(result.totals)


def rate(results: list[Result]) -> dict[object, Rating]:
    """Every player's rating after ``results``, in the order given."""
    model = BradleyTerryFull()
    current: dict[object, object] = {}
    played: dict[object, int] = {}
    for result in results:
        units = result.sides or tuple((seat,) for seat in range(len(result.seat_keys)))
        keys = [[result.seat_keys[seat] for seat in unit] for unit in units]
        teams = [[current.get(key) or model.rating(name=str(key)) for key in team] for team in keys]
        rated = model.rate(teams, ranks=ranks(result))
        for team, ratings in zip(keys, rated, strict=True):
            for key, rating in zip(team, ratings, strict=True):
                current[key] = rating
                played[key] = played.get(key, 0) + 1
    return {key: Rating(key, r.mu, r.sigma, played[key]) for key, r in current.items()}


def leaderboard(ratings: dict[object, Rating], minimum: int = MIN_MATCHES) -> list[Rating]:
    """Players with at least ``minimum`` rated matches, best ordinal first."""
    shown = [r for r in ratings.values() if r.matches >= minimum]
    return sorted(shown, key=lambda r: (-r.ordinal, str(r.key)))
