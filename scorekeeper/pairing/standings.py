"""Standings from finished results, for two-player events and Oh Hell.

Plain data in (lists of dicts), rows out (dataclasses), best first. The
points and the tiebreak order are described in the package docstring
(``scorekeeper/pairing/__init__.py``); this module is their one
implementation.

Rows with the same rank are in the order the players first appear in the
input (``players`` if given, else the results), so pass ``players`` in
display order (e.g. by name) to get a stable, readable table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, NamedTuple

WIN_POINTS = 2
DRAW_POINTS = 1
LOSS_POINTS = 0
BYE_POINTS = 2  # a bye counts as a win

TWO_PLAYER_TIEBREAKS = ("buchholz", "score_difference", "head_to_head")

# Oh Hell: what the organiser chose to rank by, and the tiebreaks of each.
PLACEMENT, TOTAL_SCORE = "placement", "total_score"
OH_HELL_POINTS = (PLACEMENT, TOTAL_SCORE)
OH_HELL_TIEBREAKS = ("total_score", "average_place")
TOTAL_SCORE_TIEBREAKS = ("average_place",)


@dataclass(frozen=True, slots=True)
class TwoPlayerRow:
    """One line of a two-player standings table.

    ``tiebreaks`` holds the values in tiebreak order (see
    ``TWO_PLAYER_TIEBREAKS``); ``head_to_head`` is the player's points in the
    mini-table of the players tied with them on everything before it, or
    None when it was not used. ``games_played`` counts neither byes nor
    tables that were not played.
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
    """One line of an Oh Hell standings table.

    ``match_points`` is the sum of placement points (an exact Fraction),
    or the total game score when the event ranks by total score; the
    ``tiebreaks`` are ``OH_HELL_TIEBREAKS`` or ``TOTAL_SCORE_TIEBREAKS``
    accordingly. ``average_place`` (a Fraction) is None for a player
    without a table played yet.
    """

    rank: int
    player_id: Hashable
    match_points: Any
    tiebreaks: dict[str, Any]
    games_played: int
    dropped: bool = False


# ------------------------------------------------------------------ parsing


class TwoPlayerGame(NamedTuple):
    """One checked game (a tuple: cheap to build thousands of)."""

    round: Any
    a: Hashable  # seat 1
    b: Hashable  # seat 2
    score_a: float
    score_b: float
    winner: Hashable | None  # a, b or None for a draw
    played: bool = True  # False: nobody played a hand there, it is no game


@dataclass
class TwoPlayerData:
    """Checked two-player input: players in first-appearance order."""

    order: list
    games: list[TwoPlayerGame]
    byes: list[tuple[Any, Hashable]]  # (round, player)
    dropped: dict[Hashable, Any]  # player -> round of the drop (None if not given)


def _fields(item: Any, keys: tuple[str, ...], what: str) -> list:
    """The values of ``keys`` in ``item``, or a plain error."""
    try:
        return [item[key] for key in keys]
    except (KeyError, TypeError, IndexError):
        if not isinstance(item, Mapping):
            raise ValueError(f"{what} must be a dict, got {item!r}") from None
        missing = next(key for key in keys if key not in item)
        raise ValueError(f'{what} needs "{missing}": {dict(item)!r}') from None


def _check_once_per_round(per_round: dict[Any, list]) -> None:
    """Each player at most once per round, whatever the format."""
    for rnd, ids in per_round.items():
        if len(set(ids)) != len(ids):
            seen: set = set()
            for pid in ids:
                if pid in seen:
                    raise ValueError(f"Round {rnd}: player {pid!r} appears more than once")
                seen.add(pid)


def _played(item: Any) -> bool:
    """``"played": False`` marks a table at which no hand was played."""
    played = item.get("played", True) if hasattr(item, "get") else True  # not a dict: _fields says so
    if type(played) is not bool:
        raise ValueError(f'"played" must be true or false, got {played!r}')
    return played


