"""The round clock's writes: pause, resume, add time, end the round. Each
one locked transaction, audited, based on the clock the organiser's page
showed (``desk.clock_stamp``)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor, record
from ..errors import ServiceError
from ..models import AuditEvent, Match, Round, Table, Tournament
from .desk import clock_stamp
from .ending import end_table_early
from .rounds import audit as _audit
from .rounds import complete_rounds_locked
from .rounds import lock as _lock

ADD_MINUTES = 5
Action = AuditEvent.Action
CLOCK_ACTIONS = {
    "pause": Action.ROUND_CLOCK_PAUSED,
    "resume": Action.ROUND_CLOCK_RESUMED,
    "add": Action.ROUND_CLOCK_ADDED,
}


def _locked_round(round_id: int) -> tuple[Tournament, Round]:
    tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
    tournament = _lock(tournament_id)
    return tournament, Round.objects.select_for_update().get(pk=round_id)


def _clock_state(rnd: Round) -> dict:
    return {
        "round": rnd.number,
        "ends_at": rnd.ends_at.isoformat() if rnd.ends_at else None,
        "paused_remaining": rnd.paused_remaining,
    }


def change_clock(*, round_id: int, action: str, based_on: str, actor: Actor) -> Round:
    """``action`` "pause", "resume" or "add" (ADD_MINUTES more), based on the
    clock the organiser's page showed (``desk.clock_stamp``): a press made
    on an older page (another organiser pressed meanwhile, or the same
    press twice) changes nothing and says so."""
    if action not in CLOCK_ACTIONS:
        raise ServiceError(_("Unknown action on the round clock."))
    with transaction.atomic():
        tournament, rnd = _locked_round(round_id)
        if rnd.status != Round.Status.PLAYING:
            raise ServiceError(_("This round is not being played: its clock is stopped."), code="state")
        if rnd.ends_at is None and rnd.paused_remaining is None:
            raise ServiceError(_("This round has no time limit."), code="state")
        if based_on != clock_stamp(rnd):
            raise ServiceError(
                _(
                    "The clock changed since this page was drawn (pressed twice, or by another organiser): "
                    "look at it again."
                ),
                code="conflict",
            )
        before = _clock_state(rnd)
        now = timezone.now()
        paused = rnd.paused_remaining is not None
        if action == "pause":
            if paused:
                raise ServiceError(_("The clock is already paused."), code="state")
            rnd.paused_remaining = max(0, int((rnd.ends_at - now).total_seconds()))
        elif action == "resume":
            if not paused:
                raise ServiceError(_("The clock is already running."), code="state")
            rnd.ends_at = now + timedelta(seconds=rnd.paused_remaining)
            rnd.paused_remaining = None
        elif paused:
            rnd.paused_remaining += ADD_MINUTES * 60
        else:  # from now if the time was already up: 5 minutes more to play
            rnd.ends_at = max(rnd.ends_at, now) + timedelta(minutes=ADD_MINUTES)
        rnd.save(update_fields=["ends_at", "paused_remaining"])
        _audit(tournament, actor, CLOCK_ACTIONS[action], before=before, after=_clock_state(rnd))
    return rnd


def end_round(*, round_id: int, based_on: str, actor: Actor) -> list[int]:
    """End the round now, based on the clock the organiser's page showed
    (``desk.clock_stamp``, as every press): every table still playing ends
    (``end_table_early``: the current totals decide), a table over but
    still waiting for the other side's checks counts as it is, and every
    table's links close. The round then completes, and its clock stops on
    every screen. Returns the numbers of the tables ended or accepted; a
    round with none left is refused in plain words."""
    with transaction.atomic():
        tournament, rnd = _locked_round(round_id)
        if rnd.status != Round.Status.PLAYING:
            raise ServiceError(_("This round is over already: nothing to end."), code="state")
        if based_on != clock_stamp(rnd):
            raise ServiceError(
                _(
                    "The clock changed since this page was drawn (pressed twice, or by another organiser): "
                    "look at it again before ending the round."
                ),
                code="conflict",
            )
        playing = list(
            Table.objects.filter(round=rnd, match__status=Match.Status.IN_PROGRESS)
            .order_by("number")
            .values_list("pk", "number")
        )
        waiting = Match.objects.filter(
            table__round=rnd, status=Match.Status.FINISHED, unconfirmed_hands__gt=0, accepted_at__isnull=True
        )
        waiting_numbers = list(waiting.values_list("table__number", flat=True))
        if not playing and not waiting_numbers:
            raise ServiceError(_("Every table of this round is over already: nothing to end."), code="state")
        for table_id, _number in playing:
            end_table_early(table_id=table_id, actor=actor)
        now = timezone.now()
        for match in waiting.select_for_update():
            match.accepted_at = now  # the round's end: the table counts as it stands
            match.links_closed_at = match.links_closed_at or now
            match.version += 1
            match.save(update_fields=["accepted_at", "links_closed_at", "version", "updated_at"])
            record(actor, Action.ACCEPTED, match=match, after={"hands not confirmed": match.unconfirmed_hands})
        numbers = sorted([number for _pk, number in playing] + waiting_numbers)
        _audit(tournament, actor, Action.ROUND_ENDED, after={"round": rnd.number, "tables": numbers})
        complete_rounds_locked(tournament, actor)
    return numbers
