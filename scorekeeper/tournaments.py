"""Tournaments: every write (services) and every read (selectors) of the
tournament part. The pairing, seating and standings rules themselves live in
the pure package ``scorekeeper.tournament``; this module feeds it from the
database and stores what it proposes. Every write runs in one transaction,
locks the row it changes and leaves an ``AuditEvent(tournament=...)``.
Scores always come from the table matches (``Match.totals`` and
``Match.winners``, kept by ``scorekeeper.services`` from the engine); nothing
here types a score in.

Decisions
---------

**Formats.** Spades, Draw Bridge and Sixty-Six (two players) are played as a
round robin, a double round robin or a Swiss; Oh Hell only in seated rounds
(tables of 3 to 7, preferred size 4 unless set). A round robin's number of
rounds comes from the field when round 1 is proposed: n - 1 rounds for an
even field, n for an odd one (one bye per round), doubled for a double round
robin. Its schedule is fixed by the entrants at round 1 in registration
order (it is recomputed from that order every round), so a round robin takes
no late entries once round 1 is published.

**Rounds.** The next round is proposed from the pure logic (round robin: the
schedule; Swiss: pairing from the finished results; seated: seating that
avoids repeated meetings, reproducible from the tournament's seed and the
round number), stored as ``Round.proposal`` and reviewed: the organiser may
swap any two players (a player with a bye swaps into a table). Publishing
creates one match per table (players in seat order, the tournament's game
and options, owned by the tournament's owner) and one scoring link per
table. A round cannot be proposed while the previous one is still being
played, nor beyond the planned rounds. A round is complete when every
table's match is finished (or abandoned, which counts as no game); this is
worked out from the matches' status and stored when the organiser opens the
dashboard or starts the next round.

**Ended early.** At the round's time limit the organiser may end a table's
match: it is marked finished as it stands, the hands already completed
count and a hand in progress (bids saved, no tricks) does not. The current
totals decide: the highest total wins; in a two-player game equal totals are
a draw (1 match point each); at an Oh Hell table players with equal totals
share the places they cover (see placement points below). The table shows
"ended early" everywhere. Doing so is allowed at any time during the round
(the organiser judges the clock); it cannot be undone.

**Byes.** Two-player events: a bye gives 2 match points (it counts as a
win) and counts in the byes column, but it is no game: it adds nothing to
the player's Buchholz (there is no opponent, like a virtual opponent with 0
points), nothing to the score difference (0 to 0), and plays no part in
head-to-head or in games played. The bye recipient's own match points, bye
included, do count in the Buchholz of everyone they played. Swiss: the bye
goes to the lowest-ranked player who has not had one. Round robin: the
odd field's scheduled bye, and also the game against an opponent who has
dropped: the remaining player gets a bye in that round. Oh Hell has no
byes. Byes count in the standings as soon as their round is published.

**Drops.** A player who drops keeps every result so far and stays in the
standings, marked as dropped, with their match points and tiebreaks as they
stand; they are not paired or seated again (``Entrant.dropped_after_round``
is the number of rounds published when they dropped: a drop during a round
still plays that round's table). Their opponents keep the Buchholz they
earned from them (the dropped player's final match points), their score
difference from those games and any head-to-head result. In Oh Hell, the
placement points, total score and places from their tables stay with
everybody who sat there. A drop or a late entry while a round is proposed
recomputes the proposal (a swap made on it is lost).

**Late entries.** Swiss and seated events take new players before any round
that has not been published (not while a round is being played); they
start with 0 match points and no byes for the rounds they missed.

**Standings.** Two-player games: win 2, draw 1, loss 0, bye 2; ranked by
match points, then Buchholz (sum of the final match points of every
opponent played), then score difference (own game score minus the
opponent's), then head-to-head among the players still tied (used only if
every two of them have met). Oh Hell: at a table of k, place p earns k - p
placement points; equal totals share the places and split their points;
ranked by match points (placement points), then total game score, then
average place. Players tied on everything share the rank (1, 2, 2, 4). Only
finished matches count; matches in progress are shown with live totals but
add nothing.

**Table links.** Each table's match gets a secret scoring link (an
``AccessLink`` on that match only). Only the SHA-256 of a token is stored,
so a token can be shown only when it is issued: the freshly issued tokens
of a round are kept in the issuing organiser's session
(``request.session["table_tokens"][round_id] = {table_id: token}``), and the
printable table cards show them from there. On another device (or after the
session ends) the cards cannot show the links: "Issue new links for all
tables" revokes every old link of the round and issues new ones. A link can
also be re-issued (old one revoked) or revoked for one table. A device with
a table's link can score that table's match only.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, Sum, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from . import services
from .models import AccessLink, AuditEvent, Entrant, Match, Player, Round, Seat, Table, Tournament, name_key
from .scoring import GAMES, InvalidHand, score_match
from .services import Actor, ServiceError
from .tokens import hash_token
from .tournament import (
    oh_hell_standings,
    pair_counts,
    pair_swiss_round,
    round_robin_rounds,
    seat_round,
    swiss_players,
    table_places,
    two_player_standings,
)
from .tournament.standings import BYE_POINTS, DRAW_POINTS, LOSS_POINTS, WIN_POINTS

Format = Tournament.Format
TWO_PLAYER_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.SWISS)
SEATED_FORMATS = (Format.SEATED,)
ROUND_ROBIN_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)
NAME_MAX = 100
MAX_ROUNDS = 30
MAX_ROUND_MINUTES = 24 * 60
MIN_TABLE, MAX_TABLE = 3, 7
MAX_NAMES_AT_ONCE = 1000

SESSION_TOKENS = "table_tokens"
TOKEN_ROUNDS_KEPT = 3  # a session keeps the tokens of the last few rounds only


# ---------------------------------------------------------------- game rules


def is_two_player(game: str) -> bool:
    spec = GAMES[game].spec
    return spec.max_players == 2


def formats_for(game: str) -> tuple[str, ...]:
    """The formats that fit a game: two-player games pair, Oh Hell seats."""
    if game not in GAMES:
        return ()
    return TWO_PLAYER_FORMATS if is_two_player(game) else SEATED_FORMATS


def format_mismatch_message(game: str, format_: str) -> str:
    spec = GAMES[game].spec
    if is_two_player(game):
        return _(
            "%(game)s is a two-player game: play it as a round robin, a double round robin or a Swiss. "
            "Seated rounds are for Oh Hell."
        ) % {"game": spec.name}
    return _(
        "%(game)s is played at tables of %(a)d to %(b)d players: choose seated rounds. "
        "Round robins and Swiss events are for two-player games."
    ) % {"game": spec.name, "a": spec.min_players, "b": spec.max_players}


# ------------------------------------------------------------------ audit


def _audit(tournament: Tournament, actor: Actor, action: str, *, before: Any = None, after: Any = None) -> None:
    services.audit(actor, action, tournament=tournament, before=before, after=after)


def _lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


# --------------------------------------------------------------- creation


def create_tournament(
    *,
    name: Any,
    game: Any,
    format: Any,  # noqa: A002 - the model field's name
    options: dict | None = None,
    rounds: int | None = None,
    round_minutes: int | None = None,
    table_size: int | None = None,
    is_public: bool = True,
    actor: Actor,
) -> Tournament:
    """A new tournament in registration. ``ServiceError.code`` names the
    form field at fault ("name", "game", "format", "options", "rounds",
    "round_minutes", "table_size")."""
    name = " ".join(str(name or "").split())
    if not name:
        raise ServiceError(_("A tournament needs a name."), code="name")
    if len(name) > NAME_MAX:
        raise ServiceError(_("A name can be at most %(n)d characters.") % {"n": NAME_MAX}, code="name")
    if game not in GAMES:
        raise ServiceError(_("Choose one of the games."), code="game")
    if format not in Format.values:
        raise ServiceError(_("Choose a format."), code="format")
    if format not in formats_for(game):
        raise ServiceError(format_mismatch_message(game, format), code="format")
    spec = GAMES[game].spec
    seated = format in SEATED_FORMATS

    if seated:
        table_size = 4 if table_size is None else table_size
        if not isinstance(table_size, int) or not MIN_TABLE <= table_size <= MAX_TABLE:
            raise ServiceError(
                _("The preferred table size must be %(a)d to %(b)d.") % {"a": MIN_TABLE, "b": MAX_TABLE},
                code="table_size",
            )
    else:
        table_size = 4  # not used by pairings

    if format in ROUND_ROBIN_FORMATS:
        planned = 0  # worked out from the field when round 1 is proposed
    else:
        if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise ServiceError(_("The number of rounds must be 1 to %(n)d.") % {"n": MAX_ROUNDS}, code="rounds")
        planned = rounds

    if round_minutes is not None and (
        not isinstance(round_minutes, int) or not 1 <= round_minutes <= MAX_ROUND_MINUTES
    ):
        raise ServiceError(
            _("The round time limit must be 1 to %(n)d minutes, or empty for none.") % {"n": MAX_ROUND_MINUTES},
            code="round_minutes",
        )

    # The engine checks every option (and their combinations) in plain words.
    options = dict(options or {})
    players = max(spec.min_players, min(table_size, spec.max_players)) if seated else spec.min_players
    try:
        score_match(
            {"game": game, "players": [f"Player {i + 1}" for i in range(players)], "options": options, "hands": []}
        )
    except InvalidHand as error:
        raise ServiceError(str(error), code="options") from None

    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=game,
            options=options,
            format=format,
            planned_rounds=planned,
            round_minutes=round_minutes,
            table_size=table_size,
            seed=secrets.randbelow(2**31),
            is_public=bool(is_public),
            owner=actor.user,
        )
        _audit(
            tournament,
            actor,
            "tournament created",
            after={
                "name": name,
                "game": game,
                "format": format,
                "options": options,
                "rounds": planned,
                "round_minutes": round_minutes,
                "table_size": table_size,
                "is_public": bool(is_public),
            },
        )
    return tournament


# ------------------------------------------------------------ registration


@dataclass
class Registration:
    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)  # registered before
    duplicates: list[str] = field(default_factory=list)  # given twice in the list
    errors: list[str] = field(default_factory=list)  # names that cannot be used, with why


def split_names(text: Any) -> list[str]:
    """One name a line or comma-separated; blank entries are ignored."""
    if not isinstance(text, str):
        return []
    return [part.strip() for part in re.split(r"[,\n\r]+", text) if part.strip()]


def register_players(*, tournament_id: int, text: Any, actor: Actor) -> Registration:
    """Register many players at once, existing or new (by name, ignoring
    case). Duplicates in the list and players already registered are
    reported, not doubled."""
    names = split_names(text)
    if not names:
        raise ServiceError(_("Type at least one name."), code="names")
    if len(names) > MAX_NAMES_AT_ONCE:
        raise ServiceError(_("At most %(n)d names at once, please.") % {"n": MAX_NAMES_AT_ONCE}, code="names")
    result = Registration()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _complete_rounds(tournament)
        _require_can_register(tournament)
        wanted: dict[str, str] = {}
        for raw in names:
            try:
                name = services.clean_player_name(raw)
            except ServiceError as error:
                result.errors.append(f"{raw[:40]}…: {error.message}")
                continue
            key = name_key(name)
            if key in wanted:
                result.duplicates.append(name)
                continue
            wanted[key] = name
        registered = set(
            Entrant.objects.filter(tournament=tournament, player__key__in=list(wanted)).values_list(
                "player__key", flat=True
            )
        )
        new_entrants = []
        for key, name in wanted.items():
            if key in registered:
                result.already.append(name)
                continue
            player = services.get_or_create_player(name)
            new_entrants.append(Entrant(tournament=tournament, player=player))
            result.added.append(player.name)
        if new_entrants:
            Entrant.objects.bulk_create(new_entrants)
            _audit(tournament, actor, "players registered", after={"players": result.added})
            _repropose(tournament, actor)
    return result


def _require_can_register(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError(_("The tournament is over: nobody can join any more."), code="state")
    published = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PROPOSED)
    if tournament.format in ROUND_ROBIN_FORMATS and published.exists():
        raise ServiceError(
            _("The round robin schedule was fixed when round 1 started: no late entries in a round robin."),
            code="state",
        )
    playing = published.filter(status=Round.Status.PLAYING).first()
    if playing is not None:
        raise ServiceError(
            _("Round %(n)d is being played: register late entries when it is over, before the next round starts.")
            % {"n": playing.number},
            code="state",
        )


def drop_entrant(*, tournament_id: int, entrant_id: int, actor: Actor) -> Entrant:
    """The player is not paired or seated again; their results stay."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entrant = Entrant.objects.select_related("player").get(pk=entrant_id, tournament=tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise ServiceError(_("The tournament is over."), code="state")
        if entrant.dropped_after_round is not None:
            raise ServiceError(_("%(name)s has already dropped.") % {"name": entrant.player.name}, code="state")
        entrant.dropped_after_round = (
            Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PROPOSED).count()
        )
        entrant.save(update_fields=["dropped_after_round"])
        _audit(
            tournament,
            actor,
            "player dropped",
            after={"player": entrant.player.name, "after_round": entrant.dropped_after_round},
        )
        _repropose(tournament, actor)
    return entrant


