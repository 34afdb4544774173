"""The engine's words reach the reader in the reader's language.

The engine (no Django) says everything in English and remembers the
message each sentence was made from; the app translates it where it is
shown. Checked here with a small test catalogue (the real Urdu and Sindhi
catalogues are written by the translators): a bad hand's message and a
why-line come out translated through the preview, the save and the sheet,
and the English words are exactly what they were.
"""

from __future__ import annotations

import pickle
import struct

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from scorekeeper.audit import Actor
from scorekeeper.i18n import shown, shown_spec
from scorekeeper.matches.selectors import match_history
from scorekeeper.scoring import InvalidHand, get_game, preview_hand, score_match
from scorekeeper.scoring.base import Text

from .conftest import HX, basis, deal, play, text_of

pytestmark = pytest.mark.django_db

# A test catalogue, in Urdu words: msgid -> msgstr (a tuple: the plural forms).
URDU = {
    "Hand %(number)s: %(problem)s": "ہاتھ %(number)s: %(problem)s",
    (
        "tricks add up to %(total)s, but %(n)s trick is played",
        "tricks add up to %(total)s, but %(n)s tricks are played",
    ): (
        "چالوں کا جوڑ %(total)s ہے، مگر %(n)s چال کھیلی جاتی ہے",
        "چالوں کا جوڑ %(total)s ہے، مگر %(n)s چالیں کھیلی جاتی ہیں",
    ),
    (
        "bid %(bid)s, took %(took)s: %(points)s + %(bags)s bag",
        "bid %(bid)s, took %(took)s: %(points)s + %(bags)s bags",
    ): (
        "بولی %(bid)s، لیں %(took)s: %(points)s + %(bags)s بیگ",
        "بولی %(bid)s، لیں %(took)s: %(points)s + %(bags)s بیگز",
    ),
    "%(nil)s made: +%(value)s": "%(nil)s پوری: +%(value)s",
    "Nil": "نل",
    "the bids add up to %(total)s in a %(cards)s-card hand; %(dealer)s deals and may not bid %(bid)s (the hook)": (
        "بولیوں کا جوڑ %(total)s ہے، %(cards)s پتوں کا ہاتھ؛ %(dealer)s بانٹتا ہے اور %(bid)s نہیں بول سکتا (ہُک)"
    ),
    "Spades": "سپیڈز",
    "Bid": "بولی",
    "deal recorded": "ڈیل درج ہوئی",
    "organiser %(name)s": "منتظم %(name)s",
}
ENGLISH_PROBLEM = "Hand 1: tricks add up to 15, but 13 tricks are played"
URDU_PROBLEM = "ہاتھ 1: چالوں کا جوڑ 15 ہے، مگر 13 چالیں کھیلی جاتی ہیں"


def write_mo(path, catalogue: dict) -> None:
    """A GNU .mo file of ``catalogue`` (msgfmt is not needed to run the tests)."""
    header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n != 1);\n"
    pairs = {"": header}
    for key, value in catalogue.items():
        msgid = "\0".join(key) if isinstance(key, tuple) else key
        pairs[msgid] = "\0".join(value) if isinstance(value, tuple) else value
    ids = sorted(pairs)
    keys = [k.encode() for k in ids]
    values = [pairs[k].encode() for k in ids]
    n = len(ids)
    start = 7 * 4 + 16 * n
    offsets, blob = [], b""
    for data in keys + values:
        offsets.append((len(data), start + len(blob)))
        blob += data + b"\0"
    table = b"".join(struct.pack("<2I", *o) for o in offsets)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0) + table + blob)


@pytest.fixture
def urdu(tmp_path):
    """Translation on, with the test catalogue as Urdu."""
    write_mo(tmp_path / "ur" / "LC_MESSAGES" / "django.mo", URDU)
    # Django picks its translation functions by USE_I18N once; forget them
    # so that turning it on here takes effect (django.utils.translation.Trans).
    translation._trans.__dict__.clear()
    try:
        with override_settings(
            USE_I18N=True, LOCALE_PATHS=[tmp_path], LANGUAGES=[("en", "English"), ("ur", "Urdu")], LANGUAGE_CODE="en"
        ):
            yield
    finally:
        translation._trans.__dict__.clear()


def in_urdu(web, method, url, data=None, **extra):
    """A request from an Urdu reader, with or without the middleware that
    chooses the language from the request (the language is active either way)."""
    with translation.override("ur"):
        return getattr(web, method)(url, data or {}, HTTP_ACCEPT_LANGUAGE="ur", **extra)


def in_english(web, method, url, data=None, **extra):
    with translation.override("en"):
        return getattr(web, method)(url, data or {}, HTTP_ACCEPT_LANGUAGE="en", **extra)


TRICKS_TOO_MANY = {"bids_0": "4", "bids_1": "5", "tricks_0": "7", "tricks_1": "8"}


HOOKED = {f"{name}_{seat}": value for seat, value in enumerate((1, 0, 0)) for name in ("bids", "tricks")}
ENGLISH_HOOK = "Hand 1: the bids add up to 1 in a 1-card hand; Ann deals and may not bid 1 (the hook)"
URDU_HOOK = "ہاتھ 1: بولیوں کا جوڑ 1 ہے، 1 پتوں کا ہاتھ؛ Ann بانٹتا ہے اور 1 نہیں بول سکتا (ہُک)"


def test_a_bad_hands_message_is_shown_in_urdu_in_the_preview(urdu, web, owned):
    match = owned("ohhell", names=["Ann", "Bob", "Cat"], options={"hook": True})
    page = text_of(in_urdu(web, "post", reverse("preview", args=[match.pk]), HOOKED, **HX))
    assert URDU_HOOK in page
    assert ENGLISH_HOOK not in page


