"""A test-only fifth game, to show that a new game is one module plus one
template: two players each turn up a card (2 to 14, ace high); the higher
card scores a point; the first to the target wins. Registered by the test
that uses it, never by the app."""

from __future__ import annotations

from scorekeeper.scoring.base import (
    Field,
    Game,
    GameSpec,
    HandScore,
    Option,
    check_int,
    check_keys,
    check_per_player_list,
)

SPEC = GameSpec(
    id="highcard",
    name="High Card",
    min_players=2,
    max_players=2,
    summary="Each player turns up a card; the higher card scores a point.",
    options=(
        Option("target", "int", 3, "Target score", "The first player to reach this many points wins.", minimum=1),
    ),
    hand_fields=(Field("cards", "int", "Card", "2 to 14 (ace high).", per_player=True, minimum=2, maximum=14),),
    detail_keys=("winner",),
    has_bidding=False,
)


class HighCard(Game):
    spec = SPEC

    def new_state(self, players, options):
        return {"players": players, "target": options["target"]}

    def check_hand(self, state, hand, k):
        check_keys(hand, {"cards"})
        cards = check_per_player_list(hand["cards"], state["players"], "the cards")
        for name, card in zip(state["players"], cards, strict=True):
            check_int(card, 2, 14, f"{name}'s card")

    def score_hand(self, state, hand, k):
        a, b = hand["cards"]
        winner = 0 if a > b else 1 if b > a else None
        points = [int(winner == 0), int(winner == 1)]
        why = ["higher card: 1" if p else "no point" for p in points]
        return HandScore(points, {"winner": winner}, why)

    def is_over(self, state, totals, hands_played):
        return max(totals) >= state["target"] and totals[0] != totals[1]

    def next_hand(self, state, k):
        return {"number": k + 1, "dealer": k % 2}


GAME = HighCard()
