"""How this game is scored: a page per game the app offers, in English,
Urdu and Sindhi, for anyone at the table (no login). Its worked example
carries the numbers of the rules' own worked examples (docs/rules.md,
worked by hand there: S3; D1, D2, D4, D3; X1, X2, X4, X3, X5; O5), its
options their defaults; the sheet and the new-match page link to it; the
games the app does not know have no page."""

from __future__ import annotations

import html
import re
from itertools import accumulate
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from .conftest import text_of

pytestmark = pytest.mark.django_db

LANGS = {"en": "en", "ur": "ur", "sd": "sd"}
GAMES = ("spades", "drawbridge", "sixtysix", "ohhell")
PARTNERSHIP_GAMES = ("partnership_spades", "courtpiece")  # a column per side in their worked example

# Each example's points per hand, from docs/rules.md's worked examples.
POINTS = {
    # S3 (Bonnie, Carl): 4-7, 5-6 / 3-6, 6-7 / 4-9 (bags to 11: -100), 4-4 / 6-4 (set), 7-9.
    "spades": [[43, 51], [33, 61], [-55, 40], [-60, 72]],
    # D1 3NT made 100; D2 4S doubled 11 tricks 300; passed out; D3 2H redoubled one down 200 to Bob.
    "drawbridge": [[100, 0], [0, 300], [0, 0], [0, 200]],
    # X1 out over 33: 1; X2 under 33: 2; X4 false claim: 2; X3 no trick: 3; X5 closer short, no trick at close: 3.
    "sixtysix": [[1, 0], [0, 2], [0, 2], [3, 0], [3, 0]],
    # P2: Ann's Nil made, Cat 5 of 6: 151; Bob & Dan 4 + 3 of 7: 70. Then Ann & Cat set at 7 (-70); Bob's Nil
    # fails (-100), its 2 tricks bags (+2), Dan 5 of 6: 51: -47.
    "partnership_spades": [[151, 70], [-70, -47]],
    # C7: a kot for Bob & Dan, a goon kot for Ann & Cat, a plain deal: 1 court each.
    "courtpiece": [[0, 1], [1, 0], [0, 0]],
    # O5: the whole 7-player game.
    "ohhell": [
        [10, 10, 10, 10, 10, 10, 11],
        [11, 0, 10, 10, 10, 10, 10],
        [10, 11, 10, 11, 10, 0, 10],
        [11, 11, 11, 10, 10, 10, 0],
        [12, 10, 11, 11, 10, 10, 11],
        [11, 11, 11, 11, 11, 10, 11],
        [0, 0, 11, 11, 11, 10, 11],
    ],
}
FINAL = {
    "spades": [-39, 224],
    "drawbridge": [100, 500],
    "sixtysix": [7, 4],
    "ohhell": [65, 53, 74, 74, 72, 60, 64],
    "partnership_spades": [81, 23],
    "courtpiece": [1, 1],
}
# Every option and its default, as docs/rules.md's option tables give them (in the words the form shows).
DEFAULTS = {
    "spades": {"Target score": "500", "Failed Nil tricks count as bags": "off"},
    "drawbridge": {"Target score": "500", "Points per undertrick": "50", "Stock face up": "off"},
    "sixtysix": {"Target score": "7"},
    "partnership_spades": {
        "Target score": "500",
        "A failed Nil's tricks": "Bags: 1 point and 1 bag each",
        "Blind Nil": "Only when their side is 100 or more behind",
        "Both partners may bid Nil": "on",
        "Losing score": "off",
    },
    "courtpiece": {
        "Target in courts": "2",
        "Number of deals": "off",
        "Deals in a row for a court": "7",
        "Courts for a goon kot": "1",
        "Courts for a bavney": "52",
    },
    "ohhell": {
        "Hand sizes": "Up: 1, 2, 3 … cards",
        "The hook (dealer's restriction)": "off",
        "Score for a bid made": "10 plus the tricks taken",
        "A missed bid scores its tricks": "off",
        "Bid all at once": "off",
        "Must trump (La Podrida)": "off",
    },
}
NAMES = {"Bonnie", "Carl", "Ann", "Bob", "Cat", "Dan", "A", "B", "C", "D", "E", "F", "G"}  # the examples' players