def _parse_drops(drops: Iterable) -> dict[Hashable, Any]:
    """A drop is a player id or a dict {"player": id, "round": n}."""
    dropped: dict[Hashable, Any] = {}
    for item in drops:
        if isinstance(item, Mapping):
            (pid,) = _fields(item, ("player",), "A drop")
            dropped[pid] = item.get("round")
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
    per_round: dict[Any, list] = {}
    games = []
    for item in results:
        played = _played(item)
        if played:
            rnd, a, b, winner = _fields(item, ("round", "a", "b", "winner"), "A result")
        else:
            (rnd, a, b), winner = _fields(item, ("round", "a", "b"), "A result"), item.get("winner")
            if winner is not None:
                raise ValueError(f"Round {rnd}: a game not played has no winner, got {winner!r}")
        if a is None or b is None:
            raise ValueError(f"Round {rnd}: a game needs two players; record a bye as a bye")
        if a == b:
            raise ValueError(f"Round {rnd}: player {a!r} cannot play themselves")
        if winner is not None and winner != a and winner != b:
            raise ValueError(f"Round {rnd}: the winner {winner!r} did not play in the game {a!r} v {b!r}")
        in_round = per_round.get(rnd)
        if in_round is None:
            in_round = per_round[rnd] = []
        in_round += (a, b)
        order.setdefault(a)
        order.setdefault(b)
        if played:
            games.append(TwoPlayerGame(rnd, a, b, item.get("score_a") or 0, item.get("score_b") or 0, winner))
        else:  # its scores, if any, are not used
            games.append(TwoPlayerGame(rnd, a, b, 0, 0, None, played=False))
    bye_list = []
    for item in byes:
        rnd, pid = _fields(item, ("round", "player"), "A bye")
        per_round.setdefault(rnd, []).append(pid)
        order.setdefault(pid)
        bye_list.append((rnd, pid))
    _check_once_per_round(per_round)
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
    ``winner`` one of a, b or None for a draw (scores default to 0), and
    ``"played": False`` for a table at which no hand was played: no game,
    nothing counts (the pair has not met);
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
    earned: list[list[int]] = [[] for _ in range(n)]  # match points per game, beside opponents

    for _, ga, gb, score_a, score_b, winner, played in data.games:
        if not played:
            continue
        a, b = index[ga], index[gb]
        opponents[a].append(b)
        opponents[b].append(a)
        diff[a] += score_a - score_b
        diff[b] += score_b - score_a
        if winner is None:
            pa = pb = DRAW_POINTS
            draws[a] += 1
            draws[b] += 1
        elif winner == ga:
            pa, pb = WIN_POINTS, LOSS_POINTS
            wins[a] += 1
            losses[b] += 1
        else:
            pa, pb = LOSS_POINTS, WIN_POINTS
            wins[b] += 1
            losses[a] += 1
        points[a] += pa
        points[b] += pb
        earned[a].append(pa)
        earned[b].append(pb)
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
            mini = _mini_table(members, opponents, earned)
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


def _mini_table(members: list[int], opponents: list[list[int]], earned: list[list[int]]) -> list[int] | None:
    """Match points among the tied players only, or None unless every two of
    them have met (otherwise the mini-table would favour whoever happened to
    play the others)."""
    group = set(members)
    mini = []
    for k in members:
        met = set()
        total = 0
        for opp, pts in zip(opponents[k], earned[k], strict=True):
            if opp in group:
                met.add(opp)
                total += pts
        if len(met) != len(group) - 1:
            return None
        mini.append(total)
    return mini


# ------------------------------------------------------------------ Oh Hell


def table_places(totals: list[float]) -> list[tuple[Fraction, Fraction]]:
    """(placement points, place) for each seat of one table, exactly.

    Place p of k (1-based) earns 2 * (k - p) / (k - 1): 2 for the winner
    and 0 for the last at any size. Tied totals share the places they cover
    and split those places' points evenly; the points fall in equal steps,
    so that is the points of the mean place: two tied for first at four
    get (2 + 4/3) / 2 = 5/3 each and place 3/2 each.
    """
    k = len(totals)
    # 2 * (k - place) / (k - 1), with the place doubled
    return [(Fraction(2 * k - place2, k - 1), Fraction(place2, 2)) for place2 in _places2(totals)]


def _places2(totals: list[float]) -> list[int]:
    """Each seat's place, doubled: the mean of consecutive places is always
    a multiple of 1/2, so integers keep the sums exact and fast."""
    k = len(totals)
    by_total = sorted(range(k), key=totals.__getitem__, reverse=True)
    out = [0] * k
    start = 0
    while start < k:
        end = start
        while end + 1 < k and totals[by_total[end + 1]] == totals[by_total[start]]:
            end += 1
        for i in by_total[start : end + 1]:
            out[i] = start + end + 2  # places start+1 .. end+1, mean doubled
        start = end + 1
    return out