def _repropose(tournament: Tournament, actor: Actor) -> None:
    """The field changed while a round waits for review: propose it again."""
    pending = Round.objects.filter(tournament=tournament, status=Round.Status.PROPOSED).first()
    if pending is None:
        return
    proposal = _compute_round(tournament, pending.number)
    before = {"tables": pending.proposal, "byes": pending.byes}
    pending.proposal, pending.byes = proposal.tables, proposal.byes
    pending.save(update_fields=["proposal", "byes"])
    if proposal.planned is not None and tournament.planned_rounds != proposal.planned:
        tournament.planned_rounds = proposal.planned
        tournament.save(update_fields=["planned_rounds"])
    _audit(
        tournament,
        actor,
        "round proposed again",
        before=before,
        after={"round": pending.number, "tables": pending.proposal, "byes": pending.byes},
    )


# ------------------------------------------------------------------ rounds


@dataclass
class Proposal:
    tables: list[list[int]]
    byes: list[int]
    planned: int | None = None  # round robin: the rounds the schedule has


def _entrant_rows(tournament: Tournament) -> list[dict]:
    return list(
        Entrant.objects.filter(tournament=tournament)
        .order_by("registered_at", "id")
        .values("id", "player_id", "dropped_after_round")
    )


def _compute_round(tournament: Tournament, number: int) -> Proposal:
    entrants = _entrant_rows(tournament)
    active = [e["player_id"] for e in entrants if e["dropped_after_round"] is None]

    if tournament.format in ROUND_ROBIN_FORMATS:
        # The field of round 1, in registration order: everyone but those who
        # dropped before any round was published.
        field_ids = [e["player_id"] for e in entrants if e["dropped_after_round"] != 0]
        if len(field_ids) < 2:
            raise ServiceError(_("A round robin needs at least 2 players."), code="players")
        schedule = round_robin_rounds(field_ids, double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
        if number > len(schedule):
            raise ServiceError(_("All %(n)d rounds have been played.") % {"n": len(schedule)}, code="state")
        playing = set(active)
        tables, byes = [], []
        for a, b in schedule[number - 1]:
            present = [p for p in (a, b) if p is not None and p in playing]
            if b is not None and len(present) == 2:
                tables.append([a, b])
            elif len(present) == 1:
                byes.append(present[0])  # the odd field's bye, or an opponent who dropped
        return Proposal(tables, byes, planned=len(schedule))

    if tournament.format == Format.SWISS:
        if len(active) < 2:
            raise ServiceError(_("A round needs at least 2 players who have not dropped."), code="players")
        data = _load(tournament)
        inputs = _two_player_inputs(data)
        seeds = {e["player_id"]: k for k, e in enumerate(entrants)}
        players = swiss_players(
            inputs["results"], inputs["byes"], inputs["drops"], seeds=seeds, players=[e["player_id"] for e in entrants]
        )
        pairing = pair_swiss_round(players)
        byes = [pairing.bye_id] if pairing.bye_id is not None else []
        return Proposal([list(pair) for pair in pairing.pairs], byes)

    # seated rounds
    if len(active) < MIN_TABLE:
        raise ServiceError(
            _("Seated rounds need at least %(n)d players who have not dropped.") % {"n": MIN_TABLE}, code="players"
        )
    data = _load(tournament)
    history = pair_counts(
        [
            [s.player_id for s in t.seats]
            for r in data.rounds
            if r.status != Round.Status.PROPOSED
            for t in data.tables_by_round.get(r.pk, [])
        ]
    )
    tables = seat_round(
        active, preferred=tournament.table_size, history_pairs_count=history, seed=tournament.seed * 1000 + number
    )
    return Proposal([list(t) for t in tables], [])


def propose_round(*, tournament_id: int, actor: Actor) -> Round:
    """Work out the next round and store it for review (no matches yet)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _complete_rounds(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise ServiceError(_("The tournament is over: all its rounds have been played."), code="state")
        rounds = list(
            Round.objects.filter(tournament=tournament).annotate(
                tables_open=Count("tables", filter=Q(tables__match__status=Match.Status.IN_PROGRESS)),
                tables_total=Count("tables"),
            )
        )
        for r in rounds:
            if r.status == Round.Status.PROPOSED:
                raise ServiceError(
                    _("Round %(n)d is waiting for review: publish it first.") % {"n": r.number}, code="state"
                )
            if r.status == Round.Status.PLAYING:
                raise ServiceError(
                    _("Round %(n)d is still being played: %(done)d of %(all)d tables finished.")
                    % {"n": r.number, "done": r.tables_total - r.tables_open, "all": r.tables_total},
                    code="state",
                )
        number = len(rounds) + 1
        proposal = _compute_round(tournament, number)
        if proposal.planned is not None and number == 1:
            tournament.planned_rounds = proposal.planned
            tournament.save(update_fields=["planned_rounds"])
        if number > tournament.planned_rounds:
            raise ServiceError(_("All %(n)d rounds have been played.") % {"n": tournament.planned_rounds}, code="state")
        rnd = Round.objects.create(tournament=tournament, number=number, proposal=proposal.tables, byes=proposal.byes)
        _audit(
            tournament,
            actor,
            "round proposed",
            after={"round": number, "tables": proposal.tables, "byes": proposal.byes},
        )
    return rnd


def swap_players(*, round_id: int, player_a: int, player_b: int, actor: Actor) -> Round:
    """Swap two players of a proposed round (seats, tables or a bye)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
        if rnd.status != Round.Status.PROPOSED:
            raise ServiceError(_("This round is already published: its tables cannot change."), code="state")
        if player_a == player_b:
            raise ServiceError(_("Choose two different players."), code="swap")
        tables = [list(t) for t in rnd.proposal]
        byes = list(rnd.byes)

        def find(pid):
            for ti, table in enumerate(tables):
                if pid in table:
                    return ("table", ti, table.index(pid))
            if pid in byes:
                return ("bye", byes.index(pid), None)
            return None

        where_a, where_b = find(player_a), find(player_b)
        if where_a is None or where_b is None:
            raise ServiceError(_("Choose two players of this round."), code="swap")
        for where, pid in ((where_a, player_b), (where_b, player_a)):
            if where[0] == "table":
                tables[where[1]][where[2]] = pid
            else:
                byes[where[1]] = pid
        before = {"tables": rnd.proposal, "byes": rnd.byes}
        rnd.proposal, rnd.byes = tables, byes
        rnd.save(update_fields=["proposal", "byes"])
        names = dict(Player.objects.filter(pk__in=[player_a, player_b]).values_list("pk", "name"))
        _audit(
            rnd.tournament,
            actor,
            "players swapped",
            before=before,
            after={
                "round": rnd.number,
                "swapped": [names.get(player_a), names.get(player_b)],
                "tables": tables,
                "byes": byes,
            },
        )
    return rnd


def table_link_label(tournament: Tournament, round_number: int, table_number: int) -> str:
    label = _("table %(t)d, round %(r)d") % {"t": table_number, "r": round_number}
    return f"{label} · {tournament.name}"[:80]


def publish_round(*, round_id: int, actor: Actor) -> dict[int, str]:
    """Start one match per table and issue each table's scoring link.
    Returns {table_id: token}: the tokens cannot be shown again."""
    tokens: dict[int, str] = {}
    with transaction.atomic():
        tournament_id = Round.objects.values_list("tournament_id", flat=True).get(pk=round_id)
        tournament = _lock(tournament_id)
        rnd = Round.objects.select_for_update().get(pk=round_id)
        if rnd.status != Round.Status.PROPOSED:
            raise ServiceError(_("This round is already published."), code="state")
        seated_ids = [pid for table in rnd.proposal for pid in table]
        dropped = set(
            Entrant.objects.filter(
                tournament=tournament, player_id__in=seated_ids, dropped_after_round__isnull=False
            ).values_list("player_id", flat=True)
        )
        if dropped:  # cannot happen through the services (a drop re-proposes); refuse rather than guess
            raise ServiceError(_("A player of this round has dropped: start the round again."), code="state")
        names = dict(Player.objects.filter(pk__in=seated_ids).values_list("pk", "name"))
        for number, seats in enumerate(rnd.proposal, start=1):
            match = services.start_match(
                game=tournament.game,
                player_names=[names[pid] for pid in seats],
                options=tournament.options,
                actor=actor,
            )
            table = Table.objects.create(round=rnd, number=number, match=match)
            _link, token = services.issue_link(
                match_id=match.pk, label=table_link_label(tournament, rnd.number, number), actor=actor
            )
            tokens[table.pk] = token
        Match.objects.filter(table__round=rnd).update(owner=tournament.owner)
        now = timezone.now()
        rnd.status = Round.Status.PLAYING
        rnd.published_at = now
        rnd.ends_at = now + timedelta(minutes=tournament.round_minutes) if tournament.round_minutes else None
        rnd.save(update_fields=["status", "published_at", "ends_at"])
        if tournament.status == Tournament.Status.REGISTRATION:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        _audit(
            tournament,
            actor,
            "round published",
            after={
                "round": rnd.number,
                "tables": rnd.proposal,
                "byes": rnd.byes,
                "ends_at": rnd.ends_at.isoformat() if rnd.ends_at else None,
            },
        )
        _complete_rounds(tournament)  # a round of byes only is over at once
    return tokens


def _complete_rounds(tournament: Tournament, actor: Actor = services.SYSTEM) -> list[Round]:
    """Mark the playing rounds whose matches are all over as complete, and
    the tournament as finished after its last planned round. Call inside a
    transaction that holds the tournament's lock."""
    done = list(
        Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING)
        .annotate(tables_open=Count("tables", filter=Q(tables__match__status=Match.Status.IN_PROGRESS)))
        .filter(tables_open=0)
    )
    now = timezone.now()
    for rnd in done:
        rnd.status = Round.Status.COMPLETE
        rnd.completed_at = now
        rnd.save(update_fields=["status", "completed_at"])
        _audit(tournament, actor, "round completed", after={"round": rnd.number})
    if tournament.status != Tournament.Status.FINISHED and tournament.planned_rounds:
        complete = Round.objects.filter(tournament=tournament, status=Round.Status.COMPLETE).count()
        if complete >= tournament.planned_rounds:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            _audit(tournament, actor, "tournament finished")
    return done


