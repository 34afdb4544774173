"""Every game the engine knows, by id. Adding a game = one module + one line here."""

from __future__ import annotations

from .base import Game, GameSpec


def _load() -> dict[str, Game]:
    from . import drawbridge, ohhell, sixtysix, spades

    return {m.GAME.spec.id: m.GAME for m in (spades, drawbridge, sixtysix, ohhell)}


GAMES: dict[str, Game] = _load()


def get_game(game_id: str) -> Game:
    return GAMES[game_id]


def game_specs() -> list[GameSpec]:
    """The self-descriptions, in menu order."""
    return [g.spec for g in GAMES.values()]