def test_a_bad_hand_refused_on_saving_says_why_in_urdu(urdu, web, owned):
    match = owned("spades")
    response = in_urdu(web, "post", reverse("record_hand", args=[match.pk]), {**basis(match), **TRICKS_TOO_MANY}, **HX)
    assert URDU_PROBLEM in text_of(response)
    assert match.hands.count() == 0


def test_a_why_line_and_the_games_words_are_shown_in_urdu(urdu, web, owned):
    match = owned("spades")
    fields = {"bids_0": "4", "bids_1": "0", "tricks_0": "13", "tricks_1": "0"}
    page = text_of(in_urdu(web, "post", reverse("preview", args=[match.pk]), fields, **HX))
    assert "بولی 4، لیں 13: 40 + 9 بیگز" in page  # Ann: the plural form chosen for 9 bags
    assert "نل پوری: +100" in page  # Bob's Nil, the word inside the line translated too
    sheet = text_of(in_urdu(web, "get", match.get_absolute_url()))
    assert "سپیڈز" in sheet  # the game's name


def test_english_is_unchanged_with_translation_on(urdu, web, owned):
    hooked = owned("ohhell", names=["Ann", "Bob", "Cat"], options={"hook": True})
    page = text_of(in_english(web, "post", reverse("preview", args=[hooked.pk]), HOOKED, **HX))
    assert ENGLISH_HOOK in page
    match = owned("spades")
    response = in_english(
        web, "post", reverse("record_hand", args=[match.pk]), {**basis(match), **TRICKS_TOO_MANY}, **HX
    )
    assert ENGLISH_PROBLEM in text_of(response)
    fields = {"bids_0": "4", "bids_1": "0", "tricks_0": "13", "tricks_1": "0"}
    page = text_of(in_english(web, "post", reverse("preview", args=[match.pk]), fields, **HX))
    assert "bid 4, took 13: 40 + 9 bags" in page
    assert "Nil made: +100" in page


def test_english_is_unchanged_with_translation_off(web, owned):
    hooked = owned("ohhell", names=["Ann", "Bob", "Cat"], options={"hook": True})
    assert ENGLISH_HOOK in text_of(web.post(reverse("preview", args=[hooked.pk]), HOOKED, **HX))
    match = owned("spades")
    response = web.post(reverse("record_hand", args=[match.pk]), {**basis(match), **TRICKS_TOO_MANY}, **HX)
    assert ENGLISH_PROBLEM in text_of(response)


def test_the_engines_words_are_english_data_that_remember_their_message():
    match = {"game": "spades", "players": ["Ann", "Bob"], "hands": [{"bids": [4, 5], "tricks": [7, 8]}]}
    with pytest.raises(InvalidHand) as caught:
        score_match(match)
    error = caught.value
    assert str(error) == ENGLISH_PROBLEM and error.message == ENGLISH_PROBLEM
    assert type(str(error)) is str  # the exception's words are a plain str
    assert error.message.msgid == "Hand %(number)s: %(problem)s"
    assert pickle.loads(pickle.dumps(error.message)).translated(str, lambda s, p, n: s if n == 1 else p) == (
        ENGLISH_PROBLEM
    )

    why = preview_hand({**match, "hands": []}, {"bids": [4, 0], "tricks": [13, 0]})["hand"]["why"]
    assert why == ["bid 4, took 13: 40 + 9 bags", "Nil made: +100"]
    assert all(isinstance(line, Text) for line in why)
    # Scoring a whole match builds no why-lines: nobody reads them there.
    assert "why" not in score_match({**match, "hands": [{"bids": [4, 0], "tricks": [13, 0]}]})["hands"][0]


def test_the_games_description_is_translated_for_the_pages_only(urdu):
    spades = get_game("spades").spec
    with translation.override("ur"):
        shown_spades = shown_spec(spades)
        assert shown_spades.name == "سپیڈز"
        assert shown_spades.hand_fields[0].label == "بولی"
        assert dict(shown_spades.hand_fields[0].choices)[0] == "نل"
        assert shown(spades.name) == "سپیڈز"
    assert spades.name == "Spades" and spades.hand_fields[0].label == "Bid"  # the engine's own, untouched
    with translation.override("en"):
        assert shown_spec(spades).name == "Spades"


def test_the_history_of_changes_says_what_and_who_in_the_readers_language(urdu, make_match, organiser):
    match = make_match("sixtysix")
    play(match, deal("out", 0, [70, 30]), actor=Actor.organiser(organiser))
    with translation.override("ur"):
        change = match_history(match)[0]
    assert (change.action, change.who) == ("ڈیل درج ہوئی", "منتظم olga")
    assert change.event.actor == "organiser olga"  # stored as English data
    with translation.override("en"):
        change = match_history(match)[0]
    assert (change.action, change.who) == ("deal recorded", "organiser olga")


def test_standings_drawn_for_one_language_are_not_shown_in_another(urdu, db):
    from types import SimpleNamespace

    from scorekeeper.tournaments.standings_cache import drawn_standings

    event = SimpleNamespace(pk=987654)
    with translation.override("ur"):
        assert drawn_standings(event, "g1", lambda: "<td>ٹیبل 3</td>") == "<td>ٹیبل 3</td>"
    with translation.override("en"):
        assert drawn_standings(event, "g1", lambda: "<td>Table 3</td>") == "<td>Table 3</td>"
    with translation.override("ur"):
        assert drawn_standings(event, "g1", lambda: "drawn again") == "<td>ٹیبل 3</td>"  # kept, per language
