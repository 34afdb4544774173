"""Tournaments: pairings, seatings and standings.

Pure Python on purpose (no Django import anywhere in this package): plain
data in, plain data out, so the rules can be tested and benchmarked alone.
Player ids can be any hashable values except None, which marks a bye.

Formats
-------

**Round robin** (two-player games, ``round_robin_rounds``). Everybody meets
everybody once (twice in a double round robin), scheduled by the circle
method. With an odd number of players, one player per round has a bye. Seat 1
(who deals or draws first) is balanced: with an odd field every player has as
many seat-1 as seat-2 games, with an even field the two differ by one, and in
a double round robin the second half repeats the first with the seats
swapped. Seats alternate from round to round, with at most one repeat per
player in each half.

**Swiss** (two-player games, ``pair_swiss_round``). Each round pairs players
with the same match points where possible, the top score group first, as a
minimum-cost matching. In order of importance it avoids: a rematch (never
while any pairing without one exists); a second bye for the same player; the
bye going to anyone but the lowest-ranked player who has not had one; pairing
players with different match points; pairing players far apart in the
ranking (so the best plays the next best inside a score group, and the
lowest-ranked player of an odd group is the one who plays a player from the
next group down). Players with equal points are ranked by their seed (a
rating or the registration order). The player who has had seat 1 more often
gets seat 2; with equal counts, seats alternate from the previous round.
Dropped players are simply not paired any more. Fields of more than 64
players are paired in blocks of about 32 from the top down, which keeps a
round of 1,000 players well under a second; the bottom is re-matched (on a
sparse graph, a quick check without weights first) until it pairs without a
rematch with the bye on the lowest-ranked player who can take it.

**Oh Hell** (``table_sizes``, ``plan_seating``, ``planned_round``,
``seat_round``). Every round seats everybody at tables of 3 to 7 players;
table sizes differ by at most one and their average is as close as possible
to the preferred size (4 by default; on a tie, the fewer, bigger tables).
There are never byes, so an Oh Hell event needs at least 3 players. The
number of rounds is known, so the whole event is planned at once
(``plan.py``): fewest repeated table-mates (sum over pairs of max(0, times
together - 1)), then the sum of (times together)². Where a design seats the
field at those table sizes, its rounds come first, every two players
together at most once (``designs.field_design``): in threes a Kirkman
triple system for every field of 3 (mod 6) players up to 207 and most up
to 297 (``kirkman.py``); at fours a resolvable (v, 4, 1) design for every
v = 4 (mod 12) from 16 to 292 players (``quads.py``), and the social
golfers' schedule for 32; at tables of q the
affine geometries AG(m, q) (9, 27, 81, 243 in threes; 16, 64, 256 at fours;
25 and 125 at fives; 49 at sevens: ``affine.py``); a field a few players
short of one of those, the design less them; otherwise, when the number of
tables is a product of large enough prime powers, a resolvable transversal
design, one round per table. An event with fewer rounds plays the design's
first ones. Elsewhere a search: simulated annealing (``anneal.py``), then
the tabu search of Dotú and Van Hentenryck for the social golfer problem
(``tabu.py``) from its plan, keeping it unless it finds a better one (the
annealing alone was the plan before, so no plan is worse than before). The
rounds after a design's are searched by the tabu search; unless the whole
is then at the lower bound, the annealing over the whole event is the
fallback and the better plan is kept. Each round is planned again from the seed and the rounds
played (``planned_round``), following the plan made when the field last
changed while the rounds go as it said; after a drop a design goes on
without the player who left when the tables keep their sizes. Fields over
300 are seated round by round (``seat_round``: the sum over every two
players at a table of (times they met before) squared, greedy start and
swaps). The seating is reproducible: the same players, history and seed
give the same tables and seat order.

Points and tiebreaks
--------------------

Two-player games (Swiss and round robin): a win earns 2 match points, a draw
1, a loss 0, and a bye 2 (a bye counts as a win). Players are ranked by:

1. match points;
2. Buchholz: the sum of the final match points of every opponent played (an
   opponent met twice counts twice);
3. score difference: own game score minus the opponent's, summed over the
   games played;
4. head-to-head: among the players still tied, the match points they scored
   against each other, used only if every two of them have met (otherwise it
   would favour whoever happened to play the others).

Oh Hell, placement points (the default): at each table of k players, place
p (1 is the highest total score) earns 2 * (k - p) / (k - 1) placement
points, 2 for the winner and 0 for the last whatever the table's size, in
equal steps between: 2, 1, 0 at a table of three; 2, 4/3, 2/3, 0 at four;
2, 3/2, 1, 1/2, 0 at five. So a player's points do not depend on the size
of the table the seating chose. Players with the same total share the
places they cover and split those places' points evenly (two tied for
first at four get (2 + 4/3) / 2 = 5/3 each, and place 3/2 each; as the steps
are equal, that is the points of their mean place). Match points are the
sum of placement points, kept exact (fractions; shown rounded, 1.33).
Players are ranked by:

1. match points;
2. total game score over all tables;
3. average place (lower is better).

Oh Hell, total score (``points=TOTAL_SCORE``, the organiser's choice per
event): ranked by total game score over all tables, then average place.

Players tied on everything share the rank, and the next rank is skipped
(1, 2, 2, 4).

Tables not played: a table at which no hand was played (``"played":
False``, e.g. ended by the clock before its first hand) gives nobody
points, a win or a draw: it is no game. In two-player events, as FIDE
treats a double forfeit: 0 points to each, nothing in games played, wins,
draws or losses, Buchholz, score difference or head-to-head, and the two
players have not met, so a Swiss may pair them again (it is no rematch).
In Oh Hell nobody at the table gets placement points, total score, a place
or a game. Its players were still seated in that round (none of them can
have a bye or another table in it).

Byes: a bye gives 2 match points and counts in the byes column, but it is no
game: it adds nothing to the player's Buchholz (there is no opponent, so it
is like a virtual opponent with 0 points), nothing to the score difference
(0 to 0), and plays no part in head-to-head or in games played. The bye
recipient's own match points, bye included, do count in the Buchholz of
everyone they played. Oh Hell has no byes.

Drops: a player who drops keeps every result so far and stays in the
standings, marked as dropped, with their match points and tiebreaks as they
stand; they are not paired or seated again. Their opponents keep the
Buchholz they earned from them (the dropped player's final match points),
their score difference from those games and any head-to-head result. In Oh
Hell, the placement points, total score and places from their tables stay
with everybody who sat there.
"""

