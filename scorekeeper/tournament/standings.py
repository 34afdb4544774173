"""Standings from finished results, for two-player events and Oh Hell.

Plain data in (lists of dicts), rows out (dataclasses), best first. The
points and the tiebreak order are described in the package docstring
(``scorekeeper/tournament/__init__.py``); this module is their one
implementation.

Rows with the same rank are in the order the players first appear in the
input (``players`` if given, else the results), so pass ``players`` in
display order (e.g. by name) to get a stable, readable table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

WIN_POINTS = 2
DRAW_POINTS = 1
LOSS_POINTS = 0
BYE_POINTS = 2  # a bye counts as a win

TWO_PLAYER_TIEBREAKS = ("buchholz", "score_difference", "head_to_head")
OH_HELL_TIEBREAKS = ("total_score", "average_place")


@dataclass(frozen=True, slots=True)
class TwoPlayerRow:
    """One line of a two-player standings table.

    ``tiebreaks`` holds the values in tiebreak order (see
    ``TWO_PLAYER_TIEBREAKS``); ``head_to_head`` is the player's points in the
    mini-table of the players tied with them on everything before it, or
    None when it was not used. ``games_played`` does not count byes.
    """

    rank: int
    player_id: Hashable
    match_points: int
    tiebreaks: dict[str, Any]
    games_played: int
    wins: int
    draws: int
    losses: int
    byes: int
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class OhHellRow:
    """One line of an Oh Hell standings table (``OH_HELL_TIEBREAKS``).

    ``average_place`` is None for a player without a table yet.
    """

    rank: int
    player_id: Hashable
    match_points: float
    tiebreaks: dict[str, Any]
    games_played: int
    dropped: bool = False


# ------------------------------------------------------------------ parsing


@dataclass(frozen=True, slots=True)
class TwoPlayerGame:
    round: Any
    a: Hashable  # seat 1
    b: Hashable  # seat 2
    score_a: float
    score_b: float
    winner: Hashable | None  # a, b or None for a draw


@dataclass
class TwoPlayerData:
    """Checked two-player input: players in first-appearance order."""

    order: list
    games: list[TwoPlayerGame]
    byes: list[tuple[Any, Hashable]]  # (round, player)
    dropped: dict[Hashable, Any]  # player -> round of the drop (None if not given)


def _need(item: Any, keys: tuple[str, ...], what: str) -> None:
    if not isinstance(item, Mapping):
        raise ValueError(f"{what} must be a dict, got {item!r}")
    for key in keys:
        if key not in item:
            raise ValueError(f'{what} needs "{key}": {dict(item)!r}')


class _RoundCheck:
    """Each player at most once per round, whatever the format."""

    def __init__(self) -> None:
        self.seen: set[tuple[Any, Hashable]] = set()

    def add(self, rnd: Any, pid: Hashable) -> None:
        if (rnd, pid) in self.seen:
            raise ValueError(f"Round {rnd}: player {pid!r} appears more than once")
        self.seen.add((rnd, pid))


def _parse_drops(drops: Iterable) -> dict[Hashable, Any]:
    """A drop is a player id or a dict {"player": id, "round": n}."""
    dropped: dict[Hashable, Any] = {}
    for item in drops:
        if isinstance(item, Mapping):
            _need(item, ("player",), "A drop")
            dropped[item["player"]] = item.get("round")
        else:
            dropped[item] = None
    return dropped


def parse_two_player(
    results: Iterable[Mapping],
    byes: Iterable[Mapping] = (),
    drops: Iterable = (),
    players: Iterable[Hashable] | None = None,
) -> TwoPlayerData:
    """Check the input of a two-player event (also used by the Swiss pairing)."""
    order: dict[Hashable, None] = dict.fromkeys(players) if players is not None else {}
    check = _RoundCheck()
    games = []
    for item in results:
        _need(item, ("round", "a", "b", "winner"), "A result")
        rnd, a, b, winner = item["round"], item["a"], item["b"], item["winner"]
        if a is None or b is None:
            raise ValueError(f"Round {rnd}: a game needs two players; record a bye as a bye")
        if a == b:
            raise ValueError(f"Round {rnd}: player {a!r} cannot play themselves")
        if winner is not None and winner != a and winner != b:
            raise ValueError(f"Round {rnd}: the winner {winner!r} did not play in the game {a!r} v {b!r}")
        check.add(rnd, a)
        check.add(rnd, b)
        order.setdefault(a)
        order.setdefault(b)
        games.append(TwoPlayerGame(rnd, a, b, item.get("score_a", 0) or 0, item.get("score_b", 0) or 0, winner))
    bye_list = []
    for item in byes:
        _need(item, ("round", "player"), "A bye")
        rnd, pid = item["round"], item["player"]
        check.add(rnd, pid)
        order.setdefault(pid)
        bye_list.append((rnd, pid))
    dropped = _parse_drops(drops)
    for pid in dropped:
        order.setdefault(pid)
    return TwoPlayerData(order=list(order), games=games, byes=bye_list, dropped=dropped)


def _competition_ranks(keys: list[tuple]) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4) of already sorted keys."""
    ranks = []
    for k, key in enumerate(keys):
        ranks.append(ranks[-1] if k and key == keys[k - 1] else k + 1)
    return ranks


