"""The other side confirms each saved hand, as Bridgemate has East verify
what North entered: on the phone that entered it (the card "Pass the
phone: check hand 1") or from another screen; never from another screen of
the same link or login. A confirmed hand is locked for the table's links;
an organiser may still correct it, and that correction is named in the
history of changes.

Points are worked out from RULES.md (Spades: a made bid b with t tricks
scores 10 * b + (t - b)): bids 4 and 5, tricks 6 and 7 give Ann 42 (40 +
2 bags) and Bob 52 (50 + 2 bags)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.errors import ServiceError
from scorekeeper.matches import services
from scorekeeper.models import AuditEvent, Hand, Match

from ..conftest import HX, MODEL_BACKEND, basis, snapshot, text_of

pytestmark = pytest.mark.django_db

HAND = {"bids": [4, 5], "tricks": [6, 7]}
OTHER = {"bids": [3, 3], "tricks": [3, 10]}


def hand_form(match: Match, entry=HAND) -> dict:
    return {
        "bids_0": str(entry["bids"][0]),
        "bids_1": str(entry["bids"][1]),
        "tricks_0": str(entry["tricks"][0]),
        "tricks_1": str(entry["tricks"][1]),
        **basis(match),
    }


def edit_form(match: Match, entry=OTHER) -> dict:
    form = hand_form(match, entry)
    return {
        **{k: v for k, v in form.items() if k not in ("number", "bidding", "client_key")},
        "version": version(match),
    }


def version(match: Match) -> str:
    return str(Match.objects.get(pk=match.pk).version)


def state(match: Match, number: int = 1) -> str:
    return Hand.objects.get(match=match, number=number).confirmation


def device(token: str) -> Client:
    """A phone that opened the scoring link ``token``."""
    phone = Client()
    phone.post(f"/l/{token}/")
    return phone


def organiser_screen(user) -> Client:
    screen = Client()
    screen.force_login(user, backend=MODEL_BACKEND)
    return screen


@pytest.fixture
def match(organiser) -> Match:
    return services.start_match(
        game="spades", player_names=["Ann", "Bob"], options={}, actor=Actor.organiser(organiser), confirm_hands=True
    )


@pytest.fixture
def token(match) -> str:
    return issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)[1]


def card_form(page: str, verdict: str = "correct") -> dict:
    """What the card's button posts: its hidden fields and the verdict."""
    found = re.search(r'<form method="post" action="(/matches/\d+/hands/\d+/check/)"', page)
    assert found, "no card to answer on the page"
    hidden = dict(re.findall(r'<input type="hidden" name="(version|client_key)" value="([^"]*)"', page))
    return found.group(1), {**hidden, "verdict": verdict}


def save_on(phone: Client, match: Match, entry=HAND, **headers):
    return phone.post(f"/matches/{match.pk}/hands/", hand_form(match, entry), **headers)


# ------------------------------------------------------------ the same phone


def test_the_phone_that_entered_a_hand_shows_the_card_to_pass_across(match, token):
    phone = device(token)
    saved = save_on(phone, match, **HX)
    page = text_of(saved)
    assert "Pass the phone: check hand 1" in page
    # Each player's points, why, and the totals after the hand.
    assert re.search(r"Ann\s*</span>\s*<b class=\"pts\">\+42</b>", page)
    assert "bid 4, took 6: 40 + 2 bags" in page
    assert "bid 5, took 7: 50 + 2 bags" in page
    assert "total 52" in page
    assert state(match) == "pending"

    # Without JavaScript: the redirect's page shows the same card.
    reloaded = text_of(phone.get(f"/matches/{match.pk}/"))
    assert "Pass the phone: check hand 1" in reloaded
    url, answer = card_form(phone.get(f"/matches/{match.pk}/").content.decode())
    confirmed = phone.post(url, answer, follow=True)
    assert "Hand 1 confirmed: it is locked now." in text_of(confirmed)
    assert "Pass the phone" not in text_of(confirmed)
    assert state(match) == "confirmed"
    assert Match.objects.get(pk=match.pk).unconfirmed_hands == 0
    event = AuditEvent.objects.get(match=match, action="hand confirmed")
    assert event.hand_number == 1 and event.actor == "device (table 1)"


