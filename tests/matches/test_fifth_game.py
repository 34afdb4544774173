"""A fifth game is one module plus one template: a test-only game, "High
Card" (``fifth_game/highcard.py`` and ``fifth_game/templates/games/
highcard.html``), is registered here and played through the pages like
the four real games, with no other file of the app knowing it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from scorekeeper.models import Match
from scorekeeper.scoring import GAMES, game_specs, score_match

from ..conftest import HX, entries, form_values, text_of
from .fifth_game import highcard

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def high_card(monkeypatch, settings):
    monkeypatch.setitem(GAMES, highcard.SPEC.id, highcard.GAME)
    templates = [dict(engine) for engine in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], Path(highcard.__file__).parent / "templates"]
    settings.TEMPLATES = templates
    return highcard.SPEC


def post_turn(web, match, cards, htmx=False):
    form = form_values(web.get(match.get_absolute_url()).content.decode(), "entry-form")
    data = {**form, "cards_0": str(cards[0]), "cards_1": str(cards[1])}
    return web.post(reverse("record_hand", args=[match.pk]), data, **(HX if htmx else {}))


def test_the_engine_scores_the_fifth_game_through_the_one_driver(high_card):
    result = score_match({"game": "highcard", "players": ["Ann", "Bob"], "hands": [{"cards": [9, 4]}]})
    assert result["totals"] == [1, 0]
    assert result["next_hand"] == {"number": 2, "dealer": 1}
    assert high_card in game_specs()


def test_a_fifth_game_is_played_through_the_pages(web, high_card):
    # The new-match page offers it, with its option, and starts it.
    assert "High Card" in text_of(web.get(reverse("new_match")))
    assert "The first player to reach this many points wins." in text_of(
        web.get(reverse("new_match") + "?game=highcard")
    )
    response = web.post(reverse("new_match"), {"game": "highcard", "seat_0": "Ann", "seat_1": "Bob", "opt_target": "2"})
    match = Match.objects.get()
    assert response.url == match.get_absolute_url()

    # The sheet shows the game's own panel and chips from its template.
    page = text_of(web.get(match.get_absolute_url()))
    assert "Turn 1" in page and "<b>Ann</b> shuffles" in page
    assert 'name="cards_0"' in page

    # The preview explains the points in the game's words.
    preview = text_of(web.post(reverse("preview", args=[match.pk]), {"cards_0": "12", "cards_1": "3"}, **HX))
    assert "higher card: 1" in preview

    # Turns are saved, refused and edited like any game's hands.
    assert post_turn(web, match, (12, 3)).status_code == 302
    refused = post_turn(web, match, (15, 3), htmx=True)
    assert refused.status_code == 422
    assert "Hand 2: Ann's card must be 2 to 14, got 15" in text_of(refused)
    answer = post_turn(web, match, (5, 5), htmx=True)
    assert answer.status_code == 200
    assert re.search(r'<tr class="is-new">\s*<th scope="row">2\b', answer.content.decode())

    edit_url = reverse("edit_hand", args=[match.pk, 2])
    edit_form = form_values(web.get(edit_url).content.decode(), "edit-form")
    assert web.post(edit_url, {**edit_form, "cards_0": "2", "cards_1": "13"}).status_code == 302
    assert entries(match) == [{"cards": [12, 3]}, {"cards": [2, 13]}]
    assert Match.objects.get(pk=match.pk).totals == [1, 1]

    # Ann wins the third turn and the game (target 2).
    post_turn(web, match, (14, 2))
    match.refresh_from_db()
    assert (match.status, match.winners, match.totals) == ("finished", [0], [2, 1])
    page = text_of(web.get(match.get_absolute_url()))
    assert "Ann" in page and "wins" in page
    assert "High Card" in text_of(web.get(reverse("home")))


def test_no_file_of_the_app_names_the_fifth_game():
    app = [*(REPO / "scorekeeper").rglob("*.py"), *(REPO / "templates").rglob("*.html"), *(REPO / "static").rglob("*")]
    assert not [p for p in app if p.is_file() and "highcard" in p.read_text(errors="ignore").lower()]