def complete_rounds(*, tournament_id: int, actor: Actor = services.SYSTEM) -> list[Round]:
    """Store what the matches say: rounds whose tables are all over are
    complete. Writes only when something changed."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        return []
    open_rounds = Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING)
    if (
        not open_rounds.annotate(tables_open=Count("tables", filter=Q(tables__match__status=Match.Status.IN_PROGRESS)))
        .filter(tables_open=0)
        .exists()
    ):
        return []
    with transaction.atomic():
        return _complete_rounds(_lock(tournament_id), actor)


# ------------------------------------------------------------- table links


def reissue_table_link(*, table_id: int, actor: Actor) -> str:
    """Revoke the table's active links and issue a new one; returns its token."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        revoked = _revoke_links(table.match_id, actor)
        _link, token = services.issue_link(
            match_id=table.match_id,
            label=table_link_label(table.round.tournament, table.round.number, table.number),
            actor=actor,
        )
        _audit(
            table.round.tournament,
            actor,
            "table link issued",
            after={"round": table.round.number, "table": table.number, "revoked": revoked},
        )
    return token


def revoke_table_links(*, table_id: int, actor: Actor) -> int:
    """Revoke every active link of the table's match; returns how many."""
    with transaction.atomic():
        table = Table.objects.select_related("round__tournament").get(pk=table_id)
        revoked = _revoke_links(table.match_id, actor)
        _audit(
            table.round.tournament,
            actor,
            "table link revoked",
            after={"round": table.round.number, "table": table.number, "revoked": revoked},
        )
    return revoked