# --------------------------------------------------------------- two-player


def two_player_standings(
    results: Iterable[Mapping],
    byes: Iterable[Mapping] = (),
    drops: Iterable = (),
    players: Iterable[Hashable] | None = None,
) -> list[TwoPlayerRow]:
    """Standings of a two-player event (Swiss or round robin).

    ``results``: {"round", "a", "b", "score_a", "score_b", "winner"} with
    ``winner`` one of a, b or None for a draw (scores default to 0);
    ``byes``: {"round", "player"}; ``drops``: ids or {"player", "round"};
    ``players``: optional registered players (also the display order of ties).
    """
    data = parse_two_player(results, byes, drops, players)
    index = {pid: k for k, pid in enumerate(data.order)}
    n = len(data.order)
    points = [0] * n
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    bye_count = [0] * n
    diff = [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    # games between two players: list of winner indexes (None = draw)
    meetings: dict[tuple[int, int], list[int | None]] = {}

    for g in data.games:
        a, b = index[g.a], index[g.b]
        opponents[a].append(b)
        opponents[b].append(a)
        diff[a] += g.score_a - g.score_b
        diff[b] += g.score_b - g.score_a
        if g.winner is None:
            points[a] += DRAW_POINTS
            points[b] += DRAW_POINTS
            draws[a] += 1
            draws[b] += 1
            w = None
        else:
            w, lo = (a, b) if g.winner == g.a else (b, a)
            points[w] += WIN_POINTS
            points[lo] += LOSS_POINTS
            wins[w] += 1
            losses[lo] += 1
        meetings.setdefault((min(a, b), max(a, b)), []).append(w)
    for _, pid in data.byes:
        k = index[pid]
        points[k] += BYE_POINTS
        bye_count[k] += 1

    # a bye has no opponent, so it adds nothing to Buchholz
    buchholz = [sum(points[o] for o in opponents[k]) for k in range(n)]

    groups: dict[tuple, list[int]] = {}
    for k in range(n):
        groups.setdefault((points[k], buchholz[k], diff[k]), []).append(k)
    h2h: list[int | None] = [None] * n
    for members in groups.values():
        if len(members) > 1:
            mini = _mini_table(members, meetings)
            if mini is not None:
                for k, value in zip(members, mini, strict=True):
                    h2h[k] = value

    order = sorted(range(n), key=lambda k: (-points[k], -buchholz[k], -diff[k], -(h2h[k] or 0), k))
    keys = [(points[k], buchholz[k], diff[k], h2h[k] or 0) for k in order]
    ranks = _competition_ranks(keys)
    return [
        TwoPlayerRow(
            rank=rank,
            player_id=data.order[k],
            match_points=points[k],
            tiebreaks={"buchholz": buchholz[k], "score_difference": diff[k], "head_to_head": h2h[k]},
            games_played=wins[k] + draws[k] + losses[k],
            wins=wins[k],
            draws=draws[k],
            losses=losses[k],
            byes=bye_count[k],
            dropped=data.order[k] in data.dropped,
        )
        for rank, k in zip(ranks, order, strict=True)
    ]


def _mini_table(members: list[int], meetings: dict[tuple[int, int], list[int | None]]) -> list[int] | None:
    """Match points among the tied players only, or None unless every two of
    them have met (otherwise the mini-table would favour whoever happened to
    play the others)."""
    mini = dict.fromkeys(members, 0)
    for x, a in enumerate(members):
        for b in members[x + 1 :]:
            games = meetings.get((min(a, b), max(a, b)))
            if not games:
                return None
            for w in games:
                if w is None:
                    mini[a] += DRAW_POINTS
                    mini[b] += DRAW_POINTS
                else:
                    mini[w] += WIN_POINTS
    return [mini[k] for k in members]


# ------------------------------------------------------------------ Oh Hell


def table_places(totals: list[float]) -> list[tuple[float, float]]:
    """(placement points, place) for each seat of one table.

    Place p of k (1-based) earns k - p points. Tied totals share the places
    they cover and split those places' points evenly, so two tied for first
    at four get (3 + 2) / 2 = 2.5 each and place 1.5 each.
    """
    return [(pts / 2, place / 2) for pts, place in _table_places_x2(totals)]


def _table_places_x2(totals: list[float]) -> list[tuple[int, int]]:
    """``table_places`` in half units: the mean of consecutive places is
    always a multiple of 1/2, so integers keep the sums exact and fast."""
    k = len(totals)
    by_total = sorted(range(k), key=lambda i: -totals[i])
    out = [(0, 0)] * k
    start = 0
    while start < k:
        end = start
        while end + 1 < k and totals[by_total[end + 1]] == totals[by_total[start]]:
            end += 1
        place2 = start + end + 2  # places start+1 .. end+1, mean doubled
        for i in by_total[start : end + 1]:
            out[i] = (2 * k - place2, place2)
        start = end + 1
    return out


def oh_hell_standings(
    results: Iterable[Mapping],
    drops: Iterable = (),
    players: Iterable[Hashable] | None = None,
) -> list[OhHellRow]:
    """Standings of an Oh Hell event from its finished tables.

    ``results``: {"round", "table", "players": [ids], "totals": [scores]};
    ``drops``: ids or {"player", "round"}; ``players``: optional registered
    players (also the display order of ties).
    """
    order: dict[Hashable, None] = dict.fromkeys(players) if players is not None else {}
    check = _RoundCheck()
    tables = []
    for item in results:
        _need(item, ("round", "players", "totals"), "A table result")
        rnd, ids, totals = item["round"], list(item["players"]), list(item["totals"])
        where = f"Round {rnd}, table {item.get('table', '?')}"
        if len(ids) != len(totals):
            raise ValueError(f"{where}: {len(ids)} players but {len(totals)} totals")
        if len(ids) < 2:
            raise ValueError(f"{where}: a table needs at least 2 players, got {len(ids)}")
        for pid in ids:
            check.add(rnd, pid)
            order.setdefault(pid)
        tables.append((ids, totals))
    dropped = _parse_drops(drops)
    for pid in dropped:
        order.setdefault(pid)

    pids = list(order)
    index = {pid: k for k, pid in enumerate(pids)}
    n = len(pids)
    points2 = [0] * n  # half points
    score = [0] * n
    place2_sum = [0] * n  # sum of places, doubled
    games = [0] * n
    for ids, totals in tables:
        for pid, total, (pts2, place2) in zip(ids, totals, _table_places_x2(totals), strict=True):
            k = index[pid]
            points2[k] += pts2
            score[k] += total
            place2_sum[k] += place2
            games[k] += 1

    # exact averages for the comparison; players without a table sort last
    avg = [Fraction(place2_sum[k], 2 * games[k]) if games[k] else None for k in range(n)]
    no_games = Fraction(10**9)

    def key(k: int) -> tuple:
        return (-points2[k], -score[k], avg[k] if avg[k] is not None else no_games)

    ranked = sorted(range(n), key=lambda k: (key(k), k))
    ranks = _competition_ranks([key(k) for k in ranked])
    return [
        OhHellRow(
            rank=rank,
            player_id=pids[k],
            match_points=points2[k] / 2,
            tiebreaks={"total_score": score[k], "average_place": float(avg[k]) if avg[k] is not None else None},
            games_played=games[k],
            dropped=pids[k] in dropped,
        )
        for rank, k in zip(ranks, ranked, strict=True)
    ]