def oh_hell_standings(
    results: Iterable[Mapping],
    drops: Iterable = (),
    players: Iterable[Hashable] | None = None,
    points: str = PLACEMENT,
) -> list[OhHellRow]:
    """Standings of an Oh Hell event from its finished tables.

    ``results``: {"round", "table", "players": [ids], "totals": [scores]},
    with ``"played": False`` (and no totals needed) for a table at which no
    hand was played: nothing counts there for anybody; ``drops``: ids or
    {"player", "round"}; ``players``: optional registered players (also the
    display order of ties); ``points``: ``PLACEMENT`` (placement points,
    then total score, then average place) or ``TOTAL_SCORE`` (total score,
    then average place).
    """
    if points not in OH_HELL_POINTS:
        raise ValueError(f"points must be one of {OH_HELL_POINTS}, got {points!r}")
    order: dict[Hashable, None] = dict.fromkeys(players) if players is not None else {}
    per_round: dict[Any, list] = {}
    tables = []
    for item in results:
        played = _played(item)
        rnd, ids = _fields(item, ("round", "players"), "A table result")
        ids = list(ids)
        where = f"Round {rnd}, table {item.get('table', '?')}"
        if len(ids) < 2:
            raise ValueError(f"{where}: a table needs at least 2 players, got {len(ids)}")
        if played:
            (totals,) = _fields(item, ("totals",), "A table result")
            totals = list(totals)
            if len(ids) != len(totals):
                raise ValueError(f"{where}: {len(ids)} players but {len(totals)} totals")
            tables.append((ids, totals))
        per_round.setdefault(rnd, []).extend(ids)  # seated that round, played or not
        for pid in ids:
            order.setdefault(pid)
    _check_once_per_round(per_round)
    dropped = _parse_drops(drops)
    for pid in dropped:
        order.setdefault(pid)

    pids = list(order)
    index = {pid: k for k, pid in enumerate(pids)}
    n = len(pids)
    # Placement points in units of 1/unit, unit a multiple of every k - 1:
    # integers, so sums and comparisons are exact and quick.
    unit = lcm(*(len(ids) - 1 for ids, _ in tables))
    placement = [0] * n
    score = [0] * n
    place2_sum = [0] * n  # sum of places, doubled
    games = [0] * n
    for ids, totals in tables:
        k = len(ids)
        step = unit // (k - 1)
        for pid, total, place2 in zip(ids, totals, _places2(totals), strict=True):
            i = index[pid]
            placement[i] += (2 * k - place2) * step  # 2 * (k - place) / (k - 1), in units
            score[i] += total
            place2_sum[i] += place2
            games[i] += 1

    # Sorted on floats: average places are fractions with small denominators
    # (twice the tables played), so equal ones divide to the same float and
    # different ones are far apart; the rows get them exact.
    no_games = float("inf")  # players without a table sort last on average place
    avg = [place2_sum[i] / (2 * games[i]) if games[i] else no_games for i in range(n)]
    if points == PLACEMENT:
        keys = [(-placement[i], -score[i], avg[i]) for i in range(n)]
    else:
        keys = [(-score[i], avg[i]) for i in range(n)]
    ranked = sorted(range(n), key=keys.__getitem__)  # stable: ties keep first appearance
    ranks = _competition_ranks([keys[i] for i in ranked])
    exact: dict[tuple[int, int], Fraction] = {}  # players share few values: make each Fraction once

    def fraction(top: int, bottom: int) -> Fraction:
        value = exact.get((top, bottom))
        if value is None:
            value = exact[top, bottom] = Fraction(top, bottom)
        return value

    rows = []
    for rank, i in zip(ranks, ranked, strict=True):
        average = fraction(place2_sum[i], 2 * games[i]) if games[i] else None
        if points == PLACEMENT:
            shown = fraction(placement[i], unit)
            tiebreaks = {"total_score": score[i], "average_place": average}
        else:
            shown, tiebreaks = score[i], {"average_place": average}
        rows.append(
            OhHellRow(
                rank=rank,
                player_id=pids[i],
                match_points=shown,
                tiebreaks=tiebreaks,
                games_played=games[i],
                dropped=pids[i] in dropped,
            )
        )
    return rows
