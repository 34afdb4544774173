"""The contract for the games with partnerships (RULES.md 1.5), across both
games, and the registry's temporary seam: the engine scores six games, the
app offers four."""

from __future__ import annotations

import json

import pytest

from scorekeeper.scoring import GAMES, InvalidHand, check_bidding, game_specs, get_game, score_match

from .test_contract import ALL_GAMES, FOUR, invalid, match_for, names

# ------------------------------------------------------------ the games with partnerships (1.5)

PARTNERSHIP_GAMES = {
    # the first hand of P1 and C2, with its points per side as RULES.md gives them
    "partnership_spades": ([{"bids": [3, 4, 2, 4], "tricks": [6, 7]}], [51, -80]),
    "courtpiece": ([{"winner": 1, "court": "first7"}], [0, 1]),
}
PARTNERSHIP_DETAIL_KEYS = {
    "partnership_spades": {"contract", "made", "nil_made", "bags", "bag_penalty"},
    "courtpiece": {"dealer", "caller", "winner", "court", "deals_won", "run"},
}


@pytest.mark.parametrize("game", PARTNERSHIP_GAMES)
def test_partnership_output_shape(game):
    hands, points = PARTNERSHIP_GAMES[game]
    result = score_match({"game": game, "players": FOUR, "hands": hands})
    assert set(result) == {"hands", "totals", "finished", "winners", "next_hand", "sides"}
    assert result["sides"] == [[0, 2], [1, 3]]
    assert set(result["hands"][0]) == {"points", "totals"} | PARTNERSHIP_DETAIL_KEYS[game]
    assert result["hands"][0]["points"] == result["totals"] == points
    assert json.loads(json.dumps(result)) == result


@pytest.mark.parametrize("game", PARTNERSHIP_GAMES)
def test_partnership_games_without_hands_still_have_sides(game):
    result = score_match({"game": game, "players": FOUR, "hands": []})
    assert (result["sides"], result["totals"], result["next_hand"]["number"]) == ([[0, 2], [1, 3]], [0, 0], 1)


@pytest.mark.parametrize("game", PARTNERSHIP_GAMES)
@pytest.mark.parametrize("count", [0, 2, 3, 5, 7])
def test_partnership_games_are_for_four(game, count):
    assert invalid({"game": game, "players": names(count), "hands": []}).hand_index is None


@pytest.mark.parametrize("game", PARTNERSHIP_GAMES)
def test_partnership_check_bidding_checks_the_match_first(game):
    match = {"game": game, "players": ["Ann", "Bob", "Cat", "Ann"], "hands": []}
    with pytest.raises(InvalidHand) as info:
        check_bidding(match, {"trumps": "H"})
    assert (info.value.hand_index, str(info.value)) == (None, str(invalid(match)))


def test_the_app_offers_the_six_games_the_engine_scores():
    """One list of games: the app's menus (GAMES, game_specs()) and the engine's checks."""
    assert list(GAMES) == [*ALL_GAMES, *PARTNERSHIP_GAMES]
    assert [spec.id for spec in game_specs()] == list(GAMES)
    assert [get_game(game).spec.id for game in PARTNERSHIP_GAMES] == list(PARTNERSHIP_GAMES)
    error = invalid({"game": "chess", "players": FOUR, "hands": []})
    assert str(error).endswith('"spades", "drawbridge", "sixtysix", "ohhell", "partnership_spades", "courtpiece"')


def test_a_game_without_sides_has_no_sides_key():
    for game in ALL_GAMES:
        assert "sides" not in score_match(match_for(game))
        assert get_game(game).spec.sides == ()
