"""The words a table reads (issue 28, item 5), in English, Urdu and
Sindhi: a player's field named once ("Fill in Ann's bid.", not "Ann: bid:
this is needed."); Sixty-Six says "deal" where the sheet does; counts in
their plural forms; a game without sides says another player checks each
hand; the bid total only once everyone has bid; lists with the Arabic
comma in Urdu and Sindhi; no two numbers side by side in Urdu or Sindhi.

Spades (RULES.md 2.3), Sixty-Six (4.3) and Oh Hell (5.1: the dealer of
hand 1 is seat 0, who bids last) as the examples."""

from __future__ import annotations

import re

import polib
import pytest
from django.test import Client
from django.utils import translation

from scorekeeper.access.services import issue_link
from scorekeeper.audit import SYSTEM, Actor
from scorekeeper.backups.restore import counted
from scorekeeper.errors import ServiceError
from scorekeeper.i18n import listed
from scorekeeper.matches import services
from scorekeeper.models import Match
from scorekeeper.scoring import get_game

from ..conftest import HX, basis, text_of
from ..tournaments.helpers import client_for, make, publish_next

pytestmark = pytest.mark.django_db

LANGUAGES = {
    "en": {"HTTP_ACCEPT_LANGUAGE": "en"},
    "ur": {"HTTP_ACCEPT_LANGUAGE": "ur"},
    "sd": {"HTTP_ACCEPT_LANGUAGE": "sd"},
}
ALL = pytest.mark.parametrize("lang", list(LANGUAGES))
RIGHT_TO_LEFT = pytest.mark.parametrize("lang", ["ur", "sd"])
ENGLISH_WORD = re.compile(r"\b(?!Ann\b|Bob\b|Cat\b|Dan\b)[A-Za-z]{2,}\b")  # names aside, no English left
SIDE_BY_SIDE = re.compile(r"\d[\s:;،,؛]+\d")  # "2 4": two numbers with nothing between them


def device(token: str, lang: str = "en") -> Client:
    phone = Client(**LANGUAGES[lang])
    phone.post(f"/l/{token}/")
    return phone


def field_error(page: str, name: str) -> str:
    found = re.search(rf'<p id="err-{name}" class="field-error">([^<]*)</p>', page)
    assert found, f"no message by {name}"
    return found.group(1)


def translated(text: str) -> bool:
    return not ENGLISH_WORD.search(text)


# ------------------------------------------------------------ a player's field


@ALL
def test_a_missing_bid_names_the_player_and_the_field_once(owned, web, lang):
    match = owned("spades")
    form = {"bids_1": "5", "tricks_0": "6", "tricks_1": "7", **basis(match)}  # Ann's bid left out
    page = text_of(web.post(f"/matches/{match.pk}/hands/", form, **LANGUAGES[lang]))
    message = field_error(page, "bids_0")
    assert message.count(":") == 0, message  # "Ann: bid: this is needed." no more
    assert "Ann" in message
    if lang == "en":
        assert message == "Fill in Ann's bid."
    else:
        assert translated(message), message
        assert message.endswith("۔" if lang == "ur" else ".")


# ------------------------------------------------------------ Sixty-Six says deal


def sixty_six(organiser) -> tuple[Match, str]:
    match = services.start_match(
        game="sixtysix",
        player_names=["Ann", "Bob"],
        options={"target": 7},
        actor=Actor.organiser(organiser),
        confirm_hands=True,
    )
    return match, issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)[1]


def deal_form(match: Match, **changes) -> dict:
    """Deal 1 as RULES.md's X1: Ann went out with 71 to 38, Bob took a trick."""
    return {
        "end": "out",
        "player": "0",
        "points_0": "71",
        "points_1": "38",
        "opponent_took_trick": "yes",
        **basis(match),
        **changes,
    }


