"""Reads of players."""

from ..models import Player


def all_players() -> list[Player]:
    return list(Player.objects.all())
