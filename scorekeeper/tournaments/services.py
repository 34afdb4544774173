"""Every write of a tournament: one transaction each, locking the row it
changes, leaving an ``AuditEvent(tournament=...)``. The rules of pairing
and seating live in the pure package ``scorekeeper.pairing``; this module
feeds it from the database (``selectors``) and stores what it proposes.
The decisions behind each write are in this package's docstring."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import Actor
from ..errors import ServiceError
from ..i18n import shown_message
from ..matches.services import start_match
from ..models import AuditEvent, Entrant, Match, Player, Round, Table, Tournament, name_key
from ..pairing import pair_swiss_round, planned_round, round_robin_rounds, swiss_players
from ..players.services import clean_player_name, get_or_create_player
from ..scoring import GAMES, InvalidHand, score_match
from .formats import (
    MAX_TABLE,
    MIN_TABLE,
    ROUND_ROBIN_FORMATS,
    SEATED_FORMATS,
    Format,
    format_mismatch_message,
    formats_for,
    is_pairs,
)
from .links import issue_table_links
from .rounds import TABLE_NOT_DONE, complete_rounds_locked
from .rounds import audit as _audit
from .rounds import lock as _lock
from .selectors import load_tournament, rating_seeds, two_player_inputs

NAME_MAX = 100
MAX_ROUNDS = 30
MAX_ROUND_MINUTES = 24 * 60
MAX_NAMES_AT_ONCE = 1000
Action = AuditEvent.Action


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
    confirm_hands: bool = True,
    seed_by_rating: bool = False,
    oh_hell_points: Any = Tournament.OhHellPoints.PLACEMENT,
    actor: Actor,
) -> Tournament:
    """A new tournament in registration. ``ServiceError.code`` names the
    form field at fault ("name", "game", "format", "options", "rounds",
    "round_minutes", "table_size", "oh_hell_points")."""
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
        raise ServiceError(format_mismatch_message(game), code="format")
    spec = GAMES[game].spec
    seated = format in SEATED_FORMATS

    if seated:
        table_size = 4 if table_size is None else table_size
        if not isinstance(table_size, int) or not MIN_TABLE <= table_size <= MAX_TABLE:
            raise ServiceError(
                _("The preferred table size must be %(a)d to %(b)d.") % {"a": MIN_TABLE, "b": MAX_TABLE},
                code="table_size",
            )
        if oh_hell_points not in Tournament.OhHellPoints.values:
            raise ServiceError(_("Choose how the tables' points are counted."), code="oh_hell_points")
    else:
        table_size = 4  # not used by pairings
        oh_hell_points = Tournament.OhHellPoints.PLACEMENT  # two-player events have their own points

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
        raise ServiceError(shown_message(error), code="options") from None

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
            confirm_hands=bool(confirm_hands),
            seed_by_rating=bool(seed_by_rating),
            oh_hell_points=oh_hell_points,
            owner=actor.user,
        )
        _audit(
            tournament,
            actor,
            Action.TOURNAMENT_CREATED,
            after={
                "name": name,
                "game": game,
                "format": format,
                "options": options,
                "rounds": planned,
                "round_minutes": round_minutes,
                "table_size": table_size,
                "is_public": bool(is_public),
                "confirm_hands": bool(confirm_hands),
                "seed_by_rating": bool(seed_by_rating),
                "oh_hell_points": oh_hell_points,
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
        complete_rounds_locked(tournament)
        _require_can_register(tournament)
        if is_pairs(tournament.game):
            return _register_pairs(tournament, names, result, actor)
        wanted: dict[str, str] = {}
        for raw in names:
            try:
                name = clean_player_name(raw)
            except ServiceError as error:
                # Translators: a name that could not be registered (cut at 40 characters), then why.
                result.errors.append(_("%(name)s…: %(problem)s") % {"name": raw[:40], "problem": error.message})
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
            player = get_or_create_player(name)
            new_entrants.append(Entrant(tournament=tournament, player=player))
            result.added.append(player.name)
        if new_entrants:
            Entrant.objects.bulk_create(new_entrants)
            _audit(tournament, actor, Action.PLAYERS_REGISTERED, after={"players": result.added})
            _repropose(tournament, actor)
    return result


PAIR_SEPARATOR = re.compile(r"\s*(?:&|\+|/)\s*")  # "Ann & Cat", "Ann + Cat", "Ann / Cat"


def _register_pairs(tournament: Tournament, entries: list[str], result: Registration, actor: Actor) -> Registration:
    """A pairs event: each entry is two names, "Ann & Cat" (a fixed pair,
    partners opposite at every table). A player is in one pair only."""
    registered = list(
        Entrant.objects.filter(tournament=tournament, partner__isnull=False).values_list("player__key", "partner__key")
    )
    taken = {key for pair in registered for key in pair}
    taken_pairs = set(registered) | {(b, a) for a, b in registered}
    new_entrants, seen, pairs_seen = [], set(), set()
    for raw in entries:
        parts = [part for part in PAIR_SEPARATOR.split(raw) if part]
        if len(parts) != 2:
            # Translators: an entry of a pairs event that is not two names, then how to write one.
            result.errors.append(_("%(entry)s: a pair is two names, e.g. “Ann & Cat”.") % {"entry": raw[:80]})
            continue
        try:
            first, second = (clean_player_name(part) for part in parts)
        except ServiceError as error:
            result.errors.append(_("%(name)s…: %(problem)s") % {"name": raw[:40], "problem": error.message})
            continue
        keys = (name_key(first), name_key(second))
        pair_words = _("%(first)s & %(second)s") % {"first": first, "second": second}
        if keys[0] == keys[1]:
            result.errors.append(_("%(entry)s: a pair is two different players.") % {"entry": pair_words})
            continue
        if keys in pairs_seen:
            result.duplicates.append(pair_words)
            continue
        if keys in taken_pairs:
            result.already.append(pair_words)
            continue
        busy = next((name for name, key in zip((first, second), keys, strict=True) if key in seen | taken), None)
        if busy is not None:
            result.errors.append(_("%(entry)s: %(name)s is already in a pair.") % {"entry": pair_words, "name": busy})
            continue
        pairs_seen.update((keys, keys[::-1]))
        seen.update(keys)
        player, partner = get_or_create_player(first), get_or_create_player(second)
        new_entrants.append(Entrant(tournament=tournament, player=player, partner=partner))
        result.added.append(_("%(first)s & %(second)s") % {"first": player.name, "second": partner.name})
    if new_entrants:
        Entrant.objects.bulk_create(new_entrants)
        _audit(tournament, actor, Action.PLAYERS_REGISTERED, after={"pairs": result.added})
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
            Action.PLAYER_DROPPED,
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
        Action.ROUND_PROPOSED_AGAIN,
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
        data = load_tournament(tournament)
        inputs = two_player_inputs(data)
        seeds = {e["player_id"]: k for k, e in enumerate(entrants)}
        if tournament.seed_by_rating:
            seeds = rating_seeds(tournament.game, [e["player_id"] for e in entrants])
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
    # The whole event is planned (all remaining rounds at once, fewest repeated
    # table-mates), worked out again from the seed and the rounds played.
    data = load_tournament(tournament)
    played = [
        [[s.player_id for s in t.seats] for t in data.tables_by_round.get(r.pk, [])]
        for r in sorted(data.rounds, key=lambda r: r.number)
        if r.status != Round.Status.PROPOSED and r.number < number
    ]
    tables = planned_round(
        active,
        max(tournament.planned_rounds, number),
        played,
        preferred=tournament.table_size,
        seed=tournament.seed,
    )
    return Proposal([list(t) for t in tables], [])


def propose_round(*, tournament_id: int, actor: Actor) -> Round:
    """Work out the next round and store it for review (no matches yet)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        complete_rounds_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise ServiceError(_("The tournament is over: all its rounds have been played."), code="state")
        rounds = list(
            Round.objects.filter(tournament=tournament).annotate(
                tables_open=Count("tables", filter=TABLE_NOT_DONE),
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
            Action.ROUND_PROPOSED,
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
            Action.PLAYERS_SWAPPED,
            before=before,
            after={
                "round": rnd.number,
                "swapped": [names.get(player_a), names.get(player_b)],
                "tables": tables,
                "byes": byes,
            },
        )
    return rnd


def publish_round(*, round_id: int, actor: Actor) -> dict[int, list[str]]:
    """Start one match per table and issue each table's scoring links, one
    per side. Returns {table_id: [token of side 0, of side 1]} (the cards
    work them out again whenever they are drawn)."""
    tokens: dict[int, list[str]] = {}
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
        # A pairs event's table is two pairs, each named by its first player:
        # the pairs sit partners opposite (seats 0 and 2 against 1 and 3, RULES.md 1.5).
        partners = dict(
            Entrant.objects.filter(tournament=tournament, player_id__in=seated_ids, partner__isnull=False).values_list(
                "player_id", "partner_id"
            )
        )
        names = dict(Player.objects.filter(pk__in=[*seated_ids, *partners.values()]).values_list("pk", "name"))
        for number, seats in enumerate(rnd.proposal, start=1):
            if partners:
                seats = [*seats, *(partners[pid] for pid in seats)]
            match = start_match(
                game=tournament.game,
                player_names=[names[pid] for pid in seats],
                options=tournament.options,
                actor=actor,
                confirm_hands=tournament.confirm_hands,
            )
            table = Table.objects.create(round=rnd, number=number, match=match)
            tokens[table.pk] = issue_table_links(table, actor)
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
            Action.ROUND_PUBLISHED,
            after={
                "round": rnd.number,
                "tables": rnd.proposal,
                "byes": rnd.byes,
                "ends_at": rnd.ends_at.isoformat() if rnd.ends_at else None,
            },
        )
        complete_rounds_locked(tournament)  # a round of byes only is over at once
    return tokens