def test_the_card_on_the_sheet_answers_in_place_with_htmx(match, token):
    phone = device(token)
    saved = save_on(phone, match, **HX).content.decode()
    assert f'hx-post="/matches/{match.pk}/hands/1/check/"' in saved
    assert "csrfmiddlewaretoken" not in saved  # htmx sends the token in a header
    url, answer = card_form(saved)
    confirmed = phone.post(url, answer, **HX)
    page = text_of(confirmed)
    assert confirmed.status_code == 200
    assert "Hand 1 confirmed: it is locked now." in page
    assert "Pass the phone" not in page
    assert 'id="history"' in page and "is-confirmed" in page  # the hands, out of band
    assert state(match) == "confirmed"


def test_a_refused_answer_with_htmx_is_a_403_in_words(match, token):
    save_on(device(token), match)
    answer = {"version": version(match), "client_key": "k" * 32, "verdict": "correct"}
    refused = device(token).post(f"/matches/{match.pk}/hands/1/check/", answer, **HX)
    assert refused.status_code == 403
    assert refused["Content-Type"].startswith("text/plain")
    assert refused.content.decode().startswith("This screen entered hand 1, so it cannot also confirm it.")


def test_the_next_hand_can_be_entered_while_one_waits_and_later_closes_the_card(match, token):
    phone = device(token)
    save_on(phone, match)
    later = text_of(phone.get(f"/matches/{match.pk}/?later=1"))
    assert "Pass the phone" not in later
    assert "not yet confirmed" in later  # the row's mark, for screen readers too
    assert "Not yet confirmed by another player: 1 hand." in later  # Spades for two: no sides
    assert save_on(phone, match, OTHER).status_code == 302
    assert Match.objects.get(pk=match.pk).hands_played == 2
    # The card asks for the oldest hand first.
    assert "check hand 1" in text_of(phone.get(f"/matches/{match.pk}/"))


def test_a_casual_match_asks_nobody_by_default(make_match, web):
    match = make_match("spades", hands=[HAND])
    page = text_of(web.get(f"/matches/{match.pk}/"))
    assert "Pass the phone" not in page and "not yet confirmed" not in page
    assert Hand.objects.get(match=match).confirmation == ""


def test_the_new_match_form_turns_confirmation_on_when_ticked(web):
    form = {"game": "spades", "seat_0": "Ann", "seat_1": "Bob", "target": "500"}
    web.post("/matches/new/", form)
    web.post("/matches/new/", {**form, "confirm_hands": "on"})
    assert list(Match.objects.order_by("pk").values_list("confirm_hands", flat=True)) == [False, True]


# ------------------------------------------------------------ another screen


def test_another_device_confirms_from_its_own_screen(match, token):
    phone = device(token)
    save_on(phone, match)
    other = device(issue_link(match_id=match.pk, label="table 1, second phone", actor=SYSTEM)[1])
    sheet = text_of(other.get(f"/matches/{match.pk}/"))
    assert "Pass the phone" not in sheet  # it did not enter the hand
    check = other.get(f"/matches/{match.pk}/hands/1/check/")
    assert "bid 4, took 6: 40 + 2 bags" in text_of(check)
    url, answer = card_form(check.content.decode())
    assert other.post(url, answer).status_code == 302
    assert state(match) == "confirmed"
    # The entering phone no longer shows the card.
    assert "Pass the phone" not in text_of(phone.get(f"/matches/{match.pk}/"))


def test_an_organiser_confirms_what_a_table_link_entered(match, token, organiser):
    save_on(device(token), match)
    screen = organiser_screen(organiser)
    url, answer = card_form(screen.get(f"/matches/{match.pk}/hands/1/check/").content.decode())
    assert screen.post(url, answer).status_code == 302
    assert state(match) == "confirmed"


def test_a_second_screen_of_the_same_link_cannot_confirm(match, token):
    save_on(device(token), match)
    same_link = device(token)  # the table's link opened on another phone
    check = same_link.get(f"/matches/{match.pk}/hands/1/check/")
    assert "This screen entered hand 1, so it cannot also confirm it." in text_of(check)
    before = snapshot(match)
    answer = {"version": version(match), "client_key": "k" * 32, "verdict": "correct"}
    refused = same_link.post(f"/matches/{match.pk}/hands/1/check/", answer)
    assert refused.status_code == 403
    assert "This screen entered hand 1, so it cannot also confirm it." in text_of(refused)
    assert snapshot(match) == before and state(match) == "pending"