def reissue_round_links(*, round_id: int, actor: Actor) -> dict[int, str]:
    """New links for every table of a round (the old ones stop working)."""
    tokens: dict[int, str] = {}
    with transaction.atomic():
        rnd = Round.objects.select_related("tournament").get(pk=round_id)
        if rnd.status == Round.Status.PROPOSED:
            raise ServiceError(_("This round is not published yet: it has no tables."), code="state")
        revoked = 0
        for table in Table.objects.filter(round=rnd).order_by("number"):
            revoked += _revoke_links(table.match_id, actor)
            _link, token = services.issue_link(
                match_id=table.match_id, label=table_link_label(rnd.tournament, rnd.number, table.number), actor=actor
            )
            tokens[table.pk] = token
        _audit(
            rnd.tournament,
            actor,
            "round links issued",
            after={"round": rnd.number, "tables": len(tokens), "revoked": revoked},
        )
    return tokens


def _revoke_links(match_id: int, actor: Actor) -> int:
    ids = list(AccessLink.objects.filter(match_id=match_id, revoked_at__isnull=True).values_list("pk", flat=True))
    for link_id in ids:
        services.revoke_link(link_id=link_id, actor=actor)
    return len(ids)


def active_tokens(round_id: int, tokens: dict) -> dict[int, str]:
    """Of the tokens a session holds for a round ({table_id: token}), those
    whose link still works (not revoked or replaced since): one query."""
    wanted = {}
    for table_id, token in (tokens or {}).items():
        try:
            wanted[hash_token(str(token))] = (int(table_id), str(token))
        except (TypeError, ValueError):
            continue
    alive = set(
        AccessLink.objects.filter(
            token_hash__in=list(wanted), revoked_at__isnull=True, match__table__round_id=round_id
        ).values_list("token_hash", flat=True)
    )
    return {table_id: token for h, (table_id, token) in wanted.items() if h in alive}


