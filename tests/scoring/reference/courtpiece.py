"""Reference scorer for Court Piece ("courtpiece").

Written from RULES.md section 8 (sides as in 1.5, decisions 33-46): the
tables of 8.1 and 8.3 read row by row, not in the engine's shape; it must
not import anything from scorekeeper. Scores legal matches only: the input
is not validated.
"""

from __future__ import annotations


def next_dealer(dealer: int, callers_won: bool, court_scored: bool) -> int:
    """The table of 8.1."""
    if not callers_won:
        return (dealer + 1) % 4
    return (dealer + 2) % 4 if court_scored else dealer


def score(match: dict) -> dict:
    options = match.get("options") or {}
    target = options.get("target", 2)
    deals = options.get("deals")
    deal_run = options.get("deal_run", 7)
    values = {"bavney": options.get("bavney", 52), "kot": 1, "goon_kot": options.get("goon_kot", 1), "run": 1}
    dealer, totals, won, run, rows = 0, [0, 0], [0, 0], [0, 0], []
    for hand in match["hands"]:
        winner, entered = hand["winner"], hand.get("court", "none")
        caller = (dealer + 1) % 4
        callers_won = caller % 2 == winner
        kind = None
        if entered == "all13":
            kind = "bavney"
        elif entered == "first7":
            kind = "kot" if callers_won else "goon_kot"
        else:
            run = [run[0] + 1, 0] if winner == 0 else [0, run[1] + 1]
            if deal_run > 0 and run[winner] == deal_run:
                kind = "run"
        if kind is not None:
            run = [0, 0]
        points = [0, 0]
        points[winner] = values[kind] if kind else 0
        won[winner] += 1
        totals = [totals[0] + points[0], totals[1] + points[1]]
        rows.append(
            {
                "points": points,
                "totals": totals,
                "dealer": dealer,
                "caller": caller,
                "winner": winner,
                "court": kind,
                "deals_won": list(won),
                "run": list(run),
            }
        )
        dealer = next_dealer(dealer, callers_won, kind is not None)
    winners = []
    if target is not None and max(totals) >= target:
        winners = [totals.index(max(totals))]
    elif deals is not None and len(rows) >= deals:
        if totals[0] != totals[1]:
            winners = [totals.index(max(totals))]
        elif won[0] != won[1]:
            winners = [won.index(max(won))]
    finished = bool(winners)
    caller = (dealer + 1) % 4
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": finished,
        "winners": winners,
        "next_hand": None
        if finished
        else {"number": len(rows) + 1, "dealer": dealer, "caller": caller, "leader": caller},
        "sides": [[0, 2], [1, 3]],
    }