from .plan import SeatingPlan, lower_bound, plan_seating, planned_round
from .round_robin import round_robin_rounds
from .seating import pair_counts, seat_round, seating_cost, table_sizes
from .standings import (
    BYE_POINTS,
    DRAW_POINTS,
    LOSS_POINTS,
    OH_HELL_TIEBREAKS,
    TWO_PLAYER_TIEBREAKS,
    WIN_POINTS,
    OhHellRow,
    TwoPlayerRow,
    oh_hell_standings,
    table_places,
    two_player_standings,
)
from .swiss import SwissPairing, SwissPlayer, pair_swiss_round, swiss_players

__all__ = [
    "BYE_POINTS",
    "DRAW_POINTS",
    "LOSS_POINTS",
    "OH_HELL_TIEBREAKS",
    "TWO_PLAYER_TIEBREAKS",
    "WIN_POINTS",
    "OhHellRow",
    "SeatingPlan",
    "SwissPairing",
    "SwissPlayer",
    "TwoPlayerRow",
    "lower_bound",
    "oh_hell_standings",
    "pair_counts",
    "pair_swiss_round",
    "plan_seating",
    "planned_round",
    "round_robin_rounds",
    "seat_round",
    "seating_cost",
    "swiss_players",
    "table_places",
    "table_sizes",
    "two_player_standings",
]