def remember_tokens(session, round_id: int, tokens: dict[int, str]) -> None:
    """Keep freshly issued tokens in the organiser's session (merged per round)."""
    stored = dict(session.get(SESSION_TOKENS, {}))
    current = dict(stored.pop(str(round_id), {}))
    current.update({str(k): v for k, v in tokens.items()})
    # newest rounds last; keep a few
    keys = list(stored)[-(TOKEN_ROUNDS_KEPT - 1) :] if TOKEN_ROUNDS_KEPT > 1 else []
    session[SESSION_TOKENS] = {**{k: stored[k] for k in keys}, str(round_id): current}


def session_tokens(session, round_id: int) -> dict:
    return dict(session.get(SESSION_TOKENS, {}).get(str(round_id), {}))


# ------------------------------------------------------------ ending early


def end_table_early(*, table_id: int, actor: Actor) -> Match:
    """Finish the table's match now: the current totals decide."""
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
        match.pending_bidding = None  # a hand not completed does not count
        match.version += 1
        match.save(
            update_fields=["status", "winners", "totals", "finished_at", "pending_bidding", "version", "updated_at"]
        )
        Table.objects.filter(pk=table.pk).update(ended_early_at=now)
        after = {"round": rnd.number, "table": table.number, "totals": totals, "winners": winners}
        services.audit(actor, "ended early", match=match, before=before, after=after)
        _audit(rnd.tournament, actor, "table ended early", before=before, after=after)
    return match