def test_a_second_screen_of_the_same_organiser_login_cannot_confirm(match, organiser):
    first = organiser_screen(organiser)
    save_on(first, match)
    second = organiser_screen(organiser)
    before = snapshot(match)
    answer = {"version": version(match), "client_key": "k" * 32, "verdict": "correct"}
    refused = second.post(f"/matches/{match.pk}/hands/1/check/", answer)
    assert refused.status_code == 403
    assert snapshot(match) == before
    # The screen that entered it passes itself across: its card confirms.
    url, answer = card_form(first.get(f"/matches/{match.pk}/").content.decode())
    assert first.post(url, answer).status_code == 302
    assert state(match) == "confirmed"


def test_a_spectator_cannot_confirm(match, token, client):
    save_on(device(token), match)
    answer = {"version": version(match), "client_key": "k" * 32, "verdict": "correct"}
    assert client.post(f"/matches/{match.pk}/hands/1/check/", answer).status_code == 403
    assert state(match) == "pending"


# ------------------------------------------------------------ something is wrong


def test_something_is_wrong_reopens_the_hand_for_the_table_to_correct(match, token, organiser):
    phone = device(token)
    save_on(phone, match)
    url, answer = card_form(phone.get(f"/matches/{match.pk}/").content.decode(), "wrong")
    marked = phone.post(url, answer, follow=True)
    assert "Hand 1 is marked as wrong." in text_of(marked)
    assert "marked as wrong" in text_of(marked)  # the row's mark
    assert state(match) == "disputed"
    assert Match.objects.get(pk=match.pk).unconfirmed_hands == 1

    # The table corrects it: waiting for the other side again, card and all.
    edited = phone.post(f"/matches/{match.pk}/hands/1/edit/", edit_form(match), follow=True)
    assert edited.status_code == 200
    assert state(match) == "pending"
    assert Hand.objects.get(match=match).entry == OTHER
    assert "Pass the phone: check hand 1" in text_of(edited)

    # Both versions are in the history of changes.
    history = text_of(organiser_screen(organiser).get(f"/matches/{match.pk}/history/"))
    assert "Hand disputed" in history
    assert "before: Ann bid 4, took 6 · Bob bid 5, took 7" in history
    assert "after: Ann bid 3, took 3 · Bob bid 3, took 10" in history


# ------------------------------------------------------------ locked hands


def test_a_confirmed_hand_refuses_every_write_from_a_table_link(match, token):
    phone = device(token)
    save_on(phone, match)
    url, answer = card_form(phone.get(f"/matches/{match.pk}/").content.decode())
    phone.post(url, answer)
    before = snapshot(match)
    sheet = text_of(phone.get(f"/matches/{match.pk}/"))
    assert f'href="/matches/{match.pk}/hands/1/edit/"' not in sheet  # no Edit link on a locked row
    attempts = [
        phone.get(f"/matches/{match.pk}/hands/1/edit/"),
        phone.post(f"/matches/{match.pk}/hands/1/edit/", edit_form(match)),
        phone.post(f"/matches/{match.pk}/undo/", {"version": version(match)}),
    ]
    for refused in attempts:
        assert refused.status_code == 403
        assert "Hand 1 is locked" in text_of(refused)
    event = AuditEvent.objects.get(match=match, action="hand recorded")
    restore = phone.post(
        f"/matches/{match.pk}/history/", {"event": event.pk, "which": "after", "version": version(match)}
    )
    assert restore.status_code == 403
    assert snapshot(match) == before


def test_an_organiser_correction_of_a_confirmed_hand_is_recorded(match, token, organiser):
    phone = device(token)
    save_on(phone, match)
    url, answer = card_form(phone.get(f"/matches/{match.pk}/").content.decode())
    phone.post(url, answer)
    screen = organiser_screen(organiser)
    assert screen.post(f"/matches/{match.pk}/hands/1/edit/", edit_form(match)).status_code == 302
    assert Hand.objects.get(match=match).entry == OTHER
    assert state(match) == "confirmed"  # the organiser's word stands
    history = text_of(screen.get(f"/matches/{match.pk}/history/"))
    assert re.search(
        r"Corrected after confirmation</b> · hand 1\s*<span class=\"muted\">· [^<]+ · organiser olga", history
    )


# ------------------------------------------------------------ what an answer is based on


