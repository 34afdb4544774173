"""What a browser walk-through found (issue 15), checked without a browser:
the history of changes in words and putting an undone hand back, the
edit page's preview and bidding order, Sixty-Six's deals, the seats with
the same player, the tricks count next to the tricks."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorekeeper.audit import SYSTEM
from scorekeeper.errors import ServiceError
from scorekeeper.matches import services
from scorekeeper.matches.wording import change_words, entry_words, options_words
from scorekeeper.models import AuditEvent, Match
from scorekeeper.scoring import get_game

from ..conftest import HX, bid, entries, play, snapshot, text_of, undo

pytestmark = pytest.mark.django_db

SPADES = get_game("spades").spec


# ------------------------------------------------------------------ words


@pytest.mark.parametrize(
    ("game", "entry", "words"),
    [
        ("spades", {"bids": [4, 5], "tricks": [6, 7]}, "Ann bid 4, took 6 · Bob bid 5, took 7"),
        ("spades", {"bids": [0, 5]}, "Ann bid Nil · Bob bid 5"),
        (
            "ohhell",
            {"bids": [1, 0, 2], "tricks": [1, 1, 1]},
            "Ann bid 1, took 1 · Bob bid 0, took 1 · Cat bid 2, took 1",
        ),
        (
            "drawbridge",
            {"declarer": 1, "level": 4, "strain": "S", "double": "double", "tricks": 11},
            "Bob 4 ♠ spades doubled · 11 tricks",
        ),
        ("drawbridge", {"passed_out": True}, "Passed out"),
        (
            "sixtysix",
            {"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True},
            "Someone claimed 66 · by Ann · Ann 71 card points · Bob 38 card points · Opponent took a trick: yes",
        ),
    ],
)
def test_a_hand_in_words_names_the_players(game, entry, words):
    names = ["Ann", "Bob", "Cat"][: 3 if game == "ohhell" else 2]
    assert entry_words(get_game(game).spec, names, entry) == words


def test_options_and_a_started_match_in_words():
    assert options_words(SPADES, {"target": 300}) == "Target score: 300"
    hook = get_game("ohhell").spec.option("hook")
    assert options_words(get_game("ohhell").spec, {"hook": True}) == f"{hook.label}: yes"
    started = change_words(SPADES, ["Ann", "Bob"], {"players": ["Ann", "Bob"], "options": {}})
    assert started == "players Ann, Bob · the usual rules"


def test_history_page_words_its_changes(web, owned):
    match = owned("spades", options={"target": 500}, hands=[{"bids": [4, 5], "tricks": [6, 7]}])
    page = text_of(web.get(reverse("history", args=[match.pk])))
    assert "Ann bid 4, took 6 · Bob bid 5, took 7" in page
    assert "Target score: 500" in page
    assert "{" not in re.sub(r"<[^>]*>", "", page.split("<main", 1)[1])


def test_sixty_six_history_says_deal(web, owned):
    match = owned("sixtysix", hands=[{"end": "out", "player": 0, "points": [71, 38], "opponent_took_trick": True}])
    page = text_of(web.get(reverse("history", args=[match.pk])))
    assert "Deal recorded" in page and "Hand recorded" not in page


# ------------------------------------------------------ an undone hand back


def _undone(owned):
    match = owned("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [3, 3], "tricks": [3, 10]}])
    undo(match)
    event = AuditEvent.objects.get(match=match, action="hand undone")
    return Match.objects.get(pk=match.pk), event


def test_an_undone_hand_is_put_back_with_its_scores_and_audited(owned):
    match, event = _undone(owned)
    bid(match, {"bids": [2, 2]})  # bids for the hand after it: made for the hand now put back
    match.refresh_from_db()
    number = services.restore_hand(
        match_id=match.pk, event_id=event.pk, which="before", version=match.version, actor=SYSTEM
    )
    assert number == 2
    match.refresh_from_db()
    assert entries(match)[-1] == {"bids": [3, 3], "tricks": [3, 10]}
    assert match.totals == [42 + 30, 52 + 37]
    assert match.pending_bidding is None
    restored = AuditEvent.objects.filter(match=match).order_by("-id").first()
    assert (restored.action, restored.hand_number, restored.after) == ("hand restored", 2, entries(match)[-1])


def test_putting_back_from_a_stale_page_changes_nothing(owned):
    match, event = _undone(owned)
    before = snapshot(match)
    with pytest.raises(ServiceError) as refused:
        services.restore_hand(
            match_id=match.pk, event_id=event.pk, which="before", version=match.version - 1, actor=SYSTEM
        )
    assert refused.value.code == "conflict"
    assert snapshot(match) == before


def test_an_undone_hand_whose_place_was_taken_is_restored_as_an_edit(owned):
    match, event = _undone(owned)
    play(match, {"bids": [1, 1], "tricks": [1, 12]})  # a new hand 2
    match.refresh_from_db()
    services.restore_hand(match_id=match.pk, event_id=event.pk, which="before", version=match.version, actor=SYSTEM)
    assert entries(match) == [{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [3, 3], "tricks": [3, 10]}]


def test_the_history_page_puts_an_undone_hand_back(web, owned):
    match, event = _undone(owned)
    page = text_of(web.get(reverse("history", args=[match.pk])))
    assert "Put hand 2 back" in page
    response = web.post(
        reverse("history", args=[match.pk]), {"event": event.pk, "which": "before", "version": match.version}
    )
    assert response.status_code == 302
    assert len(entries(match)) == 2
    page = text_of(web.get(reverse("history", args=[match.pk])))
    assert "Put hand 2 back" not in page


# ------------------------------------------------------------- edit page


def test_edit_page_lists_bids_in_that_hands_bidding_order_and_has_a_preview(web, owned):
    # Hand 1 of Spades: Ann draws first, Bob bids first; hand 2 the other
    # way round (RULES.md 2.1). Seat order would list Ann first both times.
    match = owned("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [3, 3], "tricks": [3, 10]}])
    for number, first, second in ((1, "in-bids_1", "in-bids_0"), (2, "in-bids_0", "in-bids_1")):
        page = text_of(web.get(reverse("edit_hand", args=[match.pk, number])))
        bids = page.split("Bids, in bidding order", 1)[1]
        assert bids.index(f'id="{first}"') < bids.index(f'id="{second}"'), number
    assert reverse("edit_preview", args=[match.pk, 2]) in page


def test_edit_preview_scores_the_hand_being_edited(web, owned):
    match = owned("spades", hands=[{"bids": [4, 5], "tricks": [6, 7]}, {"bids": [3, 3], "tricks": [3, 10]}])
    fields = {"bids_0": "3", "bids_1": "3", "tricks_0": "4", "tricks_1": "9"}
    page = text_of(web.post(reverse("edit_preview", args=[match.pk, 2]), fields, **HX))
    assert re.search(r"Ann</b>\s*<b class=\"pts\">\+31", page)
    assert re.search(r"Bob</b>\s*<b class=\"pts\">\+36", page)
    assert web.post(reverse("edit_preview", args=[match.pk, 3]), fields, **HX).status_code == 404


def test_tricks_that_do_not_add_up_are_counted_next_to_the_tricks(web, owned):
    match = owned("spades")
    fields = {"bids_0": "4", "bids_1": "5", "tricks_0": "7", "tricks_1": "8"}
    page = text_of(web.post(reverse("preview", args=[match.pk]), fields, **HX))
    slot, rest = page.split('id="tricks-entered"', 1)[1].split("</p>", 1)
    assert 'hx-swap-oob="true"' in slot and "Tricks entered: 15 of 13." in slot
    assert "Tricks entered" not in rest and "preview-list" not in page


# ---------------------------------------------------------- new match


@pytest.mark.parametrize(
    ("seats", "words"),
    [
        (["Ann", "Bob", "ann"], "Seats 1 and 3 have the same player (Ann; names are compared ignoring capitals"),
        (["Ann", "", "Bob", "ANN"], "Seats 1 and 4 have the same player (Ann;"),  # the form's numbers
        (["Ann", "Ann", "Ann"], "Seats 1, 2 and 3 have the same player (Ann;"),
    ],
)
def test_new_match_names_the_seats_with_the_same_player(web, seats, words):
    data = {"game": "ohhell", **{f"seat_{i}": name for i, name in enumerate(seats)}}
    response = web.post(reverse("new_match"), data)
    assert response.status_code == 422
    assert words in text_of(response)
    assert Match.objects.count() == 0


def test_the_service_refuses_the_same_player_twice_in_words():
    with pytest.raises(ServiceError, match=r"Seats 2 and 3 have the same player \(Bob;"):
        services.start_match(game="ohhell", player_names=["Ann", "Bob", " bob "], options={})


# ------------------------------------------------------------- Sixty-Six


def test_sixty_six_sheet_says_deals(web, owned):
    deal = {"end": "out", "player": 0, "points": [82, 0], "opponent_took_trick": False}
    match = owned("sixtysix", options={"target": 3}, hands=[deal])
    page = text_of(web.get(reverse("match", args=[match.pk])))
    assert re.search(r"Deals\s*<span class=\"muted\">\(newest first\)", page)
    assert "Undo the last deal" in page and "Undo the last hand" not in page
    assert "Hands" not in page
