"""Independent reference scorer for Spades for two ("spades").

Written from RULES.md section 2 (output as in 1.2, decisions in 6) without
reading the engine; it must not import anything from scorekeeper. Scores
legal matches only: the input is not validated.
"""

from __future__ import annotations

BLIND_NIL = "blind_nil"


def score_player(bid: int | str, tricks: int, bags: int, failed_nil_bags: bool) -> tuple[int, int, int]:
    """One player's hand (2.3): (points including the bag penalty, carried bags, bag penalty)."""
    if bid in (0, BLIND_NIL):
        value = 200 if bid == BLIND_NIL else 100
        if tricks == 0:
            points, new_bags = value, 0
        elif failed_nil_bags:
            points, new_bags = tricks - value, tricks
        else:
            points, new_bags = -value, 0
    elif tricks >= bid:
        points, new_bags = 10 * bid + tricks - bid, tricks - bid
    else:
        points, new_bags = -10 * bid, 0
    bags += new_bags
    penalty = -100 * (bags // 10)
    return points + penalty, bags % 10, penalty


def score(match: dict) -> dict:
    options = match.get("options") or {}
    target = options.get("target", 500)
    failed_nil_bags = options.get("failed_nil_bags", False)
    totals, bags = [0, 0], [0, 0]
    rows = []
    for hand in match["hands"]:
        results = [score_player(hand["bids"][i], hand["tricks"][i], bags[i], failed_nil_bags) for i in (0, 1)]
        points = [points for points, _, _ in results]
        bags = [carried for _, carried, _ in results]
        totals = [total + change for total, change in zip(totals, points, strict=True)]
        rows.append(
            {"points": points, "totals": totals, "bags": bags, "bag_penalty": [penalty for _, _, penalty in results]}
        )
    # 2.5: the single highest total at or above the target wins; a tie there plays on.
    leaders = [i for i in (0, 1) if totals[i] == max(totals)]
    finished = max(totals) >= target and len(leaders) == 1
    played = len(rows)
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": finished,
        "winners": leaders if finished else [],
        "next_hand": None
        if finished
        else {
            "number": played + 1,
            "first_drawer": played % 2,
            "first_bidder": (played + 1) % 2,
            "leader": (played + 1) % 2,
        },
    }
