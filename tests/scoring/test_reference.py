"""Differential test: the engine against independent reference scorers.

tests/scoring/reference/ holds a second implementation of each game, written
from RULES.md alone. Seeded random LEGAL matches (random options, the special
cases of each game, games that end and games that don't, ties) are scored by
both, and the outputs must be identical, types included. A change to the
engine that breaks a rule shows up here as a difference.
"""

from __future__ import annotations

import copy
import functools
import random

import pytest

from scorekeeper.scoring import InvalidHand, score_match
from tests.scoring.reference import drawbridge, ohhell, sixtysix, spades

MATCHES_PER_GAME = 300
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "ann", "Ann ", "Zoë", "李", "O'Neil"]


def new_match(rng: random.Random, game: str, players: int, options: dict) -> dict:
    """A match without hands; empty options are left out, None or {} at random."""
    match = {"game": game, "players": rng.sample(NAMES, players), "hands": []}
    if options or rng.random() < 0.5:
        match["options"] = options if options or rng.random() < 0.5 else None
    return match


def play(match: dict, reference, next_hand, limit: int, may_finish: bool = True) -> dict:
    """Add next_hand(reference result so far) until `limit` hands or the end; may_finish false stops one hand short."""
    result = reference.score(match)
    for _ in range(limit):
        match["hands"].append(next_hand(result))
        result = reference.score(match)
        if result["finished"]:
            if not may_finish:
                match["hands"].pop()
            break
    return match


# ------------------------------------------------------------ Spades

SPADES_BIDS = [*range(14), "blind_nil"]


def spades_bid(rng: random.Random) -> int | str:
    r = rng.random()
    if r < 0.12:
        return 0
    if r < 0.2:
        return "blind_nil"
    return rng.randint(1, 13) if r < 0.3 else max(1, min(13, round(rng.gauss(5, 2.5))))


def spades_hand(rng: random.Random) -> dict:
    first = spades_bid(rng)
    if rng.random() < 0.6:  # bids adding up to about 13, as at a real table
        second = max(1, min(13, 13 - (first if isinstance(first, int) else 0) - rng.randint(0, 3)))
    else:
        second = spades_bid(rng)
    bids = [first, second] if rng.random() < 0.5 else [second, first]
    r = rng.random()
    if r < 0.25:
        t0 = rng.randint(0, 13)
    else:  # one player takes about what they bid (a Nil bidder mostly none), the other the rest
        aimer = 0 if r < 0.6 else 1
        aim = bids[aimer] if isinstance(bids[aimer], int) else 0
        taken = 0 if aim == 0 and rng.random() < 0.7 else max(0, min(13, aim + rng.randint(-1, 2)))
        t0 = taken if aimer == 0 else 13 - taken
    return {"bids": bids, "tricks": [t0, 13 - t0]}


def spades_state(rows: list[dict]) -> tuple[list[int], list[int]]:
    """Totals and carried bags after the hands scored so far."""
    return (rows[-1]["totals"], rows[-1]["bags"]) if rows else ([0, 0], [0, 0])


def spades_tie_hand(rng: random.Random, rows: list[dict], target: int, failed_nil_bags: bool) -> dict | None:
    """A hand after which both totals are equal and at or above the target (so play goes on), if there is one."""
    totals, bags = spades_state(rows)
    ties = []
    for t0 in range(14):
        by_total = {}  # player 0's new total with t0 tricks -> the bids that give it
        for bid in SPADES_BIDS:
            by_total.setdefault(totals[0] + spades.score_player(bid, t0, bags[0], failed_nil_bags)[0], []).append(bid)
        for bid in SPADES_BIDS:
            new = totals[1] + spades.score_player(bid, 13 - t0, bags[1], failed_nil_bags)[0]
            if new >= target:
                ties += [{"bids": [b0, bid], "tricks": [t0, 13 - t0]} for b0 in by_total.get(new, [])]
    return rng.choice(ties) if ties else None


def spades_match(rng: random.Random) -> dict:
    options = {}
    if rng.random() < 0.8:
        options["target"] = rng.choice([rng.randint(1, 60), rng.randint(50, 300), rng.randint(100, 500), 500, 10**12])
    if rng.random() < 0.5:
        options["failed_nil_bags"] = rng.random() < 0.5
    chase_ties = rng.random() < 0.3
    if chase_ties:
        options["target"] = rng.choice([1, 30, 60, 100, 150, 250])
    target, failed_nil_bags = options.get("target", 500), options.get("failed_nil_bags", False)
    match = new_match(rng, "spades", 2, options)
    limit = 50 if rng.random() < 0.7 else rng.choice([0, 1, 2, 5, 10, 30])

    def next_hand(result):
        """Chasing ties: near the target, a tie at or above it half the time; else stay below it until a tie."""
        rows = result["hands"]
        if chase_ties:
            totals, bags = spades_state(rows)
            tie = max(totals) + 150 >= target and rng.random() < 0.5
            tie = tie and spades_tie_hand(rng, rows, target, failed_nil_bags)
            if tie:
                return tie
            for _ in range(20 if max(totals) < target else 0):
                hand = spades_hand(rng)
                after = [
                    totals[i] + spades.score_player(hand["bids"][i], hand["tricks"][i], bags[i], failed_nil_bags)[0]
                    for i in (0, 1)
                ]
                if max(after) < target:
                    return hand
        return spades_hand(rng)

    play(match, spades, next_hand, limit)
    if chase_ties and rng.random() < 0.5:  # sometimes end the record right on a tie at or above the target
        rows = spades.score(match)["hands"]
        tied = [k for k, row in enumerate(rows) if row["totals"][0] == row["totals"][1] >= target]
        del match["hands"][tied[0] + 1 if tied else len(rows) :]
    return match


