"""Player figures and ratings after games with partnerships (RULES.md 1.5):
a side's result counts for both partners, partners are not opponents, and
the ratings rate each side as a team of two."""

import re

import pytest
from openskill.models import BradleyTerryFull

from scorekeeper.models import Player
from scorekeeper.players.selectors import game_ratings

from .test_player_page import words

# RULES.md 7.8 P7 (target 100): Bob & Dan win 43 to 165.
P7 = [
    {"bids": [3, 3, 3, 3], "tricks": [7, 6]},
    {"bids": [2, 2, 2, 2], "tricks": [6, 7]},
    {"bids": [3, 3, 3, 3], "tricks": [5, 8]},
]
C4 = [{"winner": 1, "court": "all13"}]  # a bavney: Bob & Dan win 0 to 52
FOUR = ["Ann", "Bob", "Cat", "Dan"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "options", "hands"), [("partnership_spades", {"target": 100}, P7), ("courtpiece", {}, C4)]
)
def test_both_partners_win_and_the_other_side_are_the_opponents(client, make_match, game, options, hands):
    make_match(game, names=FOUR, options=options, hands=hands)
    bob = words(client.get(f"/players/{Player.objects.get(name='Bob').pk}/"))
    dan = words(client.get(f"/players/{Player.objects.get(name='Dan').pk}/"))
    ann = words(client.get(f"/players/{Player.objects.get(name='Ann').pk}/"))
    assert "1 match" in bob and "1 won" in bob and "1 won" in dan
    assert "0 won" in ann
    # Head to head: played, won, lost, drawn against each opponent; a partner is not one.
    assert re.search(r"Ann 1 1 0 0", bob) and re.search(r"Cat 1 1 0 0", bob)
    assert not re.search(r"Dan 1 \d \d \d", bob)
    assert re.search(r"Bob 1 0 1 0", ann)


@pytest.mark.django_db
def test_the_ratings_rate_each_side_as_a_team_of_two(make_match):
    make_match("partnership_spades", names=FOUR, options={"target": 100}, hands=P7)
    ratings = {Player.objects.get(pk=k).name: r for k, r in game_ratings("partnership_spades").items()}
    model = BradleyTerryFull()
    (a, c), (b, d) = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1])
    assert ratings["Bob"].mu == pytest.approx(b.mu) and ratings["Dan"].mu == pytest.approx(d.mu)
    assert ratings["Ann"].mu == pytest.approx(a.mu) and ratings["Cat"].mu == pytest.approx(c.mu)
    assert ratings["Bob"].mu > 25 > ratings["Ann"].mu
    assert {r.matches for r in ratings.values()} == {1}


# RULES.md 7.8 P2: Ann's Nil made, then Bob's Nil failed (2 tricks); the sides' contracts 5 and 7, then 7 and 5.
P2 = [
    {"bids": [0, 4, 5, 3], "tricks": [6, 7], "nil_tricks": [0, None, None, None]},
    {"bids": [4, 0, 3, 5], "tricks": [5, 8], "nil_tricks": [None, 2, None, None]},
]
C5 = [{"winner": w} for w in (1, 1, 0, 0, 0, 0, 0, 0, 0, 1)]  # RULES.md 8.8 C5: deal 9 is a court for 7 in a row


@pytest.mark.django_db
def test_the_partnership_games_own_figures(client, make_match):
    make_match("partnership_spades", names=FOUR, hands=P2)

    def page_of(name: str) -> str:
        return words(client.get(f"/players/{Player.objects.get(name=name).pk}/"))

    ann, bob, cat = page_of("Ann"), page_of("Bob"), page_of("Cat")
    assert "Nil made 1 / 1 (100 %)" in ann and "Nil made 0 / 0" in cat
    assert "Nil made 0 / 1 (0 %)" in bob
    # Ann & Cat: contract 5 made (took 6), then 7 set (took 5); Bob & Dan: 7 made, 5 made.
    assert "Contracts made (with the partner) 1 / 2 (50 %)" in ann and "Contracts made (with the partner) 1 / 2" in cat
    assert "Contracts made (with the partner) 2 / 2 (100 %)" in bob
    # Bags: Ann & Cat 1 then none (1 over 2 hands); Bob & Dan none then 3 (Dan's 1, Bob's failed Nil's 2).
    assert "Bags per hand (the side's) 0.5" in ann and "Bags per hand (the side's) 1.5" in bob

    make_match("courtpiece", names=["Eve", "Fay", "Gus", "Hal"], hands=C5)
    eve, fay = page_of("Eve"), page_of("Fay")
    assert "Deals won (with the partner) 7 / 10 (70 %)" in eve and "Courts for deals in a row 1" in eve
    assert "Deals won (with the partner) 3 / 10 (30 %)" in fay and "Courts for deals in a row 0" in fay
