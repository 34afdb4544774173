"""Every read of score sheets and match lists, with a fixed number of
queries whatever the size of the match or the list."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _

from ..i18n import hands_count, listed, shown_message, shown_spec, side_names
from ..models import AuditEvent, Hand, Match, Table
from ..polls import round_clock, sheet_tag
from ..scoring import GameSpec, InvalidHand, get_game, score_match, score_with_hints
from ..stats.chart import Chart, running_totals
from .forms import bidding_stamp
from .wording import action_words, actor_words, change_words, short_names

# More players than this and the sheet packs them in (a grid of totals, a chip column each, short names).
MANY_PLAYERS = 4


@dataclass
class HistoryRow:
    number: int
    entry: dict
    points: list[int | None]
    totals: list[int | None]
    details: dict[str, Any]
    confirmation: str = ""  # the other side's check: "", "pending", "confirmed", "disputed"
    locked: bool = False  # confirmed, or the match accepted as it is: only an organiser changes it
    entered_by_link_id: int | None = None  # who made the hand as it stands (Hand.entered_by_*)
    entered_by_user_id: int | None = None
    why: list[str] | None = None  # the engine's why-lines (English data), where worked out (``Held.explained``)

    @cached_property
    def seats(self) -> list[dict[str, Any]]:
        """The row's cell of each player, in seat order: ``seat``, its
        ``points`` and ``total``, and its own value of each per-player list
        of the entry (``entry.bids``) and of the details (``details.bags``).
        The other values stay in ``entry`` and ``details``."""
        count = len(self.points)

        def own(values: dict, seat: int) -> dict:
            return {k: v[seat] for k, v in values.items() if isinstance(v, list) and len(v) == count}

        return [
            {
                "seat": seat,
                "points": self.points[seat],
                "total": self.totals[seat],
                "entry": own(self.entry, seat),
                "details": own(self.details, seat),
            }
            for seat in range(count)
        ]


@dataclass
class ScoreSheet:
    """One match as the table sees it, worked out by the engine from the
    stored hands."""

    match: Match
    spec: GameSpec
    rows: list[HistoryRow]  # hand 1 first
    totals: list[int]
    finished: bool
    winners: list[int]
    next_hand: dict | None
    hints: dict
    pending: dict | None  # bids/contract of the hand in play
    # A stored hand the rules no longer accept: the engine's message (English
    # data); ``problem`` is it in the reader's language.
    broken_message: str | None = None
    ended_early: bool = False  # a tournament table ended by the organiser
    # hand number -> the key of the write that made it as it stands (Hand.entry_key)
    entry_keys: dict[int, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return self.match.player_names

    @property
    def many_players(self) -> bool:
        """Five to seven players: the phone's width is shared out (app.css: totals-many, chips-many, sheet-many)."""
        return len(self.names) > MANY_PLAYERS

    @cached_property
    def column_heads(self) -> list[tuple[str, str]]:
        """(name, as shown) of each player, in seat order: a short form
        where the players are many (``wording.short_names``), the name
        itself otherwise. A short form is shown beside the whole name,
        which screen readers read and the eye does not see."""
        shown = short_names(self.names) if self.many_players else self.names
        return list(zip(self.names, shown, strict=True))

    @cached_property
    def side_names(self) -> list[str]:
        """Each side of partners by its players ("Ann & Cat"); empty without sides."""
        return side_names(self.spec, self.names)

    @property
    def side_numbers(self) -> list[int]:
        return list(range(len(self.spec.sides)))

    @cached_property
    def scorers(self) -> list[tuple[str, str]]:
        """(name, as shown) of whoever the totals are of, in their order:
        each side of partners where the game has sides (RULES.md 1.5),
        else each player (``column_heads``)."""
        if self.spec.has_sides:
            return [(name, name) for name in self.side_names]
        return self.column_heads

    @property
    def winner_names(self) -> list[str]:
        return [self.scorers[i][0] for i in self.winners]

    @cached_property
    def table(self) -> Table | None:
        """The tournament table this match is played at, if any: read with
        the match (``SHEET_RELATED``), else a query."""
        if Match.table.is_cached(self.match):
            return getattr(self.match, "table", None)  # None cached: not a tournament table
        return Table.objects.select_related("round__tournament").filter(match_id=self.match.pk).first()

    @property
    def poll_tag(self) -> str:
        """The poll's ETag for this sheet (``polls.sheet_tag``)."""
        rnd = self.table.round if self.table else None
        return sheet_tag(self.match.version, _clock(rnd), get_language())

    @property
    def tournament(self):
        return self.table.round.tournament if self.table else None

    @property
    def templates(self) -> dict[str, str]:
        """The partials of the game's one template, ``games/<id>.html``:
        ``entry`` (the next hand's panel and fields), ``fields`` (a hand's
        fields, for the edit page), ``row`` (a row of the history) and, for
        games with bidding, ``in_play`` (the bids in force, read-only)."""
        name = f"games/{self.spec.id}.html"
        return {part: f"{name}#{part}" for part in ("entry", "fields", "row", "in_play")}

    @property
    def bidding_stamp(self) -> str:
        """What the entry form says it was based on: the bids in force."""
        return bidding_stamp(self.pending)

    @cached_property
    def basis_key(self) -> str:
        """A short digest of what the entry panel is drawn from: the next
        hand and its bids in force, or the end, the abandon, a broken hand.
        The live poll sends it back; while it is the same, the panel (and
        what is being typed in it) is left alone."""
        state = [self.match.status, self.finished, self.broken_message, self.next_hand, self.pending]
        text = json.dumps(state, sort_keys=True, default=str)
        return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()

    @property
    def problem(self) -> str | None:
        return shown_message(self.broken_message, self.spec) if self.broken_message else None

    @property
    def history_newest_first(self) -> list[HistoryRow]:
        return list(reversed(self.rows))

    @property
    def leaders(self) -> list[int]:
        if not self.rows:
            return []
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    def option(self, name: str) -> Any:
        default = next((o.default for o in self.spec.options if o.name == name), None)
        return self.match.options.get(name, default)

    @property
    def target(self) -> int | None:
        return self.option("target")

    @property
    def option_items(self) -> list[tuple[str, Any]]:
        """(label, value as shown) for the menu."""
        items = []
        for option in self.spec.options:
            value = self.option(option.name)
            if option.kind == "choice":
                value = dict(option.choices).get(value, value)
            elif option.kind == "bool":
                value = _("yes") if value else _("no")
            items.append((option.label, value))
        return items

    @property
    def total_lines(self) -> list[tuple[tuple[str, str], int, str, str]]:
        """The totals box, a line per player (or side): ((name, as shown), total, its classes:
        "leader" and/or "winner", what else to show: "bags 3" in Spades)."""
        leaders, winners = set(self.leaders), set(self.winners)
        bags = self.rows[-1].details.get("bags") if self.rows else None
        return [
            (
                head,
                self.totals[seat],
                " ".join(c for c, on in (("leader", seat in leaders), ("winner", seat in winners)) if on),
                _("bags %(n)s") % {"n": bags[seat]} if bags else "",
            )
            for seat, head in enumerate(self.scorers)
        ]

    @property
    def engine_input(self) -> dict:
        return self.match.engine_input([row.entry for row in self.rows])

    @cached_property
    def chart(self) -> Chart | None:
        """The running totals as a chart: drawn for finished sheets only."""
        totals = [row.totals for row in self.rows if None not in row.totals]
        if not totals:
            return None
        target = self.target if isinstance(self.target, int) else None
        names = [name for name, _short in self.scorers]
        return running_totals(names, totals, target, rtl=get_language_bidi())

    @property
    def chart_description(self) -> str:
        """The chart in words, for screen readers."""
        finals = listed(
            _("%(name)s %(total)s") % {"name": name, "total": total}
            for (name, _short), total in zip(self.scorers, self.totals, strict=True)
        )
        # Translators: %(hands)s is "1 hand", "5 deals"... (counted in the game's own word).
        text = _("Running totals, %(hands)s. Final: %(finals)s.") % {
            "hands": hands_count(self.spec, len(self.rows)),
            "finals": finals,
        }
        if self.chart and self.chart.target is not None:
            text += " " + _("Target %(t)s.") % {"t": self.chart.target}
        return text


