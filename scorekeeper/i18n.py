"""The engine's words in the reader's language.

The rules engine (``scorekeeper.scoring``) knows no Django: its messages,
why-lines, labels and game names are English ``Text`` values that remember
the message they were made from (see ``scoring/base.py``). Nothing the
engine says is stored translated: hands, audit entries and backups keep
data, and the words are translated here, where a page or a message shows
them, in the language of the request.

``shown(value)``: a ``Text`` (or a list of them: a hand's why-lines)
translated; anything else unchanged. ``shown_spec(spec)``: a game's
description with every label, help, choice and noun translated, for the
pages and forms that show them (the engine's own spec is left alone:
compare ``spec.id``, not its words).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.autoreload import file_changed
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, gettext_noop, ngettext, pgettext

from .scoring import GameSpec, game_specs, get_game
from .scoring.base import Text, side_name, translate


def shown(value: Any) -> Any:
    """Engine words in the active language (English: the same words)."""
    if not settings.USE_I18N:
        return value  # the English words, already made
    return translate(value, gettext, ngettext)


# The engine names a hand in its messages "Hand 3: ..." (RULES.md 1.3, scoring/engine.py); a game
# whose table calls it a deal (Sixty-Six) says "Deal 3: ..." on its pages.
IN_HAND = "Hand %(number)s: %(problem)s"
IN_DEAL = gettext_noop("Deal %(number)s: %(problem)s")


def shown_message(error: BaseException | str, game: GameSpec | str | None = None) -> str:
    """An engine error (InvalidHand, or its message) as its reader should
    see it; ``game`` (its spec or id): the hand named in the game's word."""
    message = getattr(error, "message", None) or error
    if game is not None and isinstance(message, Text) and message.msgid == IN_HAND and plays_deals(game):
        message = Text(IN_DEAL, params=message.params)
    return shown(message) if isinstance(message, Text) else str(message)


def shown_specs() -> list[GameSpec]:
    """Every game's description in the active language, in menu order."""
    return [shown_spec(spec) for spec in game_specs()]


def shown_preview(preview: dict) -> dict:
    """``preview_hand``'s answer with the hand's why-lines in the reader's language."""
    hand = preview["hand"]
    return {**preview, "hand": {**hand, "why": shown(hand.get("why") or [])}}


def shown_spec(spec: GameSpec) -> GameSpec:
    """``spec`` with its words in the active language. Worked out once per
    game and language; with translation off, the engine's own spec."""
    if not settings.USE_I18N:
        return spec
    return _translated_spec(spec.id, get_language())


@lru_cache(maxsize=64)
def _translated_spec(game_id: str, language: str | None) -> GameSpec:
    spec = get_game(game_id).spec

    def words(value):
        return translate(value, gettext, ngettext) if isinstance(value, Text) else value

    def choices(pairs):
        return tuple((value, words(label)) for value, label in pairs)

    options = tuple(
        dataclasses.replace(o, label=words(o.label), help=words(o.help), choices=choices(o.choices))
        for o in spec.options
    )
    fields = tuple(
        dataclasses.replace(f, label=words(f.label), help=words(f.help), choices=choices(f.choices), says=words(f.says))
        for f in spec.hand_fields
    )
    return dataclasses.replace(
        spec,
        name=words(spec.name),
        summary=words(spec.summary),
        options=options,
        hand_fields=fields,
        hand_noun=words(spec.hand_noun),
        hands_noun=words(spec.hands_noun),
        first_turn=words(spec.first_turn),
        bidding_noun=words(spec.bidding_noun),
    )


@receiver(setting_changed)
def _forget_translations(*, setting: str, **kwargs) -> None:
    if setting in {"USE_I18N", "LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _translated_spec.cache_clear()


@receiver(file_changed)
def _forget_translations_on_a_new_catalogue(*, file_path, **kwargs) -> None:
    """runserver: a compiled catalogue changed (Django reloads its own)."""
    if file_path.suffix == ".mo":
        _translated_spec.cache_clear()


def _game_id(game: GameSpec | str) -> str:
    return game if isinstance(game, str) else game.id


def plays_deals(game: GameSpec | str) -> bool:
    """The game (its spec or id) calls a hand a deal (Sixty-Six): its messages say so."""
    return get_game(_game_id(game)).spec.hand_noun == "deal"


def hand_words(game: GameSpec | str) -> dict[str, str]:
    """What the game (its spec or id) calls a hand, for a message's
    placeholders: ``h`` ("hand"; Sixty-Six "deal"), ``H`` ("Hand",
    "Deal") and ``hs`` ("hands", "deals"), in the reader's language:
    "%(H)s %(n)d is locked"."""
    spec = get_game(_game_id(game)).spec
    noun = shown(spec.hand_noun)
    return {"h": noun, "H": capfirst(noun), "hs": shown(spec.hands_noun)}


def bids_a_contract(spec: GameSpec) -> bool:
    """What is known before play is a contract (Draw Bridge), not bids."""
    return get_game(spec.id).spec.bidding_noun == "contract"


def game_name(game_id: str) -> str:
    """A game's name in the active language; an unknown id as it is."""
    try:
        return shown(get_game(game_id).spec.name)
    except KeyError:
        return game_id


def listed(items) -> str:
    """Items as a list in the reader's language: "Ann, Bob, Cat" (Urdu and
    Sindhi: "Ann، Bob، Cat", with the Arabic comma)."""
    # Translators: what separates the items of a list, "Ann, Bob": a comma and a space (Urdu, Sindhi: "، ").
    return pgettext("list separator", ", ").join(str(item) for item in items)


def hands_count(spec: GameSpec, n: int) -> str:
    """ "1 hand", "3 deals": the count in the game's own noun, plural forms
    and all (Sixty-Six plays deals, the other games hands)."""
    if plays_deals(spec):
        return ngettext("%(n)d deal", "%(n)d deals", n) % {"n": n}
    return ngettext("%(n)d hand", "%(n)d hands", n) % {"n": n}


def side_names(spec: GameSpec, names: list[str]) -> list[str]:
    """Each side of partners by its players, in the reader's language
    ("Ann & Cat"); no sides: an empty list (RULES.md 1.5)."""
    return [shown(side_name(names, side)) for side in spec.sides]


def scorer_names(spec: GameSpec, names: list[str]) -> list[str]:
    """Whoever the points and totals are of, in their order: each side of
    partners where the game has sides, else each player."""
    return side_names(spec, names) if spec.has_sides else list(names)
