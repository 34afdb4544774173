"""Backups in, first step: the whole file read and checked, nothing written.

Whatever the file holds, the answer is either everything it describes, in
plain typed values, or a ServiceError that says in words what is wrong
("Nothing was imported: ..."): never a server error, never half a file.

* The file as a whole: at most 50 MB of JSON; nested at most MAX_DEPTH
  deep; no NaN or Infinity; every number whole and within ±2^53; every
  text without control characters (NUL included) and at most MAX_TEXT long.
* Every value where it is read: its type exactly (``true`` is not 1, 1.5 is
  not a number of rounds), numbers within what the app itself allows.
* Every reference (a match's players, a table's match, an entrant) and
  every duplicate the database would refuse (two players with one number,
  a match at two tables, a player twice at one table or in one event,
  two rounds or tables with one number), before any write. Names are
  compared as the club's players are (without capitals: "Ann" and "ann"
  are one person).
* Every match scored by the rules engine, the bids in play checked too.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..i18n import shown, shown_message
from ..models import Hand, Round, Tournament, name_key
from ..players.services import clean_player_name
from ..scoring import GAMES, InvalidHand, check_bidding, score_match
from ..tournaments.formats import MAX_TABLE, MIN_TABLE, ROUND_ROBIN_FORMATS, formats_for
from . import identity
from .export import SCHEMA, VERSION

MAX_BYTES = 50 * 1024 * 1024
MAX_DEPTH = 32
MAX_TEXT = 2000
MAX_NUMBER = 2**53
MAX_ID = 2**53
MAX_ROUNDS = 30  # as tournaments.services allows; round robins: one round per opponent, twice at most
MAX_ROUND_ROBIN_ROUNDS = 2 * 1000
MAX_ROUND_MINUTES = 24 * 60
MAX_TABLE_NUMBER = 10_000
MAX_SEED = 2**31 - 1
TOURNAMENT_NAME_MAX = 100
READABLE_VERSIONS = (1, VERSION)


def fail(message: str) -> ServiceError:
    return ServiceError(_("Nothing was imported: %(why)s") % {"why": message}, code="invalid")


# ---------------------------------------------------------------- what it holds


@dataclass
class FileMatch:
    ref: int
    uid: uuid.UUID | None  # None: a version 1 match without its start time (never recognised again)
    copy_of: uuid.UUID | None
    game: str
    options: dict
    players: list[int]  # the file's player ids, in seat order
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
    label: str  # how messages name it: "match 3 (Spades: Ann · Bob)"


@dataclass
class FileTable:
    number: int
    match: int  # the file's match id
    ended_early_at: datetime | None


@dataclass
class FileRound:
    number: int
    status: str
    proposal: list[list[int]]
    byes: list[int]
    published_at: datetime | None
    ends_at: datetime | None
    paused_remaining: int | None
    completed_at: datetime | None
    tables: list[FileTable]


@dataclass
class FileTournament:
    uid: uuid.UUID
    copy_of: uuid.UUID | None
    name: str
    game: str
    options: dict
    format: str
    planned_rounds: int
    round_minutes: int | None
    table_size: int
    seed: int
    status: str
    public: bool
    confirm_hands: bool
    seed_by_rating: bool
    oh_hell_points: str
    entrants: list[tuple[int, int | None, int | None]]  # (file player id, dropped after round, partner's id)
    rounds: list[FileRound]
    label: str


@dataclass
class Backup:
    version: int
    backup_id: uuid.UUID | None
    players: dict[int, str]  # the file's player id -> the name, cleaned
    matches: list[FileMatch] = field(default_factory=list)
    tournaments: list[FileTournament] = field(default_factory=list)


# ---------------------------------------------------------------- the file as a whole


def _no_constant(name: str):
    raise ValueError(name)


def parse(raw: bytes | str) -> dict:
    """The JSON of a backup, checked as a whole (size, depth, numbers, texts)."""
    if len(raw) > MAX_BYTES:
        raise fail(_("the file is larger than 50 MB."))
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise fail(_("the file is nested too deeply to be a Scorekeeper backup.")) from None
    except (ValueError, UnicodeDecodeError):
        raise fail(_("this is not a Scorekeeper backup (not JSON).")) from None
    _check_values(data)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise fail(_("this is not a Scorekeeper backup."))
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise fail(
            _("the backup's version is %(v)s; this Scorekeeper reads versions 1 to %(ours)s.")
            % {"v": json.dumps(version), "ours": VERSION}
        )
    return data


def _check_values(data: Any) -> None:
    """Depth, numbers and texts everywhere in the file, without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise fail(_("the file is nested too deeply to be a Scorekeeper backup."))
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, float):
            raise fail(
                _("the file holds a number with a fraction (%(value)s): every number in a backup is whole.")
                % {"value": json.dumps(value)}
            )
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise fail(
                _("the file holds a number too large for a backup (%(digits)d digits).")
                % {"digits": len(str(abs(value)))}
            )


