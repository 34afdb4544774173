"""Every write of players: names are cleaned in one place, and two names
that differ only in case or spacing are one person."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..audit import SYSTEM, Actor, record
from ..errors import ServiceError
from ..models import NAME_MAX_LENGTH, AuditEvent, Player, Seat, Tournament, name_key


def clean_player_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ServiceError(_("A player needs a name."))
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A player needs a name."))
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(_("A name can be at most %(n)d characters.") % {"n": NAME_MAX_LENGTH})
    return name


def get_or_create_player(name: str) -> Player:
    name = clean_player_name(name)
    existing = Player.objects.filter(key=name_key(name)).first()
    if existing:
        return existing
    try:
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:  # created by someone else a moment ago
        return Player.objects.get(key=name_key(name))


def add_player(*, name: str, actor: Actor = SYSTEM) -> Player:
    name = clean_player_name(name)
    try:
        with transaction.atomic():
            player = Player.objects.create(name=name)
            record(actor, AuditEvent.Action.PLAYER_ADDED, after={"player": player.pk, "name": name})
    except IntegrityError:
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name}) from None
    return player


@transaction.atomic
def rename_player(*, player_id: int, name: str, actor: Actor = SYSTEM) -> Player:
    name = clean_player_name(name)
    player = Player.objects.select_for_update().get(pk=player_id)
    if Player.objects.filter(key=name_key(name)).exclude(pk=player.pk).exists():
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name})
    before = player.name
    player.name = name
    player.save(update_fields=["name", "key"])
    for seat in Seat.objects.filter(player=player).select_related("match"):  # the names each match keeps
        match = seat.match
        match.player_names = [name if i == seat.position else old for i, old in enumerate(match.player_names)]
        match.save(update_fields=["player_names"])
    # Recorded in each tournament the player is in as well: that moves the
    # tournament's standings generation, so its screens show the new name.
    for tournament in [None, *Tournament.objects.filter(entrants__player=player)]:
        record(
            actor,
            AuditEvent.Action.PLAYER_RENAMED,
            tournament=tournament,
            before={"player": player.pk, "name": before},
            after={"name": name},
        )
    return player
