"""Backups in: a file from scorekeeper.backups.export, checked whole before
anything is written, then written in one transaction: all or nothing.

Every reference is checked (a match's players, a table's match, an
entrant's player) and every match is scored by the engine, so a file with
one illegal hand imports nothing and says which match and hand. Players are
matched by name ("Ann" here and "ann" in the file are one person); matches
and tournaments are added with new numbers; scores and winners are worked
out again, never copied from the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ..audit import SYSTEM, Actor, record
from ..errors import ServiceError
from ..i18n import shown, shown_message
from ..models import Entrant, Hand, Match, Round, Seat, Table, Tournament
from ..players.services import clean_player_name, get_or_create_player
from ..scoring import GAMES, InvalidHand, check_bidding, score_match
from .export import SCHEMA, VERSION

MAX_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class Imported:
    players: int
    matches: int
    tournaments: int


def _fail(message: str) -> ServiceError:
    return ServiceError(_("Nothing was imported: %(why)s") % {"why": message})


def parse(raw: bytes | str) -> dict:
    if len(raw) > MAX_BYTES:
        raise _fail(_("the file is larger than 50 MB."))
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise _fail(_("this is not a Scorekeeper backup (not JSON).")) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise _fail(_("this is not a Scorekeeper backup."))
    if data.get("version") != VERSION:
        raise _fail(
            _("the backup's version is %(v)s; this Scorekeeper reads version %(ours)s.")
            % {"v": data.get("version"), "ours": VERSION}
        )
    return data


def _list(data: dict, key: str, where: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise _fail(_("%(where)s: “%(key)s” must be a list.") % {"where": where, "key": key})
    return value


def _when(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _fail(_("%(where)s: %(value)r is not a date and time.") % {"where": where, "value": value}) from None


def _int(value: Any, where: str, *, low: int = 0, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        raise _fail(_("%(where)s: %(value)r is not a valid number.") % {"where": where, "value": value})
    return value


@dataclass
class _Match:
    ref: int
    game: str
    options: dict
    players: list[int]
    hands: list[dict]
    bids_in_play: dict | None
    abandoned: bool
    ended_early: bool
    created_at: datetime | None
    finished_at: datetime | None
    result: dict
    confirm_hands: bool
    confirmations: list[str]
    accepted_at: datetime | None
    corrected_at: datetime | None


def _numbered(data: dict, key: str, noun: str, twice: str):
    """(where, item, its id) of each object of the list ``data[key]``,
    every id a number used once."""
    seen: set[int] = set()
    for i, item in enumerate(_list(data, key, _("the file"))):
        where = noun % {"n": i + 1}
        if not isinstance(item, dict):
            raise _fail(_("%(where)s is not an object.") % {"where": where})
        ref = _int(item.get("id"), where)
        if ref in seen:
            raise _fail(twice % {"id": ref})
        seen.add(ref)
        yield where, item, ref


def check(data: dict) -> tuple[dict[int, str], list[_Match], list[dict]]:
    """Everything in the file checked, nothing written: (player names by the
    file's ids, the matches scored, the tournaments). Raises ServiceError
    naming what is wrong."""
    names: dict[int, str] = {}
    for where, p, ref in _numbered(data, "players", _("player %(n)d"), _("two players have the number %(id)d.")):
        try:
            names[ref] = clean_player_name(p.get("name"))
        except ServiceError as e:
            raise _fail(_("%(where)s: %(problem)s") % {"where": where, "problem": e.message}) from None
    matches: list[_Match] = []
    for where, m, ref in _numbered(data, "matches", _("match %(n)d"), _("two matches have the number %(id)d.")):
        game = m.get("game")
        if game not in GAMES:
            raise _fail(_("%(where)s: the game %(game)r is not one of ours.") % {"where": where, "game": game})
        players = _list(m, "players", where)
        for p in players:
            if p not in names:
                raise _fail(_("%(where)s: player %(p)r is not in the file's players.") % {"where": where, "p": p})
        if len(set(players)) != len(players):
            raise _fail(_("%(where)s: a player sits in two seats.") % {"where": where})
        seat_names = [names[p] for p in players]
        # Translators: which match of a backup is at fault: "match 3 (Spades: Ann · Bob)".
        label = _("%(where)s (%(game)s: %(players)s)") % {
            "where": where,
            "game": shown(GAMES[game].spec.name),
            "players": " · ".join(seat_names),
        }
        hands = _list(m, "hands", label)
        options = m.get("options") or {}
        engine_input = {"game": game, "players": seat_names, "options": options, "hands": hands}
        try:
            result = score_match(engine_input)
            bids = m.get("bids_in_play")
            if bids is not None:
                check_bidding(engine_input, bids)  # refuses bids in play after the end too
        except InvalidHand as error:
            # Translators: the match at fault, then the engine's message, which names the hand: "Hand 2: ...".
            raise _fail(_("%(where)s: %(problem)s") % {"where": label, "problem": shown_message(error)}) from None
        confirmations = m.get("confirmations") or [""] * len(hands)
        if len(confirmations) != len(hands) or any(c not in Hand.Confirmation.values for c in confirmations):
            raise _fail(_("%(where)s: the hands' confirmations do not match the hands.") % {"where": label})
        matches.append(
            _Match(
                ref=ref,
                game=game,
                options=options,
                players=players,
                hands=hands,
                bids_in_play=bids,
                abandoned=m.get("abandoned") is True,
                ended_early=m.get("ended_early") is True,
                created_at=_when(m.get("created_at"), label),
                finished_at=_when(m.get("finished_at"), label),
                result=result,
                confirm_hands=m.get("confirm_hands") is True,
                confirmations=confirmations,
                accepted_at=_when(m.get("accepted_at"), label),
                corrected_at=_when(m.get("corrected_at"), label),
            )
        )
    tournaments = _list(data, "tournaments", _("the file"))
    by_ref = {m.ref: m for m in matches}
    used: set[int] = set()
    for i, t in enumerate(tournaments):
        where = _("tournament %(n)d") % {"n": i + 1}
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"].strip():
            raise _fail(_("%(where)s needs a name.") % {"where": where})
        # Translators: which tournament of a backup is at fault: "tournament 2 (Spring cup)".
        where = _("%(where)s (%(name)s)") % {"where": where, "name": t["name"]}
        if t.get("game") not in GAMES:
            raise _fail(_("%(where)s: the game %(game)r is not one of ours.") % {"where": where, "game": t.get("game")})
        if t.get("format") not in Tournament.Format.values or t.get("status") not in Tournament.Status.values:
            raise _fail(_("%(where)s: unknown format or state.") % {"where": where})
        _int(t.get("planned_rounds"), where, low=1)
        _int(t.get("table_size", 4), where, low=3, high=7)
        for e in _list(t, "entrants", where):
            if not isinstance(e, dict) or e.get("player") not in names:
                raise _fail(_("%(where)s: an entrant is not in the file's players.") % {"where": where})
        numbers = set()
        for r in _list(t, "rounds", where):
            if not isinstance(r, dict) or r.get("status") not in Round.Status.values:
                raise _fail(_("%(where)s: a round has an unknown state.") % {"where": where})
            number = _int(r.get("number"), where, low=1)
            if number in numbers:
                raise _fail(_("%(where)s: round %(n)d appears twice.") % {"where": where, "n": number})
            numbers.add(number)
            seated = [
                p for table in _list(r, "proposal", where) for p in (table if isinstance(table, list) else [None])
            ]
            if any(p not in names for p in seated + _list(r, "byes", where)):
                raise _fail(
                    _("%(where)s, round %(n)d: a player is not in the file's players.") % {"where": where, "n": number}
                )
            for table in _list(r, "tables", where):
                ref = table.get("match") if isinstance(table, dict) else None
                if ref not in by_ref:
                    raise _fail(
                        _("%(where)s, round %(n)d: a table's match is not in the file.") % {"where": where, "n": number}
                    )
                if ref in used:
                    raise _fail(_("%(where)s: match %(ref)s is at two tables.") % {"where": where, "ref": ref})
                if by_ref[ref].game != t["game"]:
                    raise _fail(_("%(where)s: a table plays another game.") % {"where": where})
                used.add(ref)
                _int(table.get("number"), where, low=1)
    return names, matches, tournaments


@transaction.atomic
def import_backup(raw: bytes | str, *, actor: Actor = SYSTEM) -> Imported:
    """Check the whole file, then write it: all or nothing."""
    names, matches, tournaments = check(parse(raw))
    players = {ref: get_or_create_player(name) for ref, name in names.items()}
    created: dict[int, Match] = {}
    for m in matches:
        result = m.result
        winners, status = result["winners"], Match.Status.IN_PROGRESS
        if m.abandoned:
            status = Match.Status.ABANDONED
        elif result["finished"]:
            status = Match.Status.FINISHED
        elif m.ended_early:  # ended at a round's time limit: the totals decide
            best = max(result["totals"])
            winners, status = [i for i, t in enumerate(result["totals"]) if t == best], Match.Status.FINISHED
        seated = [players[p] for p in m.players]
        match = Match.objects.create(
            game=m.game,
            options=m.options,
            status=status,
            player_names=[p.name for p in seated],
            totals=result["totals"],
            winners=winners,
            hands_played=len(m.hands),
            pending_bidding=m.bids_in_play if status == Match.Status.IN_PROGRESS else None,
            owner=actor.user,
            finished_at=(m.finished_at or m.created_at) if status == Match.Status.FINISHED else None,
            confirm_hands=m.confirm_hands,
            unconfirmed_hands=sum(
                c in (Hand.Confirmation.PENDING, Hand.Confirmation.DISPUTED) for c in m.confirmations
            ),
            accepted_at=m.accepted_at,
            corrected_at=m.corrected_at,
        )
        if m.created_at:  # auto_now_add: set after the insert
            Match.objects.filter(pk=match.pk).update(created_at=m.created_at)
        Seat.objects.bulk_create(Seat(match=match, player=p, position=i) for i, p in enumerate(seated))
        Hand.objects.bulk_create(
            Hand(match=match, number=i + 1, entry=h, confirmation=c)
            for i, (h, c) in enumerate(zip(m.hands, m.confirmations, strict=True))
        )
        record(actor, "match imported", match=match, after={"from backup match": m.ref})
        created[m.ref] = match
    for t in tournaments:
        tournament = Tournament.objects.create(
            name=t["name"].strip()[:100],
            game=t["game"],
            options=t.get("options") or {},
            format=t["format"],
            planned_rounds=t["planned_rounds"],
            round_minutes=t.get("round_minutes"),
            table_size=t.get("table_size", 4),
            seed=t.get("seed") or 0,
            status=t["status"],
            is_public=t.get("public", True) is not False,
            confirm_hands=t.get("confirm_hands", True) is not False,
            seed_by_rating=t.get("seed_by_rating") is True,
            owner=actor.user,
        )
        Entrant.objects.bulk_create(
            Entrant(
                tournament=tournament, player=players[e["player"]], dropped_after_round=e.get("dropped_after_round")
            )
            for e in t.get("entrants", [])
        )
        remap = {ref: p.pk for ref, p in players.items()}
        for r in t.get("rounds", []):
            rnd = Round.objects.create(
                tournament=tournament,
                number=r["number"],
                status=r["status"],
                proposal=[[remap[p] for p in table] for table in r.get("proposal") or []],
                byes=[remap[p] for p in r.get("byes") or []],
                published_at=_when(r.get("published_at"), t["name"]),
                ends_at=_when(r.get("ends_at"), t["name"]),
                completed_at=_when(r.get("completed_at"), t["name"]),
            )
            Table.objects.bulk_create(
                Table(
                    round=rnd,
                    number=table["number"],
                    match=created[table["match"]],
                    ended_early_at=_when(table.get("ended_early_at"), t["name"]),
                )
                for table in r.get("tables", [])
            )
        record(actor, "tournament imported", tournament=tournament, after={"name": tournament.name})
    return Imported(players=len(players), matches=len(created), tournaments=len(tournaments))