def test_a_stale_confirmation_is_refused_and_changes_nothing(match, token):
    phone = device(token)
    save_on(phone, match)
    url, answer = card_form(phone.get(f"/matches/{match.pk}/").content.decode())
    save_on(phone, match, OTHER)  # hand 2 saved since the card was drawn
    before = snapshot(match)
    refused = phone.post(url, answer)
    assert refused.status_code == 409
    assert "Someone else changed this match while you were editing. Nothing was saved" in text_of(refused)
    assert snapshot(match) == before and state(match) == "pending"


def test_the_same_answer_sent_twice_counts_once(match, token):
    phone = device(token)
    save_on(phone, match)
    other = device(issue_link(match_id=match.pk, label="second phone", actor=SYSTEM)[1])
    url, answer = card_form(other.get(f"/matches/{match.pk}/hands/1/check/").content.decode())
    assert other.post(url, answer).status_code == 302
    after_first = snapshot(match)
    again = other.post(url, answer, follow=True)  # a double tap, or a retry after a timeout
    assert again.status_code == 200
    assert "Hand 1 confirmed" in text_of(again)
    assert snapshot(match) == after_first
    assert AuditEvent.objects.filter(match=match, action="hand confirmed").count() == 1


def test_an_answer_without_its_basis_is_refused_in_words(match, token):
    phone = device(token)
    save_on(phone, match)
    refused = phone.post(f"/matches/{match.pk}/hands/1/check/", {"verdict": "correct"})
    assert refused.status_code == 400
    assert "Nothing was saved" in refused.content.decode()
    assert state(match) == "pending"


def test_the_service_refuses_a_hand_with_nothing_to_check(match):
    """A hand already confirmed, or no such hand: refused by the service itself."""
    services.record_hand(match_id=match.pk, entry=HAND, number=1, bidding_in_force=None, client_key="a" * 32)
    fresh = Match.objects.get(pk=match.pk)
    checked = services.check_hand(
        match_id=match.pk, number=1, correct=True, version=fresh.version, client_key="b" * 32, actor=SYSTEM
    )
    assert checked.created and checked.verdict == "confirmed"
    fresh = Match.objects.get(pk=match.pk)
    for number in (1, 2):
        with pytest.raises(ServiceError) as error:
            services.check_hand(
                match_id=match.pk, number=number, correct=True, version=fresh.version, client_key="c" * 32
            )
        assert error.value.code == ("conflict" if number == 1 else "not_found")


def test_the_services_refuse_a_table_links_change_of_a_confirmed_hand(match, token, organiser):
    """The lock holds in the services too, whatever page a write came from."""
    from scorekeeper.models import AccessLink

    services.record_hand(match_id=match.pk, entry=HAND, number=1, bidding_in_force=None, client_key="a" * 32)
    services.record_hand(match_id=match.pk, entry=OTHER, number=2, bidding_in_force=None, client_key="b" * 32)
    for number, key in ((1, "c"), (2, "d")):
        fresh = Match.objects.get(pk=match.pk)
        services.check_hand(match_id=match.pk, number=number, correct=True, version=fresh.version, client_key=key * 32)
    link = Actor.device(AccessLink.objects.get(match=match))
    before = snapshot(match)
    writes = [
        lambda v: services.edit_hand(match_id=match.pk, number=1, entry=OTHER, version=v, actor=link),
        lambda v: services.undo_last_hand(match_id=match.pk, version=v, actor=link),
        lambda v: services.restore_hand(
            match_id=match.pk,
            event_id=AuditEvent.objects.get(match=match, action="hand recorded", hand_number=1).pk,
            which="after",
            version=v,
            actor=link,
        ),
    ]
    for write in writes:
        with pytest.raises(ServiceError) as error:
            write(Match.objects.get(pk=match.pk).version)
        assert error.value.code == "locked"
    assert snapshot(match) == before
    services.undo_last_hand(match_id=match.pk, version=before["version"], actor=Actor.organiser(organiser))
    assert Match.objects.get(pk=match.pk).hands_played == 1
    assert AuditEvent.objects.filter(match=match, action="corrected after confirmation", hand_number=2).exists()


