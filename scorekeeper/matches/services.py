"""Every write of a match. Each is one transaction through the ORM: lock
the match row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE
transaction already holds the write lock), refuse a stale or repeated
write, score the whole match through the engine, write, audit. On a rule
problem or a stale page it raises ServiceError in plain words and has
written nothing.

Each write says what it was based on: saving bids or a hand carries the
hand number and the bids in force that the page showed; edit, undo and
restore carry the match's version. A repeated hand (same one-time key)
returns the hand saved the first time.

Once a match has ended (finished, abandoned, its table ended early, its
round or tournament over) its scoring links write nothing more
(``links_closed_at``, checked under the lock): a device is refused
("locked"), an organiser may still correct, recorded under their name."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import wraps

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..access.confirming import may_check
from ..audit import SHEET_ACTIONS, SYSTEM, Actor, change_of, record
from ..backups import copies
from ..errors import ServiceError
from ..i18n import hand_words, listed, shown, shown_message
from ..models import AuditEvent, Hand, Match, Seat, Table, name_key
from ..players.services import clean_player_name, get_or_create_player
from ..scoring import GAMES, InvalidHand, get_game, score_match, score_with_hints
from ..tournaments import rounds
from . import confirmation
from .selectors import HandRow, Held, read_held
from .write_checks import (
    no_such_hand,
    nothing_to_undo,
    only_checks_message,
    own_entry_message,
    require_bidding_in_force,
    require_link_may_write,
    require_next_hand,
    require_not_abandoned,
    require_open,
    require_version,
)

Action = AuditEvent.Action
# What _apply_result (and clearing the bids) changes on a match.
RESULT_FIELDS = ["totals", "winners", "hands_played", "status", "finished_at", "pending_bidding"]
RESTORABLE = (Action.HAND_RECORDED, Action.HAND_EDITED, Action.HAND_RESTORED, Action.HAND_UNDONE)


@dataclass(frozen=True)
class HandSaved:
    match: Match
    number: int  # the hand's number
    created: bool  # False: this submission was already saved before
    held: Held  # what the answer is drawn from


@dataclass(frozen=True)
class HandEdited:
    match: Match
    entry_key: str | None  # the corrected hand's new key (the phone that made it holds it); None: nothing changed
    held: Held


def completes_rounds(write):
    """After a write of a match, in its own transaction: if the match counts
    now, its round (and tournament) completes by itself when every table of
    it counts (``tournaments.rounds``), in the same call, not on a page view."""

    @wraps(write)
    def wrapper(*args, actor: Actor = SYSTEM, **kwargs):
        result = write(*args, actor=actor, **kwargs)
        match = result if isinstance(result, Match) else result.match
        if confirmation.counts_as_final(match):
            rounds.complete_round_of(match.pk, actor)
        return result

    return wrapper


# --------------------------------------------------------------- new matches


def start_match(
    *,
    game: str,
    player_names: list[str],
    options: dict | None,
    actor: Actor = SYSTEM,
    previous: Match | None = None,
    confirm_hands: bool = False,
) -> Match:
    """Create a match with players in seat order (seat 1 deals/draws first).
    ``confirm_hands``: the other side confirms each saved hand."""
    if game not in GAMES:
        raise ServiceError(_("Choose one of the games."))
    names = [clean_player_name(n) for n in player_names]
    same = same_player_message(list(enumerate(names, start=1)))
    if same:
        raise ServiceError(same)
    options = options or {}
    # The engine checks the player count and every option, in plain words.
    started = _score({"game": game, "players": names, "options": options, "hands": []})
    with transaction.atomic():
        players = [get_or_create_player(n) for n in names]
        match = Match.objects.create(
            game=game,
            options=options,
            player_names=[p.name for p in players],
            totals=started["totals"],  # a zero per player, or per side
            owner=actor.user,
            previous=previous,
            confirm_hands=confirm_hands,
        )
        Seat.objects.bulk_create(Seat(match=match, player=p, position=i) for i, p in enumerate(players))
        started = {"players": [p.name for p in players], "options": options}
        if confirm_hands:
            started["confirm_hands"] = True
        record(actor, Action.MATCH_STARTED, match=match, after=started)
    return match


def same_player_message(seats: list[tuple[int, str]]) -> str:
    """ "Seats 1 and 3 have the same player (Ann; ...)" for every player
    given more than one seat, or "" when each seat has its own player.
    ``seats``: (seat number as the form shows it, name)."""
    by_key: dict[str, list[tuple[int, str]]] = {}
    for number, name in seats:
        by_key.setdefault(name_key(name), []).append((number, name))
    sentences = []
    for taken in by_key.values():
        if len(taken) < 2:
            continue
        numbers = [str(number) for number, _name in taken]
        sentences.append(
            _(
                "Seats %(seats)s and %(last)s have the same player (%(name)s; names are compared ignoring capitals"
                " and extra spaces)."
            )
            % {"seats": listed(numbers[:-1]), "last": numbers[-1], "name": taken[0][1]}
        )
    return " ".join(sentences)


@transaction.atomic
def play_again(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    """Same game, options and players; seats move one place to the left so
    that somebody else deals (or draws) first. Asked twice (a double tap,
    a second phone), it gives the rematch made the first time."""
    match = Match.objects.select_for_update().get(pk=match_id)
    earlier = match.rematches.order_by("-created_at").first()
    if earlier is not None:
        return earlier
    names = match.player_names
    return start_match(
        game=match.game,
        player_names=names[1:] + names[:1],
        options=match.options,
        actor=actor,
        previous=match,
        confirm_hands=match.confirm_hands,
    )


# ------------------------------------------------------- the hand being played


@transaction.atomic
def save_bidding(
    *, match_id: int, bidding: dict, number: int, bidding_in_force: dict | None, actor: Actor = SYSTEM
) -> Held:
    """Record the bids (or contract) of hand ``number`` before it is
    played. ``bidding_in_force``: the bids the page showed (None: none)."""
    held = _lock(match_id)
    match = held.match
    require_link_may_write(match, actor)
    require_open(match)
    require_next_hand(match, number)
    if match.pending_bidding == bidding:
        return held  # already in force (a double tap): nothing to write
    require_bidding_in_force(match, bidding_in_force)
    _score_held(held, bidding=bidding, check=True)
    before = match.pending_bidding
    match.pending_bidding = bidding
    _write(match, ["pending_bidding"], actor, Action.BIDS_SAVED, hand_number=number, before=before, after=bidding)
    return held


@transaction.atomic
def clear_bidding(*, match_id: int, number: int, bidding_in_force: dict | None, actor: Actor = SYSTEM) -> Held:
    held = _lock(match_id)
    match = held.match
    require_link_may_write(match, actor)
    require_open(match)
    require_next_hand(match, number)
    if match.pending_bidding is None:
        return held  # already cleared
    require_bidding_in_force(match, bidding_in_force)
    before = match.pending_bidding
    match.pending_bidding = None
    _write(match, ["pending_bidding"], actor, Action.BIDS_CLEARED, hand_number=number, before=before)
    return held


@completes_rounds
@transaction.atomic
def record_hand(
    *,
    match_id: int,
    entry: dict,
    number: int,
    bidding_in_force: dict | None,
    client_key: str,
    actor: Actor = SYSTEM,
) -> HandSaved:
    """Add hand ``number``, the next completed hand. A repeated
    ``client_key`` returns the hand saved the first time and writes
    nothing. If another device saved that hand first, or saved or changed
    the bids since the page was drawn, nothing is written."""
    held = _lock(match_id)
    match = held.match
    saved_before = next((hand for hand in held.hands if hand.client_key == client_key), None)
    if saved_before is not None:
        return HandSaved(match, saved_before.number, created=False, held=held)
    require_link_may_write(match, actor)
    require_open(match)
    require_next_hand(match, number)
    require_bidding_in_force(match, bidding_in_force)
    state = confirmation.first_state(match)
    held.hands.append(_row(number, entry, state, client_key, actor, client_key=client_key))
    match.pending_bidding = None
    result = _score_held(held)
    Hand.objects.create(
        match=match,
        number=number,
        entry=entry,
        client_key=client_key,
        confirmation=state,
        entry_key=client_key,
        **_entered_by(actor),
    )
    counted = confirmation.count_new_hand(match)
    _apply_result(match, result)
    fields = [*RESULT_FIELDS, *counted, *_settle(match, actor)]
    _write(match, fields, actor, Action.HAND_RECORDED, hand_number=number, after=entry)
    return HandSaved(match, number, created=True, held=held)


# ------------------------------------------------------------- corrections


@completes_rounds
@transaction.atomic
def edit_hand(
    *,
    match_id: int,
    number: int,
    entry: dict,
    version: int,
    actor: Actor = SYSTEM,
    action: str = Action.HAND_EDITED,
) -> HandEdited:
    """Replace a past hand and re-score every hand after it. Refused if the
    match changed since the editor loaded it (``version``), or if a later
    hand becomes illegal (the engine's message names it). The same entry
    again changes nothing (and makes nobody the one who entered the hand),
    except for a hand marked as wrong: saved as it is, it waits for the
    other side's check again."""
    held = _lock(match_id)
    match, entries = held.match, held.entries
    require_link_may_write(match, actor, after_the_end=True)
    require_not_abandoned(match)
    require_version(match, version)
    if not 1 <= number <= len(entries):
        raise ServiceError(no_such_hand(match, number), code="not_found")
    lock = confirmation.guard_correction(match, number, actor)
    if actor.link is not None and match.status == Match.Status.FINISHED and lock.state != confirmation.DISPUTED:
        raise ServiceError(only_checks_message(match), code="locked")
    before = entries[number - 1]
    if entry == before and lock.state != confirmation.DISPUTED:
        return HandEdited(match, None, held)
    entry_key = uuid.uuid4().hex
    after = confirmation.state_after_edit(lock)
    old = held.hands[number - 1]
    state = after.get("confirmation", old.confirmation)
    held.hands[number - 1] = _row(number, entry, state, entry_key, actor, client_key=old.client_key)
    result = _score_held(held)
    Hand.objects.filter(match=match, number=number).update(
        entry=entry,
        updated_at=timezone.now(),
        entry_key=entry_key,
        **_entered_by(actor),
        **after,
    )
    if result["finished"]:
        match.pending_bidding = None
    _apply_result(match, result)
    fields = [*RESULT_FIELDS, *confirmation.mark_correction(match, lock), *_settle(match, actor)]
    _write(match, fields, actor, action, hand_number=number, before=before, after=entry)
    confirmation.record_correction(actor, match, number, lock)
    return HandEdited(match, entry_key, held)


def restore_hand(*, match_id: int, event_id: int, which: str, version: int, actor: Actor) -> int:
    """Put back a hand as a change in the history had it (``which``:
    "before" or "after" that change). Returns the hand's number."""
    event = AuditEvent.objects.filter(pk=event_id, match_id=match_id).first()
    if event is None:
        raise ServiceError(_("There is no such change in this match's history."), code="not_found")
    entry = event.before if which == "before" else event.after
    if event.action not in RESTORABLE or event.hand_number is None or not isinstance(entry, dict):
        raise ServiceError(_("That change has no hand to restore."))
    played = Match.objects.filter(pk=match_id).values_list("hands_played", flat=True).first() or 0
    if event.action == Action.HAND_UNDONE and event.hand_number > played:  # not on the sheet now: put it back
        put_back_hand(match_id=match_id, number=event.hand_number, entry=entry, version=version, actor=actor)
        return event.hand_number
    edit_hand(
        match_id=match_id,
        number=event.hand_number,
        entry=entry,
        version=version,
        actor=actor,
        action=Action.HAND_RESTORED,
    )
    return event.hand_number


@completes_rounds
@transaction.atomic
def put_back_hand(*, match_id: int, number: int, entry: dict, version: int, actor: Actor = SYSTEM) -> Match:
    """Put an undone hand back as the last one. Refused if the match changed
    since the page was drawn (``version``), if other hands were added or
    undone since (it must be the next hand again) or if the rules no longer
    accept it. Bids saved for the next hand meanwhile are dropped: they were
    made for the hand now put back."""
    held = _lock(match_id)
    match, entries = held.match, held.entries
    require_not_abandoned(match)
    require_version(match, version)
    if number != len(entries) + 1:
        noun = shown(get_game(match.game).spec.hand_noun)
        raise ServiceError(
            # Translators: %(h)s is the game's word for a hand: "hand" (or "deal" in Sixty-Six).
            _("Only the next %(h)s, %(h)s %(n)d, can be put back.") % {"h": noun, "n": len(entries) + 1},
            code="conflict",
        )
    require_open(match)
    result = _score(match.engine_input([*entries, entry]))
    key = f"restored-{uuid.uuid4().hex}"
    Hand.objects.create(match=match, number=number, entry=entry, client_key=key, entry_key=key, **_entered_by(actor))
    match.pending_bidding = None
    _apply_result(match, result)
    fields = [*RESULT_FIELDS, *_settle(match, actor)]
    _write(match, fields, actor, Action.HAND_RESTORED, hand_number=number, after=entry)
    return match


@completes_rounds
@transaction.atomic
def undo_last_hand(*, match_id: int, version: int, actor: Actor = SYSTEM) -> Held:
    held = _lock(match_id)
    match, entries = held.match, held.entries
    require_link_may_write(match, actor)
    require_not_abandoned(match)
    require_version(match, version)
    if not entries:
        raise ServiceError(nothing_to_undo(match))
    lock = confirmation.guard_correction(match, len(entries), actor)
    held.hands.pop()
    match.pending_bidding = None  # bids made for the hand after the undone one
    result = _score_held(held)
    Hand.objects.filter(match=match, number=len(entries)).delete()
    _apply_result(match, result)
    fields = [*RESULT_FIELDS, *confirmation.mark_correction(match, lock, removed=True), *_settle(match, actor)]
    _write(match, fields, actor, Action.HAND_UNDONE, hand_number=len(entries), before=entries[-1])
    confirmation.record_correction(actor, match, len(entries), lock)
    return held


# --------------------------------------------------- the other side's check


@dataclass(frozen=True)
class HandChecked:
    match: Match
    number: int
    verdict: str  # "confirmed" or "disputed"
    created: bool  # False: this form was already answered before


@completes_rounds
@transaction.atomic
def check_hand(
    *,
    match_id: int,
    number: int,
    correct: bool,
    version: int,
    client_key: str,
    entered_here: set[str] = frozenset(),
    actor: Actor = SYSTEM,
) -> HandChecked:
    """The other side's answer about hand ``number``: correct (the hand is
    confirmed and locked) or something is wrong (the hand is disputed: the
    table corrects it). ``entered_here``: the one-time keys of the hands
    the asking phone entered (the card on the same phone). A repeated
    ``client_key`` returns the first answer; a stale ``version`` or the
    screen that entered the hand (from another phone) is refused."""
    match = Match.objects.select_for_update().get(pk=match_id)
    earlier = Hand.objects.filter(match=match, check_key=client_key).only("number", "confirmation").first()
    if earlier is not None:
        return HandChecked(match, earlier.number, earlier.confirmation, created=False)
    require_link_may_write(match, actor, after_the_end=True)
    require_not_abandoned(match)
    require_version(match, version)
    hand = Hand.objects.filter(match=match, number=number).first()
    if hand is None:
        raise ServiceError(no_such_hand(match, number), code="not_found")
    n = {**hand_words(match.game), "n": number}
    if not match.confirm_hands or hand.confirmation == confirmation.CONFIRMED or match.accepted_at is not None:
        raise ServiceError(_("%(H)s %(n)d needs no check: nothing was changed.") % n, code="conflict")
    if not correct and hand.confirmation == confirmation.DISPUTED:
        raise ServiceError(_("%(H)s %(n)d is already marked as wrong: correct it first.") % n, code="conflict")
    if not may_check(actor, hand, same_phone=hand.entry_key in entered_here):
        raise ServiceError(own_entry_message(match, number), code="forbidden")
    before = hand.confirmation
    state = confirmation.CONFIRMED if correct else confirmation.DISPUTED
    Hand.objects.filter(pk=hand.pk).update(confirmation=state, check_key=client_key, updated_at=timezone.now())
    fields = []
    if correct:
        match.unconfirmed_hands -= 1
        fields.append("unconfirmed_hands")
    action = Action.HAND_CONFIRMED if correct else Action.HAND_DISPUTED
    fields = [*fields, *_settle(match, actor)]
    _write(match, fields, actor, action, hand_number=number, before={"state": before}, after={"key": client_key})
    return HandChecked(match, number, state, created=True)


@completes_rounds
@transaction.atomic
def accept_match(*, match_id: int, version: int, actor: Actor) -> Match:
    """An organiser accepts a finished match as it is, hands not yet
    confirmed included: it counts in the standings from now on."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.accepted_at is not None:
        return match  # already accepted (a double tap): nothing to write
    if not confirmation.by_organiser(actor):
        raise ServiceError(_("Only the match's organisers can accept it as it is."), code="forbidden")
    require_version(match, version)
    if match.status != Match.Status.FINISHED:
        raise ServiceError(_("Only a finished match can be accepted as it is."), code="closed")
    if match.unconfirmed_hands == 0:
        raise ServiceError(
            _("Every %(h)s of this match is confirmed: there is nothing to accept.") % hand_words(match.game),
            code="conflict",
        )
    match.accepted_at = timezone.now()
    fields = ["accepted_at", *_settle(match, actor)]
    _write(match, fields, actor, Action.ACCEPTED, after={"hands not confirmed": match.unconfirmed_hands})
    return match


# --------------------------------------------------------------- the match


@transaction.atomic
def abandon_match(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.IN_PROGRESS:
        raise ServiceError(_("Only a match in progress can be abandoned."), code="closed")
    match.status = Match.Status.ABANDONED
    match.links_closed_at = match.links_closed_at or timezone.now()
    _write(match, ["status", "links_closed_at"], actor, Action.MATCH_ABANDONED)
    return match


@transaction.atomic
def reopen_match(*, match_id: int, actor: Actor = SYSTEM, links_write: bool = False) -> Match:
    """Back in progress. Its scoring links stay closed unless the organiser
    chooses (``links_write``) to let them write again; a tournament
    table's links stay closed for good."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.ABANDONED:
        raise ServiceError(_("Only an abandoned match can be reopened."), code="closed")
    match.status = Match.Status.IN_PROGRESS
    links_write = links_write and not Table.objects.filter(match=match).exists()
    if links_write:
        match.links_closed_at = None
    fields = ["status", "links_closed_at"]
    _write(match, fields, actor, Action.MATCH_REOPENED, after={"links_write": True} if links_write else None)
    return match


# ------------------------------------------------------------------- helpers


def _lock(match_id: int) -> Held:
    """Lock the match row for this transaction and read it with its hands:
    the only read of the write, and what its answer is drawn from."""
    return read_held(match_id, lock=True)


def _score_held(held: Held, *, bidding: dict | None = None, check: bool = False) -> dict:
    """Score what ``held`` now holds, once for the whole request (the
    answer is drawn from it): the engine's result, kept in ``held``. With
    ``check``: ``bidding`` must be a legal start of the next hand. A rule
    broken: ServiceError, nothing written."""
    match = held.match
    try:
        held.scored = score_with_hints(
            match.engine_input(held.entries),
            bidding if check else match.pending_bidding,
            explain=held.explained(),
            check=check,
        )
    except InvalidHand as error:
        raise ServiceError(shown_message(error, match.game)) from None
    return held.scored[0]


def _row(number: int, entry: dict, state: str, entry_key: str, actor: Actor, *, client_key: str) -> HandRow:
    """A hand as the sheet reads it, for the answer without reading it back."""
    by = _entered_by(actor)
    link, user = by["entered_by_link"], by["entered_by_user"]
    return HandRow(number, entry, state, entry_key, link.pk if link else None, user.pk if user else None, client_key)


def _score(engine_input: dict) -> dict:
    try:
        return score_match(engine_input)
    except InvalidHand as error:
        raise ServiceError(shown_message(error, engine_input.get("game"))) from None


def _entered_by(actor: Actor) -> dict:
    """Who makes a hand as it stands: a table's link, else an organiser's login."""
    return {"entered_by_link": actor.link, "entered_by_user": actor.user if actor.link is None else None}


def _settle(match: Match, actor: Actor) -> list[str]:
    """Once a match over counts its links close; the fields to save. Its
    round may then complete (``completes_rounds``)."""
    return confirmation.settle(match)


def _apply_result(match: Match, result: dict) -> None:
    """Set the match's result fields (RESULT_FIELDS) from a scoring; the caller saves."""
    match.totals = result["totals"]
    match.winners = result["winners"]
    match.hands_played = len(result["hands"])
    if match.status == Match.Status.FINISHED and _ended_early(match):
        # Ended by the organiser at a round's time limit: a correction keeps
        # it ended, and the corrected totals decide (highest total wins).
        best = max(result["totals"])
        match.winners = [i for i, total in enumerate(result["totals"]) if total == best]
    elif result["finished"]:
        if match.status != Match.Status.FINISHED:
            match.finished_at = timezone.now()
            copies.after_commit(f"match {match.pk} finished", every_time=False)
        match.status = Match.Status.FINISHED
    elif match.status == Match.Status.FINISHED:
        match.status = Match.Status.IN_PROGRESS  # an edit or undo reopened the game
        match.finished_at = None


def _ended_early(match: Match) -> bool:
    return Table.objects.filter(match=match, ended_early_at__isnull=False).exists()


def _write(
    match: Match, fields: list[str], actor: Actor, action: str, *, hand_number: int | None = None, **audit
) -> None:
    """Save the match's ``fields`` and record who did what. Every write
    bumps the version (a page drawn before it is stale); a change of what
    the sheet shows is kept on the row too (``audit.Change``: the live
    sheet's note of what happened)."""
    match.version += 1
    fields = [*fields, "version", "updated_at"]
    if action in SHEET_ACTIONS:
        match.last_change = change_of(actor, action, hand_number)
        fields.append("last_change")
    match.save(update_fields=fields)
    record(actor, action, match=match, hand_number=hand_number, **audit)
