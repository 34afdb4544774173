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
from django.utils.translation import get_language, gettext, ngettext

from .scoring import GameSpec, game_specs, get_game
from .scoring.base import Text, translate


def shown(value: Any) -> Any:
    """Engine words in the active language (English: the same words)."""
    if not settings.USE_I18N:
        return value  # the English words, already made
    return translate(value, gettext, ngettext)


def shown_message(error: BaseException) -> str:
    """An engine error (InvalidHand) as its reader should see it."""
    return shown(getattr(error, "message", None) or str(error))


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


def plays_deals(spec: GameSpec) -> bool:
    """The game calls a hand a deal (Sixty-Six): its messages say so."""
    return get_game(spec.id).spec.hand_noun == "deal"


def bids_a_contract(spec: GameSpec) -> bool:
    """What is known before play is a contract (Draw Bridge), not bids."""
    return get_game(spec.id).spec.bidding_noun == "contract"


def game_name(game_id: str) -> str:
    """A game's name in the active language; an unknown id as it is."""
    try:
        return shown(get_game(game_id).spec.name)
    except KeyError:
        return game_id


def hands_count(spec: GameSpec, n: int) -> str:
    """ "1 hand", "3 deals": the count in the game's own noun, plural forms
    and all (Sixty-Six plays deals, the other games hands)."""
    if plays_deals(spec):
        return ngettext("%(n)d deal", "%(n)d deals", n) % {"n": n}
    return ngettext("%(n)d hand", "%(n)d hands", n) % {"n": n}
