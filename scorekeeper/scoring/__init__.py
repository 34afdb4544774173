"""Scorekeeper's rules engine (RULES.md): pure Python, no Django.

from scorekeeper.scoring import score_match, check_bidding, InvalidHand
"""

from __future__ import annotations

from typing import Any

from .base import Field, GameSpec, InvalidHand, Option
from .engine import check_bidding, entry_hints, preview_hand, run, score_with_hints
from .registry import GAMES, game_specs, get_game


def score_match(match: Any) -> dict:
    """Score a whole match (RULES.md 1.1-1.3). Raises InvalidHand."""
    return run(match)


__all__ = [
    "GAMES",
    "Field",
    "GameSpec",
    "InvalidHand",
    "Option",
    "check_bidding",
    "entry_hints",
    "game_specs",
    "get_game",
    "preview_hand",
    "score_match",
    "score_with_hints",
]
