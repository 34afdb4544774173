"""How long score_match takes for a long match of each game.

    .venv/bin/python bench/scoring.py [--repeat N]

Builds one legal match per game with a fixed random seed, times
score_match on it (median of repeated timeit runs) and, in the same run, a
baseline of json.loads(json.dumps(match)) on the same dict, so the figures
can be compared across machines by the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.scoring import score_match  # noqa: E402

SEED = 20240601
HIGH = 10**9  # a target nobody reaches, so the game does not end


def spades_match(rng: random.Random, hands: int = 60) -> dict:
    def bid():
        return "blind_nil" if rng.random() < 0.03 else rng.choice([0] * 2 + list(range(1, 9)))

    rows = []
    for _ in range(hands):
        taken = rng.randint(0, 13)
        rows.append({"bids": [bid(), bid()], "tricks": [taken, 13 - taken]})
    return {"game": "spades", "players": ["Ann", "Bob"], "options": {"target": HIGH}, "hands": rows}


def drawbridge_match(rng: random.Random, hands: int = 60) -> dict:
    rows = []
    for _ in range(hands):
        if rng.random() < 0.05:
            rows.append({"passed_out": True})
            continue
        level = rng.randint(1, 7)
        row = {
            "declarer": rng.randint(0, 1),
            "level": level,
            "strain": rng.choice(["C", "D", "H", "S", "NT"]),
            "tricks": max(0, min(13, 6 + level + rng.randint(-3, 2))),
        }
        double = rng.choice([None, None, "none", "double", "redouble"])
        if double:
            row["double"] = double
        rows.append(row)
    return {"game": "drawbridge", "players": ["Ann", "Bob"], "options": {"target": HIGH}, "hands": rows}


def sixtysix_deal(rng: random.Random) -> dict:
    player = rng.randint(0, 1)
    end = rng.choice(["out", "out", "closed", "played_out"])
    if end == "out":
        mine = rng.randint(40, 100)
        theirs = rng.randint(0, min(120 - min(mine, 120), 80))
        return {
            "end": "out",
            "player": player,
            "points": _seat(player, mine, theirs),
            "opponent_took_trick": theirs > 0,
        }
    if end == "closed":
        mine = rng.randint(30, 100)
        theirs = rng.randint(1, min(220 - mine, 90))
        return {
            "end": "closed",
            "player": player,
            "points": _seat(player, mine, theirs),
            "opponent_took_trick": True,
            "opponent_trick_at_close": rng.random() < 0.7,
        }
    total = 130 + 20 * rng.randint(0, 5)
    theirs = rng.randint(0, total - 10)
    return {
        "end": "played_out",
        "player": player,
        "points": _seat(player, total - theirs, theirs),
        "opponent_took_trick": True,
    }


def _seat(player: int, mine: int, theirs: int) -> list[int]:
    return [mine, theirs] if player == 0 else [theirs, mine]


def sixtysix_match(rng: random.Random, deals: int = 40) -> dict:
    rows = [sixtysix_deal(rng) for _ in range(deals)]
    return {"game": "sixtysix", "players": ["Ann", "Bob"], "options": {"target": HIGH}, "hands": rows}


def ohhell_match(rng: random.Random, players: int = 3, schedule: str = "up_down") -> dict:
    largest = {3: 15, 4: 13, 5: 10, 6: 8, 7: 7}[players]  # RULES.md 5.1
    up = list(range(1, largest + 1))
    cards = {"up": up, "down": up[::-1], "up_down": up + up[-2::-1], "down_up": up[::-1] + up[1:]}[schedule]
    rows = []
    for c in cards:
        tricks = [0] * players
        for _ in range(c):
            tricks[rng.randrange(players)] += 1
        bids = [t if rng.random() < 0.5 else rng.randint(0, c) for t in tricks]
        rows.append({"bids": bids, "tricks": tricks})
    return {
        "game": "ohhell",
        "players": [f"P{i + 1}" for i in range(players)],
        "options": {"schedule": schedule},
        "hands": rows,
    }


def baseline(match: dict) -> None:
    json.loads(json.dumps(match))


def median_seconds(func, repeat: int) -> float:
    """Median time of one call: timeit picks a loop count of ~0.2 s, repeated."""
    timer = timeit.Timer(func)
    loops, _ = timer.autorange()
    return statistics.median(t / loops for t in timer.repeat(repeat=repeat, number=loops))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timeit repeats per figure (default 7)")
    args = parser.parse_args(argv)

    rng = random.Random(SEED)
    matches = [
        ("Spades", spades_match(rng)),
        ("Draw Bridge", drawbridge_match(rng)),
        ("Sixty-Six", sixtysix_match(rng)),
        ("Oh Hell (3p up_down)", ohhell_match(rng)),
    ]

    header = ("game", "hands", "us/call", "us/hand", "json us/call", "ratio")
    rows = []
    for name, match in matches:
        result = score_match(match)  # legal, and the game must still be running
        assert not result["finished"] or name.startswith("Oh Hell"), name
        assert len(result["hands"]) == len(match["hands"])
        per_call = median_seconds(lambda m=match: score_match(m), args.repeat)
        json_call = median_seconds(lambda m=match: baseline(m), args.repeat)
        hands = len(match["hands"])
        rows.append(
            (
                name,
                str(hands),
                f"{per_call * 1e6:.0f}",
                f"{per_call * 1e6 / hands:.1f}",
                f"{json_call * 1e6:.0f}",
                f"{per_call / json_call:.1f}x",
            )
        )

    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print(f"Python {sys.version.split()[0]}, seed {SEED}, median of {args.repeat} timeit runs")
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True))))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    print("ratio = score_match time / json.loads(json.dumps(match)) time")


if __name__ == "__main__":
    main()
