"""Independent reference scorer for Draw Bridge ("drawbridge").

Written from RULES.md section 3 (output as in 1.2, decisions in 6) without
reading the engine; it must not import anything from scorekeeper. Scores
legal matches only: the input is not validated.
"""

from __future__ import annotations

TRICK_VALUE = {"C": 20, "D": 20, "H": 30, "S": 30}
MULTIPLIER = {"none": 1, "double": 2, "redouble": 4}


def score_hand(hand: dict, undertrick_points: int) -> tuple[list[int], bool | None]:
    """(points, made) for one hand (3.3); made is None for a passed-out hand."""
    points = [0, 0]
    if hand.get("passed_out"):
        return points, None
    need = 6 + hand["level"]
    multiplier = MULTIPLIER[hand.get("double", "none")]
    declarer, tricks = hand["declarer"], hand["tricks"]
    if tricks < need:
        points[1 - declarer] = (need - tricks) * undertrick_points * multiplier
        return points, False
    odd = tricks - 6
    value = 40 + 30 * (odd - 1) if hand["strain"] == "NT" else TRICK_VALUE[hand["strain"]] * odd
    points[declarer] = value * multiplier
    return points, True


def score(match: dict) -> dict:
    options = match.get("options") or {}
    target = options.get("target", 500)
    undertrick_points = options.get("undertrick_points", 50)
    totals = [0, 0]
    rows = []
    for hand in match["hands"]:
        points, made = score_hand(hand, undertrick_points)
        totals = [total + change for total, change in zip(totals, points, strict=True)]
        rows.append({"points": points, "totals": totals, "made": made})
    # 3.5: only one player scores per hand, so at most one reaches the target.
    winners = [i for i in (0, 1) if totals[i] >= target]
    played = len(rows)
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": bool(winners),
        "winners": winners,
        "next_hand": None
        if winners
        else {"number": played + 1, "dealer": played % 2, "first_bidder": played % 2, "leader": (played + 1) % 2},
    }