class HandRow(NamedTuple):
    """What a sheet (and a write under the lock) reads of each hand."""

    number: int
    entry: dict
    confirmation: str
    entry_key: str
    entered_by_link_id: int | None
    entered_by_user_id: int | None
    client_key: str


SHEET_RELATED = "table__round__tournament"  # the sheet shows its table, round and clock: read with the match


@dataclass
class Held:
    """A match as a write leaves it, for its answer without reading again:
    the match row (its table along), its hands (``HandRow``)
    and, once worked out, the engine's result and hints (``scored``)."""

    match: Match
    hands: list[HandRow]
    scored: tuple[dict, dict] | None = None

    @property
    def entries(self) -> list[dict]:
        return [hand.entry for hand in self.hands]

    def explained(self) -> list[int]:
        """The hands (0-based) whose why-lines the sheet shows: those
        waiting for the other side's check (the card passed across)."""
        if not self.match.confirm_hands:
            return []
        waiting = (Hand.Confirmation.PENDING, Hand.Confirmation.DISPUTED)
        return [k for k, hand in enumerate(self.hands) if hand.confirmation in waiting]


def read_held(match_id: int, *, lock: bool = False) -> Held:
    """The match (locked for this transaction with ``lock``) and its hands:
    2 queries. Raises Match.DoesNotExist."""
    matches = Match.objects.select_related(SHEET_RELATED)
    # PostgreSQL locks only the match's row (the table is an outer join); SQLite's write lock covers it.
    return held_of((matches.select_for_update(of=("self",)) if lock else matches).get(pk=match_id))


