"""Every game the engine knows, by id. Adding a game = one module + one line here."""

from __future__ import annotations

from .base import Game, GameSpec


def _load() -> tuple[dict[str, Game], dict[str, Game]]:
    from . import courtpiece, drawbridge, ohhell, partnership_spades, sixtysix, spades

    def by_id(modules):
        return {m.GAME.spec.id: m.GAME for m in modules}

    return by_id((spades, drawbridge, sixtysix, ohhell)), by_id((partnership_spades, courtpiece))


# GAMES: the games the app offers (its menus, and its checks of a new match,
# tournament or backup, read GAMES and game_specs()).
# Temporary, until the app supports partnerships (issue 27): the engine
# scores _NOT_IN_THE_APP_YET too (score_match, check_bidding, the command
# line), but the app does not list them. Then they join GAMES, and this goes.
GAMES, _NOT_IN_THE_APP_YET = _load()


def get_game(game_id: str) -> Game:
    """Any game the engine scores (KeyError for an unknown id)."""
    return GAMES[game_id] if game_id in GAMES else _NOT_IN_THE_APP_YET[game_id]


def game_ids() -> list[str]:
    """The id of every game the engine scores, in RULES.md's order."""
    return [*GAMES, *_NOT_IN_THE_APP_YET]


def game_specs() -> list[GameSpec]:
    """The self-descriptions, in menu order."""
    return [g.spec for g in GAMES.values()]
