"""Independent reference scorer for Sixty-Six ("sixtysix").

Written from RULES.md section 4 (output as in 1.2, decisions in 6) without
reading the engine; it must not import anything from scorekeeper. Scores
legal matches only: the input is not validated.
"""

from __future__ import annotations


def scale(loser_points: int, loser_took_trick: bool) -> int:
    """Game points against a loser (4.3): 3 without a trick, 2 under 33, else 1."""
    if not loser_took_trick:
        return 3
    return 2 if loser_points < 33 else 1


def deal_result(hand: dict) -> tuple[int | None, int]:
    """(winner or None for a draw, game points) of one deal (4.3)."""
    end, player, points = hand["end"], hand["player"], hand["points"]
    opponent = 1 - player
    took_trick = hand["opponent_took_trick"]
    if end == "out":
        if points[player] >= 66:
            return player, scale(points[opponent], took_trick)
        return opponent, 2 if took_trick else 3
    if end == "closed":
        if not hand.get("opponent_claimed", False) and points[player] >= 66:
            return player, scale(points[opponent], took_trick)
        return opponent, 2 if hand["opponent_trick_at_close"] else 3
    if points[0] == points[1]:
        return None, 0
    winner = 0 if points[0] > points[1] else 1
    loser = 1 - winner
    return winner, scale(points[loser], loser == player or took_trick)


def score(match: dict) -> dict:
    target = (match.get("options") or {}).get("target", 7)
    totals = [0, 0]
    rows = []
    for hand in match["hands"]:
        winner, game_points = deal_result(hand)
        points = [0, 0]
        if winner is not None:
            points[winner] = game_points
        totals = [total + change for total, change in zip(totals, points, strict=True)]
        rows.append({"points": points, "totals": totals, "winner": winner})
    # 4.5: only the winner of a deal scores, so at most one reaches the target.
    winners = [i for i in (0, 1) if totals[i] >= target]
    played = len(rows)
    return {
        "hands": rows,
        "totals": list(totals),
        "finished": bool(winners),
        "winners": winners,
        "next_hand": None if winners else {"number": played + 1, "dealer": played % 2, "leader": (played + 1) % 2},
    }