@ALL
def test_sixty_six_messages_say_deal(organiser, lang):
    match, token = sixty_six(organiser)
    phone = device(token, lang)
    words = {
        "card": text_of(phone.post(f"/matches/{match.pk}/hands/", deal_form(match), **HX)),
    }
    other = device(issue_link(match_id=match.pk, label="Bob's phone", actor=SYSTEM)[1], lang)
    words["check page"] = text_of(other.get(f"/matches/{match.pk}/hands/1/check/"))
    words["own entry"] = text_of(device(token, lang).get(f"/matches/{match.pk}/hands/1/check/"))
    fresh = Match.objects.get(pk=match.pk)
    with translation.override(lang):
        with pytest.raises(ServiceError) as missing:
            services.check_hand(match_id=match.pk, number=5, correct=True, version=fresh.version, client_key="k" * 32)
        with pytest.raises(ServiceError) as locked:
            services.check_hand(match_id=match.pk, number=1, correct=True, version=fresh.version, client_key="c" * 32)
            services.edit_hand(
                match_id=match.pk,
                number=1,
                entry={"end": "out", "player": 1, "points": [38, 71], "opponent_took_trick": True},
                version=Match.objects.get(pk=match.pk).version,
                actor=Actor.device(match.access_links.first()),
            )
    words["no such deal"], words["locked"] = missing.value.message, locked.value.message
    # The engine's "Hand 1: ..." (RULES.md 1.3) on the sheet: 240 card points is more than a deal holds.
    words["engine"] = text_of(phone.post(f"/matches/{match.pk}/preview/", {**deal_form(match, points_0="240")}, **HX))
    if lang == "en":
        assert "Pass the phone: check deal 1" in words["card"]
        assert "<h1>Check deal 1</h1>" in words["check page"]
        assert "This screen entered deal 1, so it cannot also confirm it." in words["own entry"]
        assert "Another player checks it" in words["own entry"]
        assert words["no such deal"] == "There is no deal 5 in this match."
        assert words["locked"].startswith("Deal 1 is locked: it was confirmed by another player")
        assert "Deal 2: Ann's card points must be 0 to 230, got 240" in words["engine"]
        for page in words.values():
            assert not re.search(r"\b[Hh]ands? \d", page), page
    else:
        for name in ("no such deal", "locked"):
            assert translated(words[name]), words[name]
        assert "5" in words["no such deal"] and "1" in words["locked"]
        deal = "بازی" if lang == "ur" else "بازي"
        assert f"{deal} 2:" in words["engine"]
        assert "Deal" not in words["card"] and "deal 1" not in words["check page"]


@ALL
def test_the_answer_to_a_deal_marked_as_wrong_says_deal_as_a_warning(organiser, lang):
    match, token = sixty_six(organiser)
    phone = device(token, lang)
    page = phone.post(f"/matches/{match.pk}/hands/", deal_form(match), **HX).content.decode()
    key = re.search(r'name="client_key" value="([^"]+)"', page[page.index("check-actions") :]).group(1)
    answer = {"version": str(Match.objects.get(pk=match.pk).version), "client_key": key, "verdict": "wrong"}
    marked = text_of(phone.post(f"/matches/{match.pk}/hands/1/check/", answer, **HX))
    notice = re.search(r'<p class="banner banner-(\w+)" role="status">([^<]*)</p>', marked)
    assert notice and notice.group(1) == "warning", marked[:2000]
    if lang == "en":
        assert notice.group(2).startswith("Deal 1 is marked as wrong.")
    else:
        assert translated(notice.group(2))


# ------------------------------------------------------------ counts


@ALL
def test_counts_take_their_plural_forms(lang):
    with translation.override(lang):
        said = {(m, t): counted(m, t) for m, t in ((1, 0), (2, 0), (0, 1), (3, 1), (1, 2))}
    if lang == "en":
        assert said == {
            (1, 0): "1 match",
            (2, 0): "2 matches",
            (0, 1): "1 tournament",
            (3, 1): "3 matches and 1 tournament",
            (1, 2): "1 match and 2 tournaments",
        }
    else:
        assert all(translated(words) for words in said.values()), said


def test_the_export_command_counts_in_words(make_match, tmp_path, capsys):
    from django.core.management import call_command

    make_match("spades")
    call_command("export", str(tmp_path / "backup.json"))
    assert "1 match written to" in capsys.readouterr().err


@ALL
def test_revoked_links_are_counted_in_their_plural_form(organiser, lang):
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"])
    table = publish_next(t, organiser).tables.order_by("number").first()  # two links, one per side
    screen = client_for(organiser)
    answer = screen.post(
        f"/tournaments/{t.pk}/tables/{table.pk}/link/", {"action": "revoke"}, follow=True, **LANGUAGES[lang]
    )
    message = re.search(r'<p class="banner banner-success">([^<]*)</p>', text_of(answer)).group(1)
    if lang == "en":
        assert message.startswith("Table 1: 2 links revoked.")
    else:
        assert translated(message) and not SIDE_BY_SIDE.search(message), message


# ------------------------------------------------------------ who checks


def test_only_a_game_with_partnerships_has_sides():
    assert get_game("partnership_spades").spec.has_sides
    assert not any(get_game(g).spec.has_sides for g in ("spades", "drawbridge", "sixtysix", "ohhell"))


@ALL
@pytest.mark.parametrize(("game", "noun"), [("ohhell", "hand"), ("sixtysix", "deal"), ("spades", "hand")])
def test_a_game_without_sides_says_another_player_checks(web, game, noun, lang):
    page = text_of(web.get(f"/matches/new/?game={game}", **LANGUAGES[lang]))
    label = re.search(r'name="confirm_hands"[^>]*>\s*([^<]+)</label>', page).group(1).strip()
    assert "other side" not in page
    if lang == "en":
        assert label == f"Another player checks each {noun}"
        assert f"After a {noun} is saved, another player checks it" in page
    else:
        assert translated(label), label
        assert ("کوئی اور کھلاڑی" if lang == "ur" else "ٻيو رانديگر") in label


