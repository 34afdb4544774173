"""Round robin schedules for two-player games, by the circle method.

A round is a list of pairs ``(seat1, seat2)``; seat 1 deals (or draws)
first. In an odd field one player per round has a bye, written
``(player, None)`` and listed last.

Seats: every pair is oriented by a "cyclic" rule (circle player ``p`` takes
seat 1 against the next (M-1)/2 players round the circle, seat 2 against the
others), which gives every player the same number of seat-1 and seat-2 games
up to the one game against the fixed player. The fixed player alternates
seats round by round. The rounds are played in the order that makes every
circle player's seat alternate, with at most one repeat (around the game
against the fixed player), as in the Berger tables used in chess. So:

* odd field: every player has exactly as many seat-1 as seat-2 games;
* even field: every player's counts differ by one (an odd number of games);
* double round robin: the second half repeats the first with seats swapped,
  so every pair meets once in each order and all counts are equal.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Pair = tuple[Hashable, Hashable | None]


def round_robin_rounds(player_ids: Sequence[Hashable], double: bool = False) -> list[list[Pair]]:
    """All rounds of a (double) round robin; fewer than two players need none.

    ``player_ids`` must be distinct; their order only decides who gets which
    schedule line, so pass them in seeding order if that matters to you.
    """
    players = list(player_ids)
    if len(set(players)) != len(players):
        raise ValueError("Every player can be in the round robin only once")
    if None in players:
        raise ValueError("None cannot be a player id: it marks the bye")
    if len(players) < 2:
        return []

    # M circle players 0..M-1 (M odd) plus one fixed player; in an odd field
    # the fixed "player" is the bye.
    odd = len(players) % 2 == 1
    circle = players if odd else players[:-1]
    fixed = None if odd else players[-1]
    m = len(circle)
    half = (m - 1) // 2
    # Slot s pairs p with q where p + q = step * s (mod M). With step = (M-1)/2
    # the difference q - p moves by (M-1)/2 from one slot to the next, which
    # flips it between the low and the high half: the seats alternate.
    step = half % m if m > 1 else 0

    rounds: list[list[Pair]] = []
    for s in range(m):
        target = (step * s) % m
        games: list[Pair] = []
        bye: Pair | None = None
        seen: set[int] = set()
        for p in range(m):
            if p in seen:
                continue
            q = (target - p) % m
            seen.update((p, q))
            if p == q:  # p meets the fixed player (or has the bye)
                if fixed is None:
                    bye = (circle[p], None)
                elif s % 2 == 0:
                    games.append((fixed, circle[p]))
                else:
                    games.append((circle[p], fixed))
                continue
            # cyclic rule: p sits first when q is 1..(M-1)/2 places after p
            if 1 <= (q - p) % m <= half:
                games.append((circle[p], circle[q]))
            else:
                games.append((circle[q], circle[p]))
        if bye is not None:
            games.append(bye)
        rounds.append(games)

    if double:
        rounds += [[(b, a) if b is not None else (a, b) for a, b in games] for games in rounds]
    return rounds