# ------------------------------------------------------------ Draw Bridge


def drawbridge_hand(rng: random.Random, passed_out_rate: float) -> dict:
    if rng.random() < passed_out_rate:
        return {"passed_out": True}
    level = rng.randint(1, 7)
    need = 6 + level
    r = rng.random()
    if r < 0.45:
        tricks = rng.randint(need, 13)
    elif r < 0.9:
        tricks = rng.randint(max(0, need - 4), need - 1)
    else:
        tricks = rng.randint(0, 13)
    hand = {
        "declarer": rng.randint(0, 1),
        "level": level,
        "strain": rng.choice(["C", "D", "H", "S", "NT"]),
        "tricks": tricks,
    }
    double = rng.choice([None, "none", "double", "redouble"])
    if double:
        hand["double"] = double
    return hand


def drawbridge_match(rng: random.Random) -> dict:
    options = {}
    if rng.random() < 0.7:
        options["target"] = rng.choice([1, 100, 300, 500, 500, 1000, 2000, rng.randint(1, 3000)])
    if rng.random() < 0.5:
        options["undertrick_points"] = rng.choice([0, 1, 50, 100, 137, rng.randint(0, 300)])
    if rng.random() < 0.3:
        options["stock_face_up"] = rng.random() < 0.5
    match = new_match(rng, "drawbridge", 2, options)
    passed_out_rate = rng.choice([0.0, 0.1, 0.2, 0.5])
    limit = 60 if rng.random() < 0.5 else rng.randint(0, 15)
    return play(match, drawbridge, lambda _: drawbridge_hand(rng, passed_out_rate), limit)


# ------------------------------------------------------------ Sixty-Six

SIXTYSIX_POINTS = [0, 1, 9, 10, 11, 20, 32, 33, 34, 40, 60, 64, 65, 66, 67, 70, 80, 100, 110, 120, 130, 200, 220, 230]


def card_points(rng: random.Random, low: int, high: int) -> int:
    """Card points in [low, high], half the time one of the boundaries of the rules."""
    if rng.random() < 0.5:
        return rng.choice([v for v in SIXTYSIX_POINTS if low <= v <= high] + [low, high])
    return rng.randint(low, high)