@ALL
def test_the_sheet_says_who_has_not_yet_confirmed(organiser, lang):
    """Oh Hell, 4 players, hand 1 (1 card): Bob takes the trick."""
    match = services.start_match(
        game="ohhell",
        player_names=["Ann", "Bob", "Cat", "Dan"],
        options={},
        actor=Actor.organiser(organiser),
        confirm_hands=True,
    )
    token = issue_link(match_id=match.pk, label="table 1", actor=SYSTEM)[1]
    form = {f"bids_{s}": "0" for s in range(4)} | {f"tricks_{s}": str(int(s == 1)) for s in range(4)}
    device(token).post(f"/matches/{match.pk}/hands/", {**form, **basis(match)})
    page = text_of(client_for(organiser).get(f"/matches/{match.pk}/", **LANGUAGES[lang]))
    status = re.search(r'<div class="banner banner-info check-status">\s*<p>([^<]*)</p>', page).group(1).strip()
    if lang == "en":
        assert status == "Not yet confirmed by another player: 1 hand."
    else:
        assert translated(status), status


# ------------------------------------------------------------ Oh Hell's bid total


def oh_hell_preview(web, match, bids: dict[int, int], lang: str) -> str:
    form = {f"bids_{seat}": str(bid) for seat, bid in bids.items()}
    return text_of(web.post(f"/matches/{match.pk}/preview/", {**form, **basis(match)}, **LANGUAGES[lang]))


@ALL
def test_the_bid_total_waits_for_the_dealer(owned, web, lang):
    """Hand 1 of 4 players, 1 card: Ann deals and bids last (Bob, Cat, Dan,
    Ann). Bob 1 and Cat 0: 1 bid so far, Dan and Ann still to bid."""
    match = owned("ohhell")
    page = oh_hell_preview(web, match, {1: 1, 2: 0}, lang)
    line = re.search(r'<p class="bid-total">([^<]*)</p>', page).group(1)
    comma = ", " if lang == "en" else "، "
    assert f"Dan{comma}Ann" in line
    if lang == "en":
        assert line == "Bid so far 1 of 1; still to bid: Dan, Ann."
        assert "exactly the cards dealt" not in page
    else:
        assert translated(line), line
    # Everyone has bid (Dan 0, Ann 0): the total and what it means.
    page = oh_hell_preview(web, match, {0: 0, 1: 1, 2: 0, 3: 0}, lang)
    line = " ".join(re.search(r'<p class="bid-total">(.*?)</p>', page, re.S).group(1).split())
    if lang == "en":
        assert line == "Total bid 1 of 1: exactly the cards dealt"
    else:
        assert translated(line), line


# ------------------------------------------------------------ lists and numbers


@ALL
def test_lists_are_joined_with_the_languages_comma(lang):
    with translation.override(lang):
        assert listed(["Ann", "Bob", "Cat"]) == ("Ann, Bob, Cat" if lang == "en" else "Ann، Bob، Cat")


NUMBERS = {"n", "done", "all", "t", "r", "number", "total", "c", "a", "b", "lo", "hi", "bid", "took", "points"}
PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])|\{(\w+)\}")


def as_shown(message: str) -> str:
    """A message with its numbers put in (7) and its words (a name)."""

    def value(m: re.Match) -> str:
        name = m.group(1) or m.group(3)
        return "7" if m.group(2) == "d" or name in NUMBERS else "Ann"

    return PLACEHOLDER.sub(value, message)


@RIGHT_TO_LEFT
def test_no_message_puts_two_numbers_side_by_side(lang):
    """Right to left, "2 4" reads as one number or the wrong way round: a
    translation keeps a word between two numbers where the English does."""
    catalogue = polib.pofile(f"locale/{lang}/LC_MESSAGES/django.po")
    found = []
    for entry in catalogue.translated_entries():
        texts = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        if SIDE_BY_SIDE.search(as_shown(entry.msgid)):
            continue  # the English has them so too ("1, 2, 3 … cards")
        found += [f"{entry.msgid!r}: {text}" for text in texts if SIDE_BY_SIDE.search(as_shown(text))]
    assert not found, "\n".join(found)


@RIGHT_TO_LEFT
def test_a_round_heading_keeps_its_numbers_apart(organiser, lang):
    """ "Round 1" then "tables finished 0 of 2" in one heading: in Urdu the
    second once began with a number ("راؤنڈ 1 2 میں سے 0")."""
    t = make(organiser, ["Ann", "Bob", "Cat", "Dan"], is_public=True)
    publish_next(t, organiser)
    for page in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/standings/"):
        html = text_of(client_for(organiser).get(page, **LANGUAGES[lang]))
        heading = re.search(r'<h2 id="(?:current-round|live-title)">(.*?)</h2>', html, re.S).group(1)
        words = " ".join(re.sub(r"<[^>]+>", " ", heading).split())
        assert not SIDE_BY_SIDE.search(words), words