def read_match(match_id: int) -> Match | None:
    """The match with its table, round and tournament (``SHEET_RELATED``):
    one query. None: no such match."""
    return Match.objects.select_related(SHEET_RELATED).filter(pk=match_id).first()


def held_of(match: Match) -> Held:
    """``match`` (read with ``SHEET_RELATED``) and its hands: one query."""
    rows = Hand.objects.filter(match=match).order_by("number").values_list(*HandRow._fields)
    return Held(match, [HandRow(*row) for row in rows])


def score_sheet(match_id: int) -> ScoreSheet:
    """The whole sheet of one match in 2 queries. Raises Match.DoesNotExist."""
    return sheet_of(read_held(match_id))


def sheet_of(held: Held) -> ScoreSheet:
    """The sheet of what ``held`` holds, scored once (by the write that
    made it, or here): no query."""
    match = held.match
    sheet = _work_out(match, [(hand.number, hand.entry) for hand in held.hands], held.scored, held.explained())
    for row, hand in zip(sheet.rows, held.hands, strict=True):
        row.confirmation = hand.confirmation
        row.locked = hand.confirmation == Hand.Confirmation.CONFIRMED or match.accepted_at is not None
        row.entered_by_link_id, row.entered_by_user_id = hand.entered_by_link_id, hand.entered_by_user_id
        sheet.entry_keys[row.number] = hand.entry_key
    return sheet