def sixtysix_hand(rng: random.Random) -> dict:
    end = rng.choice(["out", "out", "closed", "closed", "played_out"])
    player = rng.randint(0, 1)
    opponent = 1 - player
    points = [0, 0]
    hand = {"end": end, "player": player, "points": points}
    if end == "out":
        hand["opponent_took_trick"] = rng.random() < 0.8
        points[player] = card_points(rng, 0, 230)
        points[opponent] = card_points(rng, 0, 230 - points[player]) if hand["opponent_took_trick"] else 0
    elif end == "closed":
        at_close = rng.random() < 0.6
        took = at_close or rng.random() < 0.6
        claimed = took and rng.random() < 0.3
        hand.update(opponent_took_trick=took, opponent_trick_at_close=at_close)
        if claimed or rng.random() < 0.3:
            hand["opponent_claimed"] = claimed
        if claimed:
            points[opponent] = card_points(rng, 66, 220)
            points[player] = card_points(rng, 0, 220 - points[opponent])
        else:
            points[player] = card_points(rng, 0, 220)
            points[opponent] = card_points(rng, 0, 220 - points[player]) if took else 0
    else:
        hand["opponent_took_trick"] = rng.random() < 0.85
        total = 130 + 20 * rng.randint(0, 5)
        if not hand["opponent_took_trick"]:
            points[player] = total
        elif rng.random() < 0.15:
            points[:] = [total // 2, total // 2]  # a drawn deal
        else:
            points[player] = card_points(rng, 10, total)
            points[opponent] = total - points[player]
    return hand


def sixtysix_match(rng: random.Random) -> dict:
    options = {}
    if rng.random() < 0.7:
        options["target"] = rng.choice([1, 2, 3, 5, 7, 7, 7, 10, 15, 21, rng.randint(1, 30)])
    match = new_match(rng, "sixtysix", 2, options)
    may_finish = rng.random() < 0.6  # else stop before the hand that would end the game
    limit = 400 if may_finish else rng.randint(0, 12)
    return play(match, sixtysix, lambda _: sixtysix_hand(rng), limit, may_finish)


# ------------------------------------------------------------ Oh Hell


def ohhell_hand(rng: random.Random, players: int, cards: int, dealer: int, hook: bool, made_rate: float) -> dict:
    to_two = rng.random() < 0.3  # tricks mostly to the first two players, or spread
    tricks = [0] * players
    for _ in range(cards):
        tricks[rng.choice([0, 1]) if to_two and rng.random() < 0.7 else rng.randrange(players)] += 1
    bids = [
        taken if rng.random() < made_rate else rng.randint(0, min(cards, 2) if rng.random() < 0.5 else cards)
        for taken in tricks
    ]
    if hook and sum(bids) == cards:
        bids[dealer] = rng.choice([b for b in range(cards + 1) if b != bids[dealer]])
    return {"bids": bids, "tricks": tricks}


def ohhell_match(rng: random.Random) -> dict:
    options = {}
    if rng.random() < 0.8:
        options["schedule"] = rng.choice(["up", "down", "up_down", "down_up"])
    if rng.random() < 0.5:
        options["made_bid_score"] = rng.choice(["ten_plus_tricks", "five_plus_cards"])
    for name in ("hook", "miss_scores_tricks", "simultaneous_bidding", "must_trump"):
        if rng.random() < 0.5:
            options[name] = rng.random() < 0.5
    if options.get("hook") and options.get("simultaneous_bidding"):
        del options[rng.choice(["hook", "simultaneous_bidding"])]
    players = rng.randint(3, 7)
    match = new_match(rng, "ohhell", players, options)
    cards = ohhell.cards_per_hand(players, options.get("schedule", "up"))
    played = len(cards) if rng.random() < 0.5 else rng.randrange(len(cards))
    made_rate = rng.choice([0.0, rng.random(), 1.0])  # 0.0 and 1.0 make shared wins likely
    match["hands"] = [
        ohhell_hand(rng, players, cards[k], k % players, options.get("hook", False), made_rate) for k in range(played)
    ]
    return match


# ------------------------------------------------------------ the comparison

REFERENCES = {"spades": spades, "drawbridge": drawbridge, "sixtysix": sixtysix, "ohhell": ohhell}
GENERATORS = {
    "spades": spades_match,
    "drawbridge": drawbridge_match,
    "sixtysix": sixtysix_match,
    "ohhell": ohhell_match,
}


@functools.cache
def generated_matches(game: str) -> tuple[dict, ...]:
    rng = random.Random(f"test_reference/{game}")
    return tuple(GENERATORS[game](rng) for _ in range(MATCHES_PER_GAME))


def first_difference(engine, reference, path: str = "result"):
    """(path, engine value, reference value) at the first difference, types included; None if identical."""
    if type(engine) is not type(reference):
        return path, engine, reference
    if isinstance(engine, dict):
        for key in [*reference, *(key for key in engine if key not in reference)]:
            where = f"{path}[{key!r}]"
            if key not in engine or key not in reference:
                return where, engine.get(key, "<missing>"), reference.get(key, "<missing>")
            difference = first_difference(engine[key], reference[key], where)
            if difference:
                return difference
        return None
    if isinstance(engine, list):
        for i, (e, r) in enumerate(zip(engine, reference, strict=False)):
            difference = first_difference(e, r, f"{path}[{i}]")
            if difference:
                return difference
        return None if len(engine) == len(reference) else (f"len({path})", len(engine), len(reference))
    return None if engine == reference else (path, engine, reference)


def mismatch(match: dict, engine, reference) -> str | None:
    """None when the engine's output equals the reference's, else a short report."""
    difference = first_difference(engine, reference)
    if difference is None:
        return None
    where, got, expected = difference
    return f"{where}: engine {got!r}, reference {expected!r}\nmatch = {match!r}"


@pytest.mark.parametrize("game", REFERENCES)
def test_engine_agrees_with_the_reference(game):
    reports = []
    for match in generated_matches(game):
        try:
            report = mismatch(match, score_match(copy.deepcopy(match)), REFERENCES[game].score(match))
        except InvalidHand as error:
            report = f"engine raised InvalidHand (hand_index {error.hand_index}): {error}\nmatch = {match!r}"
        if report:
            reports.append((len(match["hands"]), report))
    assert not reports, f"{len(reports)} of {MATCHES_PER_GAME} matches differ; the shortest:\n{min(reports)[1]}"


@pytest.mark.parametrize("game", REFERENCES)
def test_a_wrong_total_is_reported(game):
    match = next(match for match in generated_matches(game) if match["hands"])
    wrong = REFERENCES[game].score(match)
    wrong["hands"][-1]["totals"][0] += 1
    report = mismatch(match, wrong, REFERENCES[game].score(match))
    assert report is not None
    assert report.startswith(f"result['hands'][{len(match['hands']) - 1}]['totals'][0]: engine ")