def rules_url(game: str) -> str:
    return reverse("game_rules", args=[game])


def page_of(game: str, lang: str = "en") -> str:
    response = Client().get(rules_url(game), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert f'<html lang="{lang}"' in response.content.decode()
    return response.content.decode()


def example_numbers(page: str) -> tuple[list[list[int]], list[list[int]]]:
    """The example table's points and running totals, hand by hand."""
    table = re.search(r'<table class="sheet rules-example.*?</table>', page, re.S).group(0)
    points, totals = [], []
    for row in re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", table, re.S):
        points.append([int(n) for n in re.findall(r'<span class="pts">([+-]?\d+)</span>', row)])
        totals.append([int(n) for n in re.findall(r'<span class="tot">(-?\d+)</span>', row)])
    return points, totals


def words_read(page: str) -> str:
    """What a reader meets: the visible text, titles and the names of controls."""
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    body = re.search(r"<body[^>]*>(.*)</body>", page, re.S).group(1)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'<div id="ui-texts" hidden.*?></div>', " ", body, flags=re.S)  # the scripts' words, shown elsewhere
    attributes = re.findall(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"', body)
    text = re.sub(r"<[^>]+>", " ", re.sub(r"</?(?:b|bdi)\b[^>]*>", "", body))  # words inside a line stay whole
    return html.unescape(" ".join([title, text, *attributes]))


def latin_words(page: str) -> set[str]:
    found = set(re.findall(r"[A-Za-z][A-Za-z'’-]*", re.sub(r"https?://\S+", " ", words_read(page))))
    # The chooser's own name for English, and "NT", a contract's notation ("3NT", as "4♠"), kept so by the catalogues.
    return found - NAMES - {"English", "NT"}


@pytest.mark.parametrize("game", GAMES + PARTNERSHIP_GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_each_game_has_its_page_in_each_language_with_the_example_worked(game, lang):
    page = page_of(game, lang)
    points, totals = example_numbers(page)
    assert points == POINTS[game]
    running = accumulate(POINTS[game], lambda a, b: [x + y for x, y in zip(a, b, strict=True)])
    assert totals == list(running)
    assert totals[-1] == FINAL[game]


@pytest.mark.parametrize("game", GAMES + PARTNERSHIP_GAMES)
@pytest.mark.parametrize("lang", ["ur", "sd"])
def test_no_english_is_left_on_the_urdu_and_sindhi_pages(game, lang):
    assert latin_words(page_of(game, lang)) == set()


@pytest.mark.parametrize("game", GAMES + PARTNERSHIP_GAMES)
def test_the_page_lists_every_option_with_its_default(game):
    text = re.sub(r"\s+", " ", words_read(page_of(game)))
    for label, default in DEFAULTS[game].items():
        assert f"{label} Unless changed: {default}" in text, label
    assert text.count("Unless changed:") == len(DEFAULTS[game])  # and no other


def test_the_pages_say_how_a_hand_scores_and_how_the_game_ends():
    spades = re.sub(r"\s+", " ", words_read(page_of("spades")))
    assert "Bid 4, take 7: 40 + 3 = 43." in spades
    assert "+100 if you take no trick, -100 if you take any" in spades
    assert "When they reach 10, you lose 100 points" in spades
    assert "a player at or over the target score (500 unless changed) wins" in spades
    bridge = re.sub(r"\s+", " ", words_read(page_of("drawbridge")))
    assert "3 no trumps with 9 tricks: 40 + 30 + 30 = 100." in bridge
    assert "Doubled, 1, 2 and 3 short are 100, 200 and 300." in bridge
    assert "Bob reaches 500 and wins." in bridge
    sixty_six = re.sub(r"\s+", " ", words_read(page_of("sixtysix")))
    assert "1 game point if the loser has 33 card points or more; 2 if the loser has under 33; 3" in sixty_six
    assert "Ann reaches 7 and wins; Bob has 4." in sixty_six
    oh_hell = re.sub(r"\s+", " ", words_read(page_of("ohhell")))
    assert "Bid 2, take 2: 12." in oh_hell
    assert "C and D finish on 74 and share the win." in oh_hell
    partners = re.sub(r"\s+", " ", words_read(page_of("partnership_spades")))
    assert "Bid 3 and 2, take 6: 50 + 1 = 51." in partners  # RULES.md P1
    assert "Bid 4 and 4, take 7: -80." in partners
    assert "a side at or over the target (500 unless changed) wins" in partners
    court = re.sub(r"\s+", " ", words_read(page_of("courtpiece")))
    assert "The side that first takes seven tricks wins the deal" in court
    assert "If the callers won without a court, the same player deals again" in court
    assert "The first side to reach the target in courts (2 unless changed) wins." in court
    assert "so the deals won decide: 2 to 1 for Ann & Cat, who win." in court
    assert "After two hands: Ann & Cat 81, Bob & Dan 23." in partners


def test_the_oh_hell_example_plays_its_last_hand_without_trumps():
    page = page_of("ohhell")
    table = re.search(r'<table class="sheet rules-example.*?</table>', page, re.S).group(0)
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>", table, re.S)
    assert len(rows) == 7
    assert ["no trumps" in row for row in rows] == [False] * 6 + [True]
    assert "7 cards" in rows[6] and "1 card<" in rows[0]


@pytest.mark.parametrize("game", ["bridge", "1", "partnership-spades"])
def test_a_game_the_app_does_not_know_has_no_page(client, game):
    assert client.get(f"/games/{game}/rules/").status_code == 404


def test_the_page_is_only_read(client):
    assert client.post(rules_url("spades")).status_code == 405


@pytest.mark.parametrize("game", GAMES)
def test_the_sheet_links_to_its_game_page(web, owned, game):
    match = owned(game)
    page = web.get(match.get_absolute_url()).content.decode()
    links = re.findall(rf'<a[^>]*href="{rules_url(game)}"[^>]*>How this game is scored</a>', page)
    assert len(links) == 2  # in the menu, and under the hands
    # A visitor watching the sheet has the link too.
    assert rules_url(game) in Client().get(match.get_absolute_url()).content.decode()


def test_the_new_match_page_links_to_each_game_page(web):
    choices = web.get(reverse("new_match")).content.decode()
    for game in GAMES:
        assert f'href="{rules_url(game)}"' in choices
    for game in GAMES:
        form = web.get(reverse("new_match") + f"?game={game}").content.decode()
        assert re.search(rf'<a href="{rules_url(game)}">How this game is scored</a>', form)


def test_the_other_games_pages_are_linked_from_each_page():
    page = page_of("sixtysix")
    assert [g for g in GAMES if f'href="{rules_url(g)}"' in page] == ["spades", "drawbridge", "ohhell"]


def test_a_fifth_game_has_a_page_from_its_spec_alone(monkeypatch, web, settings):
    """A game added to the app without its own words still has a page: its
    summary and options, as the new-match page shows them; the sheet's link works."""
    from scorekeeper.scoring import GAMES as OFFERED

    from .matches.fifth_game import highcard

    monkeypatch.setitem(OFFERED, highcard.SPEC.id, highcard.GAME)
    templates = [dict(engine) for engine in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], Path(highcard.__file__).parent / "templates"]
    settings.TEMPLATES = templates
    page = text_of(Client().get(rules_url("highcard")))
    assert "How High Card is scored" in page
    assert "The first player to reach this many points wins." in page
    assert "A worked example" not in page and "A hand at the table" not in page
    response = web.post(reverse("new_match"), {"game": "highcard", "seat_0": "Ann", "seat_1": "Bob"})
    assert rules_url("highcard") in web.get(response.url).content.decode()
