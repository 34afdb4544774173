"""Ending a tournament table before its match is over (the director's
call, or the end of the round): the current totals decide, the hands not
yet confirmed are accepted as they are (the table counts), and its links
close for everything, checks included. The round then completes by itself
if every other table counts too."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor, change_of, record
from ..errors import ServiceError
from ..models import AuditEvent, Match, Round, Table
from .rounds import audit as _audit
from .rounds import complete_round_of


def end_table_early(*, table_id: int, actor: Actor) -> Match:
    """Finish the table's match now: the current totals decide."""
    match = _end(table_id, actor)
    complete_round_of(match.pk, actor)
    return match


def _end(table_id: int, actor: Actor) -> Match:
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        rnd = table.round
        if rnd.status != Round.Status.PLAYING:
            raise ServiceError(_("Only a table of the round being played can be ended."), code="state")
        match = Match.objects.select_for_update().get(pk=table.match_id)
        if match.status != Match.Status.IN_PROGRESS:
            raise ServiceError(_("This table's match is already over."), code="state")
        totals = list(match.totals) or [0] * match.seats.count()
        best = max(totals)
        winners = [i for i, total in enumerate(totals) if total == best]
        before = {
            "status": match.status,
            "totals": totals,
            "hands_played": match.hands_played,
            "pending_bidding": match.pending_bidding,
        }
        now = timezone.now()
        match.status = Match.Status.FINISHED
        match.winners = winners
        match.totals = totals
        match.finished_at = now
        match.links_closed_at = match.links_closed_at or now  # the table's links write nothing more
        match.pending_bidding = None  # a hand not completed does not count
        if match.unconfirmed_hands and match.accepted_at is None:
            match.accepted_at = now  # the director's end: the table counts as it stands
        match.version += 1
        match.last_change = change_of(actor, AuditEvent.Action.ENDED_EARLY, None)
        match.save(
            update_fields=[
                "last_change",
                "status",
                "winners",
                "totals",
                "finished_at",
                "links_closed_at",
                "pending_bidding",
                "accepted_at",
                "version",
                "updated_at",
            ]
        )
        Table.objects.filter(pk=table.pk).update(ended_early_at=now)
        after = {"round": rnd.number, "table": table.number, "totals": totals, "winners": winners}
        record(actor, AuditEvent.Action.ENDED_EARLY, match=match, before=before, after=after)
        _audit(rnd.tournament, actor, AuditEvent.Action.TABLE_ENDED_EARLY, before=before, after=after)
    return match
