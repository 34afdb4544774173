"""Placeholder until the module is written."""

from .base import Game, GameSpec

GAME = Game()
GAME.spec = GameSpec(
    id="drawbridge", name="DrawBridge", min_players=2, max_players=7, summary="", options=(), hand_fields=(), detail_keys=(), has_bidding=False
)
