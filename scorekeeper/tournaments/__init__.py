"""Tournaments, the Django side: ``services`` (every write), ``selectors``
(every read, the standings), ``links`` (the tables' scoring links),
``exports`` (CSV), ``formats`` (which formats fit which game) and
``views``. The pairing, seating and standings rules themselves live in the
pure package ``scorekeeper.pairing``; this package feeds it from the
database and stores what it proposes. Every write runs in one transaction,
locks the row it changes and leaves an ``AuditEvent(tournament=...)``.
Scores always come from the table matches (``Match.totals`` and
``Match.winners``, kept by ``scorekeeper.matches.services`` from the
engine); nothing here types a score in.

Decisions
---------

**Formats.** Games for two (Spades, Draw Bridge, Sixty-Six) are played as a
round robin, a double round robin or a Swiss; games for three or more (Oh
Hell) in seated rounds (tables of 3 to 7, preferred size 4 unless set). A round robin's number of
rounds comes from the field when round 1 is proposed: n - 1 rounds for an
even field, n for an odd one (one bye per round), doubled for a double round
robin. Its schedule is fixed by the entrants at round 1 in registration
order (it is recomputed from that order every round), so a round robin takes
no late entries once round 1 is published.

**Rounds.** The next round is proposed from the pure logic (round robin: the
schedule; Swiss: pairing from the finished results; seated: seating that
avoids repeated meetings, reproducible from the tournament's seed and the
round number), stored as ``Round.proposal`` and reviewed: the organiser may
swap any two players (a player with a bye swaps into a table). Publishing
creates one match per table (players in seat order, the tournament's game
and options, owned by the tournament's owner) and one scoring link per
table. A round cannot be proposed while the previous one is still being
played, nor beyond the planned rounds. A round is complete when every
table's match is finished (or abandoned, which counts as no game); this is
worked out from the matches' status and stored when the organiser opens the
dashboard or starts the next round.

**Ended early.** At the round's time limit the organiser may end a table's
match: it is marked finished as it stands, the hands already completed
count and a hand in progress (bids saved, no tricks) does not. The current
totals decide: the highest total wins; in a two-player game equal totals are
a draw (1 match point each); at an Oh Hell table players with equal totals
share the places they cover (see placement points below). The table shows
"ended early" everywhere; one ended before its first hand shows "not
played" instead (``TableView.not_played``) and is passed to the pure
standings and pairing as ``"played": False``: no game for anybody. Doing
so is allowed at any time during the round (the organiser judges the
clock); it cannot be undone.

**Byes.** Two-player events: a bye gives 2 match points (it counts as a
win) and counts in the byes column, but it is no game: it adds nothing to
the player's Buchholz (there is no opponent, like a virtual opponent with 0
points), nothing to the score difference (0 to 0), and plays no part in
head-to-head or in games played. The bye recipient's own match points, bye
included, do count in the Buchholz of everyone they played. Swiss: the bye
goes to the lowest-ranked player who has not had one. Round robin: the
odd field's scheduled bye, and also the game against an opponent who has
dropped: the remaining player gets a bye in that round. Oh Hell has no
byes. Byes count in the standings as soon as their round is published.

**Drops.** A player who drops keeps every result so far and stays in the
standings, marked as dropped, with their match points and tiebreaks as they
stand; they are not paired or seated again (``Entrant.dropped_after_round``
is the number of rounds published when they dropped: a drop during a round
still plays that round's table). Their opponents keep the Buchholz they
earned from them (the dropped player's final match points), their score
difference from those games and any head-to-head result. In Oh Hell, the
placement points, total score and places from their tables stay with
everybody who sat there. A drop or a late entry while a round is proposed
recomputes the proposal (a swap made on it is lost).

**Late entries.** Swiss and seated events take new players before any round
that has not been published (not while a round is being played); they
start with 0 match points and no byes for the rounds they missed.

**Standings.** Two-player games: win 2, draw 1, loss 0, bye 2; ranked by
match points, then Buchholz (sum of the final match points of every
opponent played), then score difference (own game score minus the
opponent's), then head-to-head among the players still tied (used only if
every two of them have met). Oh Hell (``Tournament.oh_hell_points``, per
event): at a table of k, place p earns 2 * (k - p) / (k - 1) placement
points (2 to 0 at any size); equal totals share the places and split their
points; ranked by match points (placement points), then total game score,
then average place; or ranked by total game score, then average place.
A table not played counts for nobody (see ``scorekeeper.pairing``).
Players tied on everything share the rank (1, 2, 2, 4). Only finished
matches count; matches in progress are shown with live totals but add
nothing.

**Confirmation.** A tournament asks the other side to confirm each hand
(on by default, ``Tournament.confirm_hands``, passed to every table's
match; see ``scorekeeper.matches.confirmation``). A table's result counts
in the standings, in the next round's pairings and in the round's
completion only when its match is over and every hand is confirmed, or
when an organiser accepted it as it is. A result an organiser changed
after it was over is marked "corrected by the organiser".

**Table links.** Each table's match gets a secret scoring link (an
``AccessLink`` on that match only). No token is stored anywhere: each is
worked out from SECRET_KEY, the link's id and its generation
(``access.links``), so the printable table cards show the working links
to any organiser, on any device, at any time. "Issue new links for all
tables" (or for one table) bumps each link's generation: the old tokens
and the devices holding them stop at once. A table's link can also be
revoked. A device with a table's link can score that table's match only,
and only until the table ends (finished, ended early, its round or the
tournament over): from then on only the organisers change its results.
"""