# --------------------------------------------------------------- selectors


@dataclass(slots=True)
class SeatView:
    player_id: int
    name: str
    total: Any
    winner: bool = False


@dataclass(slots=True)
class TableView:
    id: int
    number: int
    round_id: int
    round_number: int
    match_id: int
    status: str
    ended_early: bool
    hands_played: int
    seats: list[SeatView]
    winners: list[int]

    @property
    def finished(self) -> bool:
        return self.status == Match.Status.FINISHED

    @property
    def is_open(self) -> bool:
        return self.status == Match.Status.IN_PROGRESS

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[tuple[int, str]]  # (player_id, name)

    @property
    def finished_count(self) -> int:
        return sum(1 for t in self.tables if not t.is_open)

    @property
    def number(self) -> int:
        return self.round.number


@dataclass
class StandingRow:
    rank: int
    player_id: int
    name: str
    match_points: Any
    tiebreaks: list[Any]
    games_played: int
    dropped: bool
    dropped_after_round: int | None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    byes: int | None = None


@dataclass
class TournamentData:
    """Everything the pages show, loaded in a fixed number of queries."""

    tournament: Tournament
    entrants: list[dict]  # id, player_id, name, dropped_after_round, in registration order
    rounds: list[Round]
    tables_by_round: dict[int, list[TableView]]
    names: dict[int, str]

    @property
    def published(self) -> list[Round]:
        return [r for r in self.rounds if r.status != Round.Status.PROPOSED]

    @property
    def proposed(self) -> Round | None:
        return next((r for r in self.rounds if r.status == Round.Status.PROPOSED), None)

    @property
    def current(self) -> Round | None:
        """The latest published round."""
        published = self.published
        return published[-1] if published else None

    def round_view(self, rnd: Round | None) -> RoundView | None:
        if rnd is None:
            return None
        return RoundView(
            rnd, self.tables_by_round.get(rnd.pk, []), [(pid, self.names.get(pid, "?")) for pid in rnd.byes]
        )

    @property
    def current_view(self) -> RoundView | None:
        return self.round_view(self.current)

    @property
    def two_player(self) -> bool:
        return self.tournament.format in TWO_PLAYER_FORMATS


def _load(tournament: Tournament) -> TournamentData:
    """4 queries whatever the size: entrants (with names), rounds, tables
    with their matches, seats. Plain tuples and no per-row converters on the
    big ones (JSON decoded here, once), so 500 tables load in a few ms."""
    entrant_rows = list(
        Entrant.objects.filter(tournament=tournament)
        .order_by("registered_at", "id")
        .values_list("id", "player_id", "player__name", "dropped_after_round")
    )
    entrants = [
        {"id": eid, "player_id": player_id, "name": name, "dropped_after_round": dropped}
        for eid, player_id, name, dropped in entrant_rows
    ]
    names = {player_id: name for _eid, player_id, name, _dropped in entrant_rows}
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    round_numbers = {r.pk: r.number for r in rounds}
    seats: dict[int, list[tuple[int, int]]] = {}
    for match_id, position, player_id in Seat.objects.filter(match__table__round__tournament=tournament).values_list(
        "match_id", "position", "player_id"
    ):
        seats.setdefault(match_id, []).append((position, player_id))
    tables_by_round: dict[int, list[TableView]] = {}
    finished_status = Match.Status.FINISHED
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(
            ended=ExpressionWrapper(Q(ended_early_at__isnull=False), output_field=BooleanField()),
            totals_text=Cast("match__totals", TextField()),
            winners_text=Cast("match__winners", TextField()),
        )
        .order_by("round_id", "number")
        .values_list(
            "id",
            "number",
            "round_id",
            "match_id",
            "ended",
            "match__status",
            "totals_text",
            "winners_text",
            "match__hands_played",
        )
    )
    loads = json.loads
    for table_id, number, round_id, match_id, ended, status, totals_text, winners_text, hands in rows:
        totals = loads(totals_text) if totals_text else []
        finished = status == finished_status
        winners = (loads(winners_text) if winners_text else []) if finished else []
        table_seats = []
        for pos, player_id in sorted(seats.get(match_id, ())):
            table_seats.append(
                SeatView(player_id, names.get(player_id, "?"), totals[pos] if pos < len(totals) else 0, pos in winners)
            )
        tables_by_round.setdefault(round_id, []).append(
            TableView(
                table_id,
                number,
                round_id,
                round_numbers[round_id],
                match_id,
                status,
                bool(ended),
                hands,
                table_seats,
                winners,
            )
        )
    return TournamentData(tournament, entrants, rounds, tables_by_round, names)


