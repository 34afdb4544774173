"""A round completes by itself, in the write that makes its last table
count: a table's last hand confirmed, a match accepted as it is, a table
ended, the round ended. Also the tournament, after its last planned round.
No page view completes anything (a GET never writes).

A match's write (``matches.services``) holds only the match's lock; the
round's completion takes the tournament's, so it runs just after that
write's own transaction, in the same call (``complete_round_of``): two
tables finishing at once each look, under the tournament's lock, and the
later one sees both. Tournament writes that already hold the tournament's
lock call ``complete_rounds_locked``."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from ..audit import SYSTEM, Actor, record
from ..backups import copies
from ..models import AuditEvent, Match, Round, Table, Tournament
from .standings_cache import look_again

Action = AuditEvent.Action

# A table still to wait for: being played, or over with hands the other
# side has not confirmed (and no organiser accepted it as it is).
TABLE_NOT_DONE = Q(tables__match__status=Match.Status.IN_PROGRESS) | Q(
    tables__match__status=Match.Status.FINISHED,
    tables__match__unconfirmed_hands__gt=0,
    tables__match__accepted_at__isnull=True,
)


def audit(tournament: Tournament, actor: Actor, action: str, *, before: Any = None, after: Any = None) -> None:
    """Every tournament event moves the standings' generation: once it is
    committed, the next poll looks at once instead of answering from the
    cache for up to STANDINGS_REFRESH_SECONDS (a round published or over
    showed the round before for a few seconds)."""
    record(actor, action, tournament=tournament, before=before, after=after)
    transaction.on_commit(partial(look_again, tournament.pk))


def lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def complete_rounds_locked(tournament: Tournament, actor: Actor = SYSTEM) -> list[Round]:
    """Mark the playing rounds whose tables all count as complete, and the
    tournament as finished after its last planned round. Call inside a
    transaction that holds the tournament's lock."""
    done = list(
        Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING)
        .annotate(tables_open=Count("tables", filter=TABLE_NOT_DONE))
        .filter(tables_open=0)
    )
    now = timezone.now()
    for rnd in done:
        rnd.status = Round.Status.COMPLETE
        rnd.completed_at = now
        rnd.save(update_fields=["status", "completed_at"])
        # Each table's links closed when its match came to count; a complete
        # round closes any still open, for good.
        Match.objects.filter(table__round=rnd, links_closed_at__isnull=True).update(links_closed_at=now)
        audit(tournament, actor, Action.ROUND_COMPLETED, after={"round": rnd.number})
        copies.after_commit(f"tournament {tournament.pk} round {rnd.number}")
    if tournament.status != Tournament.Status.FINISHED and tournament.planned_rounds:
        complete = Round.objects.filter(tournament=tournament, status=Round.Status.COMPLETE).count()
        if complete >= tournament.planned_rounds:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            Match.objects.filter(table__round__tournament=tournament, links_closed_at__isnull=True).update(
                links_closed_at=now
            )
            audit(tournament, actor, Action.TOURNAMENT_FINISHED)
    return done


def complete_rounds(*, tournament_id: int, actor: Actor = SYSTEM) -> list[Round]:
    """Store what the matches say: rounds whose tables all count are
    complete. Writes only when something changed."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        return []
    open_rounds = Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING)
    if not open_rounds.annotate(tables_open=Count("tables", filter=TABLE_NOT_DONE)).filter(tables_open=0).exists():
        return []
    with transaction.atomic():
        return complete_rounds_locked(lock(tournament_id), actor)


def complete_round_of(match_id: int, actor: Actor = SYSTEM) -> None:
    """A match that counts now: complete its round (and tournament) if every
    table of it counts too. A casual match: nothing."""
    tournament_id = Table.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    if tournament_id is not None:
        complete_rounds(tournament_id=tournament_id, actor=actor)
