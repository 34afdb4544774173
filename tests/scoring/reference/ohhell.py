"""Independent reference scorer for Oh Hell ("ohhell").

Written from RULES.md section 5 (output as in 1.2, decisions in 6) without
reading the engine; it must not import anything from scorekeeper. Scores
legal matches only: the input is not validated.
"""

from __future__ import annotations

LARGEST_HAND = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}


def cards_per_hand(players: int, schedule: str) -> list[int]:
    """Cards dealt to each player in every hand of the schedule (5.1)."""
    largest = LARGEST_HAND[players]
    up = list(range(1, largest + 1))
    down = up[::-1]
    return {"up": up, "down": down, "up_down": up + down[1:], "down_up": down + up[1:]}[schedule]


def trumps_per_hand(players: int, cards: list[int]) -> list[bool]:
    """5.1: no trumps in the last largest hand, nor in a hand that uses the whole pack."""
    last_largest = max(k for k, count in enumerate(cards) if count == LARGEST_HAND[players])
    return [k != last_largest and players * count != 52 for k, count in enumerate(cards)]


def score(match: dict) -> dict:
    options = match.get("options") or {}
    five_plus_cards = options.get("made_bid_score", "ten_plus_tricks") == "five_plus_cards"
    miss_scores_tricks = options.get("miss_scores_tricks", False)
    n = len(match["players"])
    cards = cards_per_hand(n, options.get("schedule", "up"))
    trumps = trumps_per_hand(n, cards)
    totals = [0] * n
    rows = []
    for k, hand in enumerate(match["hands"]):
        made = [bid == tricks for bid, tricks in zip(hand["bids"], hand["tricks"], strict=True)]
        points = [
            (5 + cards[k] if five_plus_cards else 10 + tricks) if hit else (tricks if miss_scores_tricks else 0)
            for hit, tricks in zip(made, hand["tricks"], strict=True)
        ]
        totals = [total + change for total, change in zip(totals, points, strict=True)]
        rows.append({"points": points, "totals": totals, "cards": cards[k], "trumps": trumps[k], "made": made})
    played = len(rows)
    finished = played == len(cards)
    if finished:
        return {
            "hands": rows,
            "totals": list(totals),
            "finished": True,
            "winners": [i for i in range(n) if totals[i] == max(totals)],
            "next_hand": None,
        }
    first = (played + 1) % n
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": False,
        "winners": [],
        "next_hand": {
            "number": played + 1,
            "dealer": played % n,
            "first_bidder": None if options.get("simultaneous_bidding", False) else first,
            "leader": first,
            "cards": cards[played],
            "trumps": trumps[played],
        },
    }