def load_tournament(tournament: Tournament) -> TournamentData:
    return _load(tournament)


def _drops(data: TournamentData) -> list[dict]:
    return [
        {"player": e["player_id"], "round": e["dropped_after_round"]}
        for e in data.entrants
        if e["dropped_after_round"] is not None
    ]


def _two_player_inputs(data: TournamentData) -> dict[str, list]:
    """The pure standings' input from finished matches, published byes and drops."""
    results, byes = [], []
    for rnd in data.published:
        for table in data.tables_by_round.get(rnd.pk, []):
            if not table.finished or len(table.seats) != 2:
                continue
            a, b = table.seats
            winner = None
            if table.winners == [0]:
                winner = a.player_id
            elif table.winners == [1]:
                winner = b.player_id
            results.append(
                {
                    "round": rnd.number,
                    "a": a.player_id,
                    "b": b.player_id,
                    "score_a": a.total,
                    "score_b": b.total,
                    "winner": winner,
                }
            )
        byes += [{"round": rnd.number, "player": pid} for pid in rnd.byes]
    return {"results": results, "byes": byes, "drops": _drops(data)}


def _oh_hell_inputs(data: TournamentData) -> list[dict]:
    return [
        {
            "round": rnd.number,
            "table": table.number,
            "players": [s.player_id for s in table.seats],
            "totals": [s.total for s in table.seats],
        }
        for rnd in data.published
        for table in data.tables_by_round.get(rnd.pk, [])
        if table.finished and len(table.seats) >= 2
    ]


TWO_PLAYER_COLUMNS = (
    ("buchholz", "Buchholz"),
    ("score_difference", "Score difference"),
    ("head_to_head", "Head-to-head"),
)
OH_HELL_COLUMNS = (("total_score", "Total score"), ("average_place", "Average place"))


@dataclass
class Standings:
    data: TournamentData
    rows: list[StandingRow]
    columns: list[str]  # tiebreak headers, in order

    @property
    def tournament(self) -> Tournament:
        return self.data.tournament


def standings(tournament: Tournament, data: TournamentData | None = None) -> Standings:
    """The standings from finished matches: 4 queries whatever the size."""
    data = data or _load(tournament)
    dropped_after = {e["player_id"]: e["dropped_after_round"] for e in data.entrants}
    display_order = [e["player_id"] for e in sorted(data.entrants, key=lambda e: (name_key(e["name"]), e["id"]))]
    rows: list[StandingRow] = []
    if data.two_player:
        inputs = _two_player_inputs(data)
        columns = [str(_(label)) for _key, label in TWO_PLAYER_COLUMNS]
        for r in two_player_standings(inputs["results"], inputs["byes"], inputs["drops"], players=display_order):
            rows.append(
                StandingRow(
                    rank=r.rank,
                    player_id=r.player_id,
                    name=data.names.get(r.player_id, "?"),
                    match_points=r.match_points,
                    tiebreaks=[_number(r.tiebreaks.get(key)) for key, _label in TWO_PLAYER_COLUMNS],
                    games_played=r.games_played,
                    dropped=r.dropped,
                    dropped_after_round=dropped_after.get(r.player_id),
                    wins=r.wins,
                    draws=r.draws,
                    losses=r.losses,
                    byes=r.byes,
                )
            )
    else:
        columns = [str(_(label)) for _key, label in OH_HELL_COLUMNS]
        for r in oh_hell_standings(_oh_hell_inputs(data), _drops(data), players=display_order):
            rows.append(
                StandingRow(
                    rank=r.rank,
                    player_id=r.player_id,
                    name=data.names.get(r.player_id, "?"),
                    match_points=_number(r.match_points),
                    tiebreaks=[_number(r.tiebreaks.get(key)) for key, _label in OH_HELL_COLUMNS],
                    games_played=r.games_played,
                    dropped=r.dropped,
                    dropped_after_round=dropped_after.get(r.player_id),
                )
            )
    return Standings(data, rows, columns)


def standings_stamp(tournament: Tournament) -> tuple:
    """Changes whenever the standings may: any table's match written (every
    write bumps its version in the same transaction, so the sum only grows
    and never misses a write that commits late) or any tournament-level
    event (round published or completed, registration, drop). Two small
    queries instead of the four big ones."""
    matches = Match.objects.filter(table__round__tournament=tournament).aggregate(
        versions=Sum("version"), count=Count("id")
    )
    events = AuditEvent.objects.filter(tournament=tournament).count()
    return matches["versions"], matches["count"], events