def test_the_last_hand_is_checked_after_the_end_from_the_other_phone(organiser):
    """The hand that ends the match leaves the table's links open for the
    other side's check only; once it is confirmed the match counts and
    they close for everything."""
    match = services.start_match(
        game="spades",
        player_names=["Ann", "Bob"],
        options={"target": 100},
        actor=Actor.organiser(organiser),
        confirm_hands=True,
    )
    phone = device(issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)[1])
    other = device(issue_link(match_id=match.pk, label="table 1, Bob", actor=SYSTEM)[1])
    save_on(phone, match, {"bids": [10, 2], "tricks": [11, 2]})  # Ann 101: over
    assert Match.objects.get(pk=match.pk).links_closed_at is None  # open for the check, and only for it
    assert other.post(f"/matches/{match.pk}/undo/", {"version": version(match)}).status_code == 403
    url, answer = card_form(other.get(f"/matches/{match.pk}/hands/1/check/").content.decode())
    assert other.post(url, answer).status_code == 302
    assert state(match) == "confirmed"
    assert Match.objects.get(pk=match.pk).links_closed_at is not None


# ------------------------------------------------------------ the Check link


def check_link(screen: Client, match: Match, number: int = 1) -> bool:
    return f'href="/matches/{match.pk}/hands/{number}/check/"' in screen.get(f"/matches/{match.pk}/").content.decode()


def answer_taken(screen: Client, match: Match, number: int = 1) -> bool:
    """Does this screen's answer to the check page's card go through?"""
    page = screen.get(f"/matches/{match.pk}/hands/{number}/check/").content.decode()
    if 'name="verdict"' not in page:
        return False
    url, answer = card_form(page)
    return screen.post(url, answer).status_code == 302


def test_a_second_screen_of_the_organiser_who_entered_a_hand_shows_no_check_link(match, organiser):
    first, second = organiser_screen(organiser), organiser_screen(organiser)
    save_on(first, match)
    assert not check_link(second, match)
    assert "This screen entered hand 1, so it cannot also confirm it." in text_of(
        second.get(f"/matches/{match.pk}/hands/1/check/")
    )
    assert state(match) == "pending"


def test_a_check_link_is_shown_exactly_where_the_answer_is_taken(match, token, organiser):
    """Hand 1 entered by the table's link, hand 2 by the organiser: each
    screen shows a Check link for the hand it may answer, and only there."""
    table, other_link = device(token), device(issue_link(match_id=match.pk, label="Bob's phone", actor=SYSTEM)[1])
    save_on(table, match)
    save_on(organiser_screen(organiser), match, OTHER)
    screens = {"table": table, "organiser": organiser_screen(organiser), "Bob's phone": other_link}
    shown = {(name, n): check_link(screen, match, n) for name, screen in screens.items() for n in (1, 2)}
    assert shown == {
        ("table", 1): False,  # it entered hand 1 (its own card asks to pass the phone)
        ("table", 2): True,
        ("organiser", 1): True,
        ("organiser", 2): False,  # the organiser's login entered hand 2
        ("Bob's phone", 1): True,
        ("Bob's phone", 2): True,
    }
    assert not answer_taken(screens["organiser"], match, 2)
    assert answer_taken(screens["organiser"], match, 1)
    assert answer_taken(screens["table"], match, 2)
    assert state(match, 1) == state(match, 2) == "confirmed"
    assert not any(check_link(screen, match, n) for screen in screens.values() for n in (1, 2))


def test_no_check_link_once_the_organiser_accepted_the_match_as_it_is(organiser):
    """Ann 101 ends a Spades match to 100 (bid 10, took 11: 100 + 1 bag);
    the organiser accepts it unchecked: every answer would be refused, so
    no screen is offered one."""
    match = services.start_match(
        game="spades",
        player_names=["Ann", "Bob"],
        options={"target": 100},
        actor=Actor.organiser(organiser),
        confirm_hands=True,
    )
    token = issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)[1]
    save_on(device(token), match, {"bids": [10, 2], "tricks": [11, 2]})
    screen = organiser_screen(organiser)
    assert check_link(screen, match)
    screen.post(f"/matches/{match.pk}/accept/", {"version": version(match)})
    assert Match.objects.get(pk=match.pk).accepted_at is not None
    assert not check_link(screen, match)
    assert "Hand 1 needs no check." in text_of(screen.get(f"/matches/{match.pk}/hands/1/check/"))


def test_no_check_link_on_an_abandoned_match(match, token, organiser):
    save_on(device(token), match)
    screen = organiser_screen(organiser)
    screen.post(f"/matches/{match.pk}/abandon/", {"version": version(match)})
    assert Match.objects.get(pk=match.pk).status == "abandoned"
    assert not check_link(screen, match)
