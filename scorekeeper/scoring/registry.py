"""Every game the engine knows, by id. Adding a game = one module + one line here."""

from __future__ import annotations

from .base import Game, GameSpec


def _load() -> dict[str, Game]:
    from . import courtpiece, drawbridge, ohhell, partnership_spades, sixtysix, spades

    modules = (spades, drawbridge, sixtysix, ohhell, partnership_spades, courtpiece)
    return {m.GAME.spec.id: m.GAME for m in modules}


# The games the engine scores and the app offers, in RULES.md's (and the menus') order.
GAMES = _load()


def get_game(game_id: str) -> Game:
    """A game by its id (KeyError for an unknown one)."""
    return GAMES[game_id]


def game_ids() -> list[str]:
    """The id of every game, in RULES.md's order."""
    return list(GAMES)


def game_specs() -> list[GameSpec]:
    """The self-descriptions, in menu order."""
    return [g.spec for g in GAMES.values()]