def _number(value: Any) -> Any:
    """2.0 -> 2, 2.5 stays, None stays (shown as a dash)."""
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        return round(value, 2)
    return value


def filter_tables(view: RoundView | None, query: str) -> tuple[list[TableView], list[tuple[int, str]]]:
    """Tables and byes of a round with a player whose name contains ``query``
    (ignoring case and extra spaces); everything when the query is blank."""
    if view is None:
        return [], []
    key = name_key(query or "")
    if not key:
        return view.tables, view.byes
    tables = [t for t in view.tables if any(key in name_key(s.name) for s in t.seats)]
    byes = [(pid, name) for pid, name in view.byes if key in name_key(name)]
    return tables, byes


# --------------------------------------------------------------- dashboard


@dataclass
class NextStep:
    kind: str  # "start", "review", "wait", "finished", "register"
    round_number: int | None = None
    round_id: int | None = None
    done: int = 0
    total: int = 0


def next_step(data: TournamentData) -> NextStep:
    t = data.tournament
    proposed = data.proposed
    if proposed is not None:
        return NextStep("review", proposed.number, proposed.pk)
    current = data.current
    if current is not None and current.status == Round.Status.PLAYING:
        view = data.round_view(current)
        if view.finished_count < len(view.tables):
            return NextStep("wait", current.number, current.pk, view.finished_count, len(view.tables))
    if t.status == Tournament.Status.FINISHED:
        return NextStep("finished")
    number = len(data.rounds) + 1
    if t.planned_rounds and number > t.planned_rounds:
        return NextStep("finished")
    active = sum(1 for e in data.entrants if e["dropped_after_round"] is None)
    needed = 2 if data.two_player else MIN_TABLE
    if active < needed:
        return NextStep("register", number)
    return NextStep("start", number)


def can_register(data: TournamentData) -> bool:
    t = data.tournament
    if t.status == Tournament.Status.FINISHED:
        return False
    if t.format in ROUND_ROBIN_FORMATS and data.published:
        return False
    # a playing round whose tables are all over is complete (stored lazily)
    return all(
        not table.is_open
        for r in data.rounds
        if r.status == Round.Status.PLAYING
        for table in data.tables_by_round.get(r.pk, [])
    )


def tournaments_for(user) -> list[Tournament]:
    qs = (
        Tournament.objects.all()
        if user.is_superuser
        else Tournament.objects.filter(Q(owner=user) | Q(co_organisers=user)).distinct()
    )
    return list(
        qs.annotate(
            entrant_count=Count("entrants", distinct=True), round_count=Count("rounds", distinct=True)
        ).order_by("-created_at")
    )


# --------------------------------------------------------------------- csv


def standings_csv_rows(result: Standings) -> list[list[Any]]:
    two = result.data.two_player
    header = [_("Rank"), _("Player"), _("Match points"), *result.columns, _("Games played")]
    if two:
        header += [_("Wins"), _("Draws"), _("Losses"), _("Byes")]
    header.append(_("Dropped after round"))
    rows = [header]
    for r in result.rows:
        row = [r.rank, r.name, r.match_points, *("" if v is None else v for v in r.tiebreaks), r.games_played]
        if two:
            row += [r.wins, r.draws, r.losses, r.byes]
        row.append("" if r.dropped_after_round is None else r.dropped_after_round)
        rows.append(row)
    return rows


def results_csv_rows(data: TournamentData) -> list[list[Any]]:
    """One row per table per player (and one per bye), every published round."""
    rows = [[_("Round"), _("Table"), _("Seat"), _("Player"), _("Score"), _("Result"), _("Match points"), _("Status")]]
    for rnd in data.published:
        for table in data.tables_by_round.get(rnd.pk, []):
            status = (
                _("ended early")
                if table.ended_early
                else {
                    Match.Status.FINISHED: _("finished"),
                    Match.Status.IN_PROGRESS: _("in progress"),
                    Match.Status.ABANDONED: _("abandoned"),
                }.get(table.status, table.status)
            )
            places = table_places([s.total for s in table.seats]) if not data.two_player else None
            for pos, seat in enumerate(table.seats):
                result, points = "", ""
                if table.finished and data.two_player:
                    if len(table.winners) == 1:
                        won = table.winners[0] == pos
                        result, points = (_("win"), WIN_POINTS) if won else (_("loss"), LOSS_POINTS)
                    else:
                        result, points = _("draw"), DRAW_POINTS
                elif table.finished:
                    pts, place = places[pos]
                    result, points = _("place %(p)s") % {"p": _number(place)}, _number(pts)
                rows.append([rnd.number, table.number, pos + 1, seat.name, seat.total, result, points, status])
        for pid in rnd.byes:
            rows.append([rnd.number, "", "", data.names.get(pid, "?"), "", _("bye"), BYE_POINTS, ""])
    return rows


def csv_safe(value: Any) -> Any:
    """Keep a spreadsheet from running a name as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


__all__ = [
    "Registration",
    "complete_rounds",
    "create_tournament",
    "drop_entrant",
    "end_table_early",
    "formats_for",
    "load_tournament",
    "propose_round",
    "publish_round",
    "register_players",
    "reissue_round_links",
    "reissue_table_link",
    "revoke_table_links",
    "standings",
    "swap_players",
]
