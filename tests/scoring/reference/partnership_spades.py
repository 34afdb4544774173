"""Reference scorer for Spades in partnerships ("partnership_spades").

Written from RULES.md section 7 (sides as in 1.5, decisions 23-32) as the
tables of 7.3 read, not in the engine's shape; it must not import anything
from scorekeeper. Scores legal matches only: the input is not validated.
"""

from __future__ import annotations

SIDES = [[0, 2], [1, 3]]
NIL_BIDS = {0: 100, "blind_nil": 200}


def score_side(bids, taken, nil_tricks, carried, rule):
    """One side's hand (7.3): (points, contract, made, carried bags, penalty)."""
    nil_players = [n for n, bid in zip(nil_tricks, bids, strict=True) if bid in NIL_BIDS]
    contract = sum(bid for bid in bids if bid not in NIL_BIDS)
    failed = sum(nil_players)
    counting = taken if rule == "contract" else taken - failed
    if counting >= contract:
        points, bags = 10 * contract + counting - contract, counting - contract
    else:
        points, bags = -10 * contract, 0
    for bid, n in zip(bids, nil_tricks, strict=True):
        if bid in NIL_BIDS:
            points += NIL_BIDS[bid] if n == 0 else -NIL_BIDS[bid]
    if rule == "bags":
        points, bags = points + failed, bags + failed
    carried += bags
    penalty = 0
    while carried >= 10:
        carried, penalty = carried - 10, penalty - 100
    made = None if contract == 0 else counting >= contract
    return points + penalty, contract, made, carried, penalty


def blind_nil_allowed(totals, rule):
    if rule == "always":
        return [True, True]
    if rule == "never":
        return [False, False]
    return [totals[1] - totals[0] >= 100, totals[0] - totals[1] >= 100]


def score(match: dict) -> dict:
    options = match.get("options") or {}
    target = options.get("target", 500)
    rule = options.get("failed_nil_tricks", "bags")
    losing = options.get("losing_score")
    totals, bags, rows = [0, 0], [0, 0], []
    for hand in match["hands"]:
        nil_tricks = hand.get("nil_tricks", [None] * 4)
        row = {"points": [], "totals": [], "contract": [], "made": [], "bags": [], "bag_penalty": []}
        for s, seats in enumerate(SIDES):
            points, contract, made, bags[s], penalty = score_side(
                [hand["bids"][i] for i in seats], hand["tricks"][s], [nil_tricks[i] for i in seats], bags[s], rule
            )
            totals[s] += points
            row["points"].append(points)
            row["contract"].append(contract)
            row["made"].append(made)
            row["bags"].append(bags[s])
            row["bag_penalty"].append(penalty)
        row["totals"] = list(totals)
        row["nil_made"] = [n == 0 if b in NIL_BIDS else None for b, n in zip(hand["bids"], nil_tricks, strict=True)]
        rows.append(row)
    # 7.5: a side at the target (or at the losing score) and the totals differ
    ended = max(totals) >= target or (losing is not None and min(totals) <= losing)
    finished = ended and totals[0] != totals[1]
    k = len(rows)
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": finished,
        "winners": [totals.index(max(totals))] if finished else [],
        "next_hand": None
        if finished
        else {
            "number": k + 1,
            "dealer": k % 4,
            "first_bidder": (k + 1) % 4,
            "leader": (k + 1) % 4,
            "blind_nil_allowed": blind_nil_allowed(totals, options.get("blind_nil", "behind_100")),
        },
        "sides": SIDES,
    }