def _work_out(
    match: Match, hands: list[tuple[int, dict]], scored: tuple[dict, dict] | None, explain: list[int]
) -> ScoreSheet:
    names, entries = match.player_names, [entry for _number, entry in hands]
    broken = None
    try:
        result, hints = scored or score_with_hints(match.engine_input(entries), match.pending_bidding, explain=explain)
    except InvalidHand as error:
        # Stored hands were legal when saved; only a stricter rule could get
        # here. Show the hands before the bad one scored, the rest as typed,
        # and let an edit of the bad hand fix the match.
        broken, hints = error, {}
        if error.hand_index is None:  # players or options: nothing can be scored
            count = len(get_game(match.game).spec.sides) or len(names)
            result = {"hands": [], "totals": [0] * count, "finished": False, "winners": []}
        else:
            result = score_match(match.engine_input(entries[: error.hand_index]))
        result["next_hand"] = None
    rows = []
    for index, (number, entry) in enumerate(hands):
        if index < len(result["hands"]):
            scored_hand = result["hands"][index]
            details = {k: v for k, v in scored_hand.items() if k not in ("points", "totals", "why")}
            row = HistoryRow(number, entry, scored_hand["points"], scored_hand["totals"], details)
            row.why = scored_hand.get("why")
            rows.append(row)
        else:
            count = len(result["totals"])
            rows.append(HistoryRow(number, entry, [None] * count, [None] * count, {}))
    # A tournament table ended at the time limit is over with its current totals.
    ended_early = match.status == Match.Status.FINISHED and not result["finished"] and broken is None
    if ended_early:
        result = {**result, "finished": True, "winners": match.winners, "next_hand": None}
    finished = result["finished"] and broken is None
    return ScoreSheet(
        match=match,
        spec=shown_spec(get_game(match.game).spec),
        rows=rows,
        totals=result["totals"],
        finished=finished,
        winners=result["winners"],
        next_hand=result["next_hand"],
        hints={} if finished or broken else hints,
        pending=None if finished or broken else match.pending_bidding,
        broken_message=broken.message if broken else None,
        ended_early=ended_early,
    )


def entry_context(match: Match) -> tuple[GameSpec, list[str]]:
    """What parsing a hand of this match needs: the game's spec and the
    players' names in seat order."""
    return shown_spec(get_game(match.game).spec), match.player_names


class PollState(NamedTuple):
    tag: str  # polls.sheet_tag
    private: bool  # a private tournament's table
    version: int
    round_id: int | None
    clock: str | None  # polls.round_clock of its round


def poll_state(match: Match) -> PollState:
    """What the sheet's "changed?" poll needs when the cache could not
    answer it (``polls``), from the match read with ``SHEET_RELATED``."""
    table = getattr(match, "table", None)
    rnd = table.round if table is not None else None
    clock, private = _clock(rnd), rnd is not None and not rnd.tournament.is_public
    return PollState(sheet_tag(match.version, clock, get_language()), private, match.version, rnd and rnd.pk, clock)


def _clock(rnd) -> str | None:
    """A tournament round's state and clock as the poll's tag holds it (``polls.round_clock``)."""
    return round_clock(rnd.status, rnd.ends_at, rnd.paused_remaining) if rnd is not None else None


def matches_for_home(limit: int = 20) -> dict[str, list[Match]]:
    """In-progress matches first, then recent finished ones: a query each.
    A private tournament's tables are not listed (its organisers find
    them on the tournament's page)."""
    base = Match.objects.exclude(table__round__tournament__is_public=False).order_by("-updated_at")
    return {
        "in_progress": list(base.filter(status=Match.Status.IN_PROGRESS)[:limit]),
        "finished": list(base.filter(status=Match.Status.FINISHED)[:limit]),
        "abandoned": list(base.filter(status=Match.Status.ABANDONED)[:5]),
    }


@dataclass(frozen=True)
class Change:
    """One change of a match as the history of changes shows it: the audit
    event, and what it held before and after in words."""

    event: AuditEvent
    action: str  # "deal recorded" where the game says deal
    before: str
    after: str
    who: str = ""  # the actor in the reader's language (event.actor is the stored English)


def match_history(match: Match) -> list[Change]:
    """Every change of a match, newest first, worded from the game's spec
    ("Ann bid 4, took 6 · Bob bid 5, took 7")."""
    spec, names = shown_spec(get_game(match.game).spec), match.player_names
    events = match.audit_events.select_related("user").order_by("-at", "-id")
    return [
        Change(
            event,
            action_words(spec, event.action),
            change_words(spec, names, event.before),
            change_words(spec, names, event.after),
            actor_words(event.actor),
        )
        for event in events
    ]
