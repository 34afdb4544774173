"""Backups in: a file from scorekeeper.backups.export, checked whole first
(reading.read: nothing is written for a file with anything wrong in it),
then written in one transaction: all or nothing.

Restoring is idempotent. Each match and tournament of a backup carries its
uid: one already here is recognised and left as it is, said in words
("“Spring cup” is already here: restored on 1 Dec at 21:14"), and the rest
of the file is restored; a file restored twice adds nothing the second
time. "As a copy" restores the file again as new matches and tournaments,
each marked a copy of the one it came from: a copy is shown everywhere but
counts in no player's record or rating, so no game counts twice.

Players are matched by name ("Ann" here and "ann" in the file are one
person); matches and tournaments get new numbers; scores and winners are
worked out again by the engine, never copied from the file.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..audit import SYSTEM, Actor, record
from ..models import AuditEvent, Entrant, Hand, Match, Player, Round, Seat, Table, Tournament
from ..players.services import get_or_create_player
from .reading import TOURNAMENT_NAME_MAX, Backup, FileMatch, FileTournament, read


@dataclass(frozen=True)
class Restored:
    players: int
    matches: int
    tournaments: int
    as_copy: bool = False
    already_here: list[str] = field(default_factory=list)  # what was here already, in words


def _when(moment) -> str:
    return format_date(timezone.localtime(moment), "j M H:i")


def _already_here(what: str, row: Match | Tournament) -> str:
    if row.restored_at:
        return _("%(what)s is already here: restored on %(when)s.") % {"what": what, "when": _when(row.restored_at)}
    return _("%(what)s is already here: it was made on this server on %(when)s.") % {
        "what": what,
        "when": _when(row.created_at),
    }


@transaction.atomic
def import_backup(raw: bytes | str, *, actor: Actor = SYSTEM, as_copy: bool = False) -> Restored:
    """Check the whole file, then write what is not here yet: all or nothing."""
    backup = read(raw)
    at_tables = {table.match for t in backup.tournaments for r in t.rounds for table in r.tables}
    lone = [m for m in backup.matches if m.ref not in at_tables]
    tournaments = backup.tournaments
    notes: list[str] = []
    if not as_copy:
        lone, tournaments, notes = _not_here(backup, lone, tournaments)
    writer = _Writer(backup, actor, as_copy)
    for m in lone:
        writer.match(m)
    for t in tournaments:
        writer.tournament(t)
    return Restored(
        players=len(writer.players),
        matches=len(writer.matches),
        tournaments=len(tournaments),
        as_copy=as_copy,
        already_here=notes,
    )


def _not_here(backup: Backup, lone: list[FileMatch], tournaments: list[FileTournament]):
    """The lone matches and the tournaments of the file not here yet, and
    what is here already, in words."""
    by_ref = {m.ref: m for m in backup.matches}
    uids = [m.uid for m in backup.matches if m.uid] + [t.uid for t in tournaments]
    here_matches = {m.uid: m for m in Match.objects.filter(uid__in=uids)}
    here_tournaments = {t.uid: t for t in Tournament.objects.filter(uid__in=uids)}
    notes, new_lone, new_tournaments = [], [], []
    for m in lone:
        if m.uid in here_matches:
            notes.append(_already_here(m.label, here_matches[m.uid]))
        else:
            new_lone.append(m)
    for t in tournaments:
        name = _("“%(name)s”") % {"name": t.name}
        if t.uid in here_tournaments:
            notes.append(_already_here(name, here_tournaments[t.uid]))
            continue
        here = [by_ref[table.match] for r in t.rounds for table in r.tables if by_ref[table.match].uid in here_matches]
        if here:
            notes.append(
                _("%(name)s is not restored: %(match)s is already here. Restore it as a copy to add it again.")
                % {"name": name, "match": here[0].label}
            )
            continue
        new_tournaments.append(t)
    return new_lone, new_tournaments, notes


class _Writer:
    """Writes matches and tournaments of one checked backup."""

    def __init__(self, backup: Backup, actor: Actor, as_copy: bool):
        self.backup, self.actor, self.as_copy = backup, actor, as_copy
        self.players: dict[int, Player] = {}
        self.matches: dict[int, Match] = {}
        self.now = timezone.now()

    def identity(self, uid: uuid.UUID | None, copy_of: uuid.UUID | None) -> dict:
        if self.as_copy or uid is None:
            return {"uid": uuid.uuid4(), "copy_of": (copy_of or uid) if self.as_copy else copy_of}
        return {"uid": uid, "copy_of": copy_of}

    def player(self, ref: int) -> Player:
        if ref not in self.players:
            self.players[ref] = get_or_create_player(self.backup.players[ref])
        return self.players[ref]

    def match(self, m: FileMatch) -> Match:
        result = m.result
        winners, status = result["winners"], Match.Status.IN_PROGRESS
        if m.abandoned:
            status = Match.Status.ABANDONED
        elif result["finished"]:
            status = Match.Status.FINISHED
        elif m.ended_early:  # ended at a round's time limit: the totals decide
            best = max(result["totals"])
            winners, status = [i for i, t in enumerate(result["totals"]) if t == best], Match.Status.FINISHED
        seated = [self.player(p) for p in m.players]
        match = Match.objects.create(
            game=m.game,
            options=m.options,
            status=status,
            player_names=[p.name for p in seated],
            totals=result["totals"],
            winners=winners,
            hands_played=len(m.hands),
            pending_bidding=m.bids_in_play if status == Match.Status.IN_PROGRESS else None,
            owner=self.actor.user,
            finished_at=(m.finished_at or m.created_at or self.now) if status == Match.Status.FINISHED else None,
            # A restored match's links are new (none are in a backup); those of a match over stay closed.
            links_closed_at=self.now if status != Match.Status.IN_PROGRESS else None,
            confirm_hands=m.confirm_hands,
            unconfirmed_hands=sum(
                c in (Hand.Confirmation.PENDING, Hand.Confirmation.DISPUTED) for c in m.confirmations
            ),
            accepted_at=m.accepted_at,
            corrected_at=m.corrected_at,
            restored_at=self.now,
            **self.identity(m.uid, m.copy_of),
        )
        if m.created_at:  # auto_now_add: set after the insert
            Match.objects.filter(pk=match.pk).update(created_at=m.created_at)
        Seat.objects.bulk_create(Seat(match=match, player=p, position=i) for i, p in enumerate(seated))
        Hand.objects.bulk_create(
            Hand(match=match, number=i + 1, entry=h, confirmation=c)
            for i, (h, c) in enumerate(zip(m.hands, m.confirmations, strict=True))
        )
        record(
            self.actor,
            AuditEvent.Action.MATCH_IMPORTED,
            match=match,
            after={"from backup match": m.ref, "copy": self.as_copy},
        )
        self.matches[m.ref] = match
        return match

    def tournament(self, t: FileTournament) -> Tournament:
        by_ref = {m.ref: m for m in self.backup.matches}
        name = t.name
        if self.as_copy:
            name = (_("%(name)s (copy)") % {"name": name})[:TOURNAMENT_NAME_MAX]
        tournament = Tournament.objects.create(
            name=name,
            game=t.game,
            options=t.options,
            format=t.format,
            planned_rounds=t.planned_rounds,
            round_minutes=t.round_minutes,
            table_size=t.table_size,
            seed=t.seed,
            status=t.status,
            is_public=t.public,
            confirm_hands=t.confirm_hands,
            seed_by_rating=t.seed_by_rating,
            oh_hell_points=t.oh_hell_points,
            owner=self.actor.user,
            restored_at=self.now,
            **self.identity(t.uid, t.copy_of),
        )
        Entrant.objects.bulk_create(
            Entrant(
                tournament=tournament,
                player=self.player(p),
                partner=self.player(partner) if partner is not None else None,
                dropped_after_round=dropped,
            )
            for p, dropped, partner in t.entrants
        )
        for r in t.rounds:
            rnd = Round.objects.create(
                tournament=tournament,
                number=r.number,
                status=r.status,
                proposal=[[self.player(p).pk for p in table] for table in r.proposal],
                byes=[self.player(p).pk for p in r.byes],
                published_at=r.published_at,
                ends_at=r.ends_at,
                paused_remaining=r.paused_remaining,
                completed_at=r.completed_at,
            )
            Table.objects.bulk_create(
                Table(
                    round=rnd,
                    number=table.number,
                    match=self.match(by_ref[table.match]),
                    ended_early_at=table.ended_early_at,
                )
                for table in r.tables
            )
        record(
            self.actor,
            AuditEvent.Action.TOURNAMENT_IMPORTED,
            tournament=tournament,
            after={"name": name, "copy": self.as_copy},
        )
        return tournament


def summary(done: Restored) -> str:
    """What a restore did, in words: what was added, then what was here already."""
    if not (done.matches or done.tournaments):
        said = (
            [_("Nothing was restored: everything in this file is already here.")]
            if done.already_here
            else [_("Nothing was restored: the file holds no matches or tournaments.")]
        )
    elif done.as_copy:
        said = [
            _("Restored as a copy: %(what)s. A copy counts in no player's record or rating.")
            % {"what": counted(done.matches, done.tournaments)}
        ]
    else:
        said = [_("Restored %(what)s.") % {"what": counted(done.matches, done.tournaments)}]
    return " ".join(said + done.already_here)


def counted(matches: int, tournaments: int) -> str:
    """ "1 match", "3 matches and 1 tournament": each count in its plural
    form, a count of none left out (both none: "0 matches")."""
    match_words = ngettext("%(n)d match", "%(n)d matches", matches) % {"n": matches}
    if not tournaments:
        return match_words
    tournament_words = ngettext("%(n)d tournament", "%(n)d tournaments", tournaments) % {"n": tournaments}
    if not matches:
        return tournament_words
    return _("%(matches)s and %(tournaments)s") % {"matches": match_words, "tournaments": tournament_words}