def _check_text(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise fail(_("the file holds a text longer than %(n)d characters.") % {"n": MAX_TEXT})
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text if c not in "\t\n\r"):
        raise fail(_("the file holds a control character (such as NUL) in a text."))


# ---------------------------------------------------------------- typed values


def _list(data: dict, key: str, where: str, *, required: bool = False) -> list:
    if key not in data and not required:
        return []
    value = data.get(key)
    if not isinstance(value, list):
        raise fail(_("%(where)s: “%(key)s” must be a list.") % {"where": where, "key": key})
    return value


def _object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise fail(_("%(where)s is not an object.") % {"where": where})
    return value


def _int(value: Any, where: str, what: str, *, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise fail(
            _("%(where)s: %(what)s must be a whole number from %(low)d to %(high)d, not %(value)s.")
            % {"where": where, "what": what, "low": low, "high": high, "value": json.dumps(value)[:40]}
        )
    return value


def _optional_int(value: Any, where: str, what: str, *, low: int, high: int) -> int | None:
    return None if value is None else _int(value, where, what, low=low, high=high)


def _bool(data: dict, key: str, where: str, default: bool) -> bool:
    value = data.get(key, default)
    if type(value) is not bool:
        raise fail(
            _("%(where)s: “%(key)s” must be true or false, not %(value)s.")
            % {"where": where, "key": key, "value": json.dumps(value)[:40]}
        )
    return value


def _choice(value: Any, choices, where: str, what: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise fail(
            _("%(where)s: unknown %(what)s %(value)s.")
            % {"where": where, "what": what, "value": json.dumps(value)[:40]}
        )
    return value


def _when(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError
        when = datetime.fromisoformat(value)
    except ValueError:
        raise fail(
            _("%(where)s: %(value)s is not a date and time.") % {"where": where, "value": json.dumps(value)[:50]}
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # a time without its zone: UTC, as exported


def _uid(value: Any, where: str) -> uuid.UUID:
    try:
        if not isinstance(value, str):
            raise ValueError
        return uuid.UUID(value)
    except ValueError:
        raise fail(
            _("%(where)s: its uid %(value)s is not a uid.") % {"where": where, "value": json.dumps(value)[:50]}
        ) from None


def _optional_uid(value: Any, where: str) -> uuid.UUID | None:
    return None if value is None else _uid(value, where)


def _numbered(items: list, noun: str, twice: str):
    """(where, item, its id) of each object, every id a number used once."""
    seen: set[int] = set()
    for i, item in enumerate(items):
        where = noun % {"n": i + 1}
        item = _object(item, where)
        ref = _int(item.get("id"), where, _("its number (“id”)"), low=0, high=MAX_ID)
        if ref in seen:
            raise fail(twice % {"id": ref})
        seen.add(ref)
        yield where, item, ref


# ---------------------------------------------------------------- the parts


def read(raw: bytes | str) -> Backup:
    """The whole backup, checked; raises ServiceError naming what is wrong."""
    data = parse(raw)
    version = data["version"]
    backup = Backup(
        version=version,
        backup_id=_uid(data.get("backup_id"), _("the file")) if version >= 2 else None,
        players=_players(data),
    )
    uids: set[uuid.UUID] = set()
    for where, m, ref in _numbered(
        _list(data, "matches", _("the file")), _("match %(n)d"), _("two matches have the number %(id)d.")
    ):
        match = _match(m, ref, where, backup)
        if match.uid is not None:
            if match.uid in uids:
                raise fail(_("%(where)s: another match of the file has the same uid.") % {"where": match.label})
            uids.add(match.uid)
        backup.matches.append(match)
    by_ref = {m.ref: m for m in backup.matches}
    at_tables: set[int] = set()
    uids = set()
    for i, t in enumerate(_list(data, "tournaments", _("the file"))):
        tournament = _tournament(_object(t, _("tournament %(n)d") % {"n": i + 1}), i, backup, by_ref, at_tables)
        if tournament.uid in uids:
            raise fail(_("%(where)s: another tournament of the file has the same uid.") % {"where": tournament.label})
        uids.add(tournament.uid)
        backup.tournaments.append(tournament)
    return backup


def _players(data: dict) -> dict[int, str]:
    names: dict[int, str] = {}
    for where, p, ref in _numbered(
        _list(data, "players", _("the file")), _("player %(n)d"), _("two players have the number %(id)d.")
    ):
        try:
            names[ref] = clean_player_name(p.get("name"))
        except ServiceError as e:
            raise fail(_("%(where)s: %(problem)s") % {"where": where, "problem": e.message}) from None
    return names


def _one_person_each(refs: list[int], names: dict[int, str], where: str, twice: str) -> None:
    """Each file player at most once, counting "Ann" and "ann" as one person."""
    seen: dict[str, str] = {}
    for ref in refs:
        key = name_key(names[ref])
        if key in seen:
            if seen[key] == names[ref]:
                raise fail(twice % {"where": where, "name": names[ref]})
            raise fail(
                _("%(where)s: “%(a)s” and “%(b)s” are one player here (names are matched without capitals).")
                % {"where": where, "a": seen[key], "b": names[ref]}
            )
        seen[key] = names[ref]


def _known_players(refs: list, names: dict[int, str], where: str) -> list[int]:
    for p in refs:
        if type(p) is not int or p not in names:
            raise fail(
                _("%(where)s: player %(p)s is not in the file's players.") % {"where": where, "p": json.dumps(p)[:40]}
            )
    return refs


def _match(m: dict, ref: int, where: str, backup: Backup) -> FileMatch:
    game = m.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise fail(
            _("%(where)s: the game %(game)s is not one of ours.") % {"where": where, "game": json.dumps(game)[:40]}
        )
    players = _known_players(_list(m, "players", where, required=True), backup.players, where)
    seat_names = [backup.players[p] for p in players]
    # Translators: which match of a backup is at fault: "match 3 (Spades: Ann · Bob)".
    label = _("%(where)s (%(game)s: %(players)s)") % {
        "where": where,
        "game": shown(GAMES[game].spec.name),
        "players": " · ".join(seat_names),
    }
    _one_person_each(players, backup.players, label, _("%(where)s: %(name)s sits in two seats."))
    hands = _list(m, "hands", label)
    options = m.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise fail(_("%(where)s: its options must be an object.") % {"where": label})
    bids = m.get("bids_in_play")
    engine_input = {"game": game, "players": seat_names, "options": options, "hands": hands}
    try:
        result = score_match(engine_input)
        if bids is not None:
            check_bidding(engine_input, bids)  # refuses bids in play after the end too
    except InvalidHand as error:
        # Translators: the match at fault, then the engine's message, which names the hand: "Hand 2: ...".
        raise fail(_("%(where)s: %(problem)s") % {"where": label, "problem": shown_message(error)}) from None
    confirmations = m.get("confirmations")
    if confirmations is None:
        confirmations = [""] * len(hands)
    if (
        not isinstance(confirmations, list)
        or len(confirmations) != len(hands)
        or any(not isinstance(c, str) or c not in Hand.Confirmation.values for c in confirmations)
    ):
        raise fail(_("%(where)s: the hands' confirmations do not match the hands.") % {"where": label})
    created_at = _when(m.get("created_at"), label)
    if backup.version >= 2:
        uid = _uid(m.get("uid"), label)
    else:
        uid = identity.legacy_match_uid(game, created_at) if created_at else None
    return FileMatch(
        ref=ref,
        uid=uid,
        copy_of=_optional_uid(m.get("copy_of"), label),
        game=game,
        options=options,
        players=players,
        hands=hands,
        bids_in_play=bids,
        abandoned=_bool(m, "abandoned", label, False),
        ended_early=_bool(m, "ended_early", label, False),
        created_at=created_at,
        finished_at=_when(m.get("finished_at"), label),
        result=result,
        confirm_hands=_bool(m, "confirm_hands", label, False),
        confirmations=confirmations,
        accepted_at=_when(m.get("accepted_at"), label),
        corrected_at=_when(m.get("corrected_at"), label),
        label=label,
    )


def _tournament(t: dict, i: int, backup: Backup, by_ref: dict[int, FileMatch], at_tables: set[int]) -> FileTournament:
    where = _("tournament %(n)d") % {"n": i + 1}
    name = t.get("name")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise fail(_("%(where)s needs a name.") % {"where": where})
    name = " ".join(name.split())
    if len(name) > TOURNAMENT_NAME_MAX:
        raise fail(
            _("%(where)s: its name is longer than %(n)d characters.") % {"where": where, "n": TOURNAMENT_NAME_MAX}
        )
    # Translators: which tournament of a backup is at fault: "tournament 2 (Spring cup)".
    where = _("%(where)s (%(name)s)") % {"where": where, "name": name}
    game = t.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise fail(
            _("%(where)s: the game %(game)s is not one of ours.") % {"where": where, "game": json.dumps(game)[:40]}
        )
    format = _choice(t.get("format"), formats_for(game), where, _("format"))
    status = _choice(t.get("status"), Tournament.Status.values, where, _("state"))
    high = MAX_ROUND_ROBIN_ROUNDS if format in ROUND_ROBIN_FORMATS else MAX_ROUNDS
    planned = _int(t.get("planned_rounds"), where, _("the number of rounds"), low=0, high=high)
    options = t.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise fail(_("%(where)s: its options must be an object.") % {"where": where})
    spec = GAMES[game].spec
    try:
        score_match(
            {"game": game, "players": [f"P{k}" for k in range(spec.min_players)], "options": options, "hands": []}
        )
    except InvalidHand as error:
        raise fail(_("%(where)s: %(problem)s") % {"where": where, "problem": shown_message(error)}) from None

    entrants, refs, partners = [], [], []
    pairs = GAMES[game].spec.has_sides  # a pairs event: each entrant is a player and a partner
    for k, e in enumerate(_list(t, "entrants", where)):
        e = _object(e, _("%(where)s, entrant %(n)d") % {"where": where, "n": k + 1})
        if type(e.get("player")) is not int or e.get("player") not in backup.players:
            raise fail(_("%(where)s: an entrant is not in the file's players.") % {"where": where})
        partner = e.get("partner")
        if pairs and (type(partner) is not int or partner not in backup.players):
            raise fail(_("%(where)s: a pair's partner is not in the file's players.") % {"where": where})
        if not pairs and partner is not None:
            raise fail(_("%(where)s: an entrant has a partner, but this game has no partnerships.") % {"where": where})
        dropped = _optional_int(e.get("dropped_after_round"), where, _("a drop's round"), low=0, high=max(planned, 1))
        entrants.append((e["player"], dropped, partner))
        refs.append(e["player"])
        partners += [partner] if pairs else []
    _one_person_each(refs + partners, backup.players, where, _("%(where)s: %(name)s is entered twice."))
    entered = {name_key(backup.players[p]) for p in refs}
    seated_too = entered | {name_key(backup.players[p]) for p in partners}  # who may sit at a table

    rounds = []
    for k, r in enumerate(_list(t, "rounds", where)):
        rounds.append(_round(r, k, where, planned, game, backup, entered, seated_too, by_ref, at_tables))
    if status == Tournament.Status.REGISTRATION and rounds:
        raise fail(_("%(where)s: it is in registration but has rounds.") % {"where": where})
    return FileTournament(
        uid=_uid(t.get("uid"), where)
        if backup.version >= 2
        else identity.legacy_tournament_uid(
            name,
            game,
            format,
            [by_ref[table.match].uid for r in rounds for table in r.tables],
            [backup.players[p] for p in refs],
        ),
        copy_of=_optional_uid(t.get("copy_of"), where),
        name=name,
        game=game,
        options=options,
        format=format,
        planned_rounds=planned,
        round_minutes=_optional_int(
            t.get("round_minutes"), where, _("the round time limit"), low=1, high=MAX_ROUND_MINUTES
        ),
        table_size=_int(t.get("table_size", 4), where, _("the table size"), low=MIN_TABLE, high=MAX_TABLE),
        seed=_int(t.get("seed", 0), where, _("the seating seed (“seed”)"), low=0, high=MAX_SEED),
        status=status,
        public=_bool(t, "public", where, True),
        confirm_hands=_bool(t, "confirm_hands", where, True),
        seed_by_rating=_bool(t, "seed_by_rating", where, False),
        # files from before the choice: every event counted placement points
        oh_hell_points=_choice(
            t.get("oh_hell_points", Tournament.OhHellPoints.PLACEMENT),
            Tournament.OhHellPoints.values,
            where,
            _("way of counting Oh Hell points (“oh_hell_points”)"),
        ),
        entrants=entrants,
        rounds=rounds,
        label=where,
    )


def _round(r, k, where, planned, game, backup, entered, seated_too, by_ref, at_tables) -> FileRound:
    r = _object(r, _("%(where)s, round %(n)d") % {"where": where, "n": k + 1})
    number = _int(r.get("number"), where, _("a round's number"), low=1, high=max(planned, 1))
    if number != k + 1:
        raise fail(
            _("%(where)s: its rounds must be numbered 1, 2, 3 … in order (round %(n)d is %(k)d in the list).")
            % {"where": where, "n": number, "k": k + 1}
        )
    where = _("%(where)s, round %(n)d") % {"where": where, "n": number}
    status = _choice(r.get("status"), Round.Status.values, where, _("state"))
    proposal = []
    for table in _list(r, "proposal", where):
        if not isinstance(table, list):
            raise fail(_("%(where)s: a proposed table is not a list of players.") % {"where": where})
        proposal.append(_known_players(table, backup.players, where))
    byes = _known_players(_list(r, "byes", where), backup.players, where)
    seated = [p for table in proposal for p in table] + byes
    _one_person_each(seated, backup.players, where, _("%(where)s: %(name)s is seated twice."))
    if any(name_key(backup.players[p]) not in entered for p in seated):
        raise fail(_("%(where)s: a player is seated who is not entered.") % {"where": where})
    tables, numbers = [], set()
    for table in _list(r, "tables", where):
        table = _object(table, where)
        ref = table.get("match")
        if type(ref) is not int or ref not in by_ref:
            raise fail(_("%(where)s: a table's match is not in the file.") % {"where": where})
        if ref in at_tables:
            raise fail(_("%(where)s: match %(ref)s is at two tables.") % {"where": where, "ref": ref})
        match = by_ref[ref]
        if match.game != game:
            raise fail(_("%(where)s: a table plays another game.") % {"where": where})
        if any(name_key(backup.players[p]) not in seated_too for p in match.players):
            raise fail(
                _("%(where)s: %(match)s seats a player who is not entered.") % {"where": where, "match": match.label}
            )
        table_number = _int(table.get("number"), where, _("a table's number"), low=1, high=MAX_TABLE_NUMBER)
        if table_number in numbers:
            raise fail(_("%(where)s: two tables have the number %(n)d.") % {"where": where, "n": table_number})
        numbers.add(table_number)
        at_tables.add(ref)
        tables.append(FileTable(table_number, ref, _when(table.get("ended_early_at"), where)))
    _one_person_each(
        [p for t in tables for p in by_ref[t.match].players],
        backup.players,
        where,
        _("%(where)s: %(name)s plays at two tables."),
    )
    return FileRound(
        number=number,
        status=status,
        proposal=proposal,
        byes=byes,
        published_at=_when(r.get("published_at"), where),
        ends_at=_when(r.get("ends_at"), where),
        paused_remaining=_optional_int(
            r.get("paused_remaining"), where, _("the clock's time left"), low=0, high=MAX_ROUND_MINUTES * 60
        ),
        completed_at=_when(r.get("completed_at"), where),
        tables=tables,
    )
