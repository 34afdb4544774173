"""Every write. Each function runs in one transaction, locks the match row,
re-scores the whole match through the engine before anything is saved, and
writes an audit event. On a rule problem it raises ServiceError with the
engine's message and has written nothing. Saving a hand from a state the
view has just read scores it first and then writes on condition that the
match's version is unchanged (record_hand): the same guarantee, a shorter
lock."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import NAME_MAX_LENGTH, AccessLink, AuditEvent, Hand, Match, Player, Seat, Table, name_key
from .rows import insert_row, update_then_insert
from .scoring import GAMES, InvalidHand, check_bidding, score_match, score_with_hints
from .selectors import MatchState
from .tokens import hash_token, new_token


class ServiceError(Exception):
    """A request that cannot be carried out; ``message`` is for the player."""

    def __init__(self, message: str, *, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Actor:
    """Who is writing, for permissions and the audit trail."""

    label: str
    user: Any = None
    link: Any = None  # the AccessLink a device used, if any

    @classmethod
    def for_request(cls, request) -> Actor:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return cls(label=f"organiser {user.get_username()}", user=user)
        return cls(label="scorer (no account)")


SYSTEM = Actor(label="system")


# ------------------------------------------------------------------- players


def clean_player_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ServiceError(_("A player needs a name."))
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A player needs a name."))
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(_("A name can be at most %(n)d characters.") % {"n": NAME_MAX_LENGTH})
    return name


def get_or_create_player(name: str) -> Player:
    name = clean_player_name(name)
    existing = Player.objects.filter(key=name_key(name)).first()
    if existing:
        return existing
    try:
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:  # created by someone else a moment ago
        return Player.objects.get(key=name_key(name))


def add_player(*, name: str, actor: Actor = SYSTEM) -> Player:
    name = clean_player_name(name)
    try:
        with transaction.atomic():
            player = Player.objects.create(name=name)
            audit(actor, "player added", after={"player": player.pk, "name": name})
    except IntegrityError:
        raise ServiceError(_("There is already a player called %(name)s.") % {"name": name}) from None
    return player


def rename_player(*, player_id: int, name: str, actor: Actor = SYSTEM) -> Player:
    name = clean_player_name(name)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if Player.objects.filter(key=name_key(name)).exclude(pk=player.pk).exists():
            raise ServiceError(_("There is already a player called %(name)s.") % {"name": name})
        before = player.name
        player.name = name
        player.save(update_fields=["name", "key"])
        audit(actor, "player renamed", before={"player": player.pk, "name": before}, after={"name": name})
    return player


# ------------------------------------------------------------------- matches


def start_match(
    *, game: str, player_names: list[str], options: dict | None, actor: Actor = SYSTEM, previous: Match | None = None
) -> Match:
    """Create a match with players in seat order (seat 1 deals/draws first)."""
    if game not in GAMES:
        raise ServiceError(_("Choose one of the games."))
    names = [clean_player_name(n) for n in player_names]
    lowered = [name_key(n) for n in names]
    if len(set(lowered)) != len(lowered):
        raise ServiceError(_("Each seat needs a different player."))
    options = options or {}
    # The engine checks the player count and every option, in plain words.
    _score({"game": game, "players": names, "options": options, "hands": []})
    with transaction.atomic():
        players = [get_or_create_player(n) for n in names]
        match = Match.objects.create(
            game=game,
            options=options,
            totals=[0] * len(players),
            owner=actor.user,
            previous=previous,
        )
        Seat.objects.bulk_create(Seat(match=match, player=p, position=i) for i, p in enumerate(players))
        audit(actor, "match started", match=match, after={"players": [p.name for p in players], "options": options})
    return match


def play_again(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    """Same game, options and players; seats move one place to the left so
    that somebody else deals (or draws) first."""
    match = Match.objects.get(pk=match_id)
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    rotated = names[1:] + names[:1]
    return start_match(game=match.game, player_names=rotated, options=match.options, actor=actor, previous=match)


def save_bidding(*, match_id: int, bidding: dict, expected_number: int | None, actor: Actor = SYSTEM) -> Match:
    """Record the bids (or contract) of the hand about to be played."""
    with transaction.atomic():
        match, names, entries = _lock(match_id)
        _require_open(match)
        _require_next_number(match, expected_number)
        try:
            check_bidding(match.engine_input(names, entries), bidding)
        except InvalidHand as error:
            raise ServiceError(str(error)) from None
        before = match.pending_bidding
        match.pending_bidding = bidding
        _bump(match, update_fields=["pending_bidding"])
        audit(actor, "bids saved", match=match, hand_number=len(entries) + 1, before=before, after=bidding)
    return match


def clear_bidding(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    with transaction.atomic():
        match, _names, entries = _lock(match_id)
        _require_open(match)
        if match.pending_bidding is not None:
            before = match.pending_bidding
            match.pending_bidding = None
            _bump(match, update_fields=["pending_bidding"])
            audit(actor, "bids cleared", match=match, hand_number=len(entries) + 1, before=before)
    return match


@dataclass(frozen=True)
class HandSaved:
    match: Match
    hand: Hand
    created: bool  # False: this submission was already saved before
    state: MatchState | None = None  # the match after the write, when it was saved from ``seen``


def record_hand(
    *,
    match_id: int,
    entry: dict,
    client_key: str | None = None,
    expected_number: int | None = None,
    actor: Actor = SYSTEM,
    seen: MatchState | None = None,
) -> HandSaved:
    """Add the next completed hand. A repeated ``client_key`` returns the
    hand saved the first time and writes nothing. ``expected_number`` is the
    hand number the form was showing: if another device saved that hand
    first, this one is refused instead of becoming the hand after it.

    ``seen`` is the match as the caller just read it (selectors.match_state).
    With it the hand is scored before the transaction, which then only
    writes, on the condition that the match's version is unchanged: at a
    busy event the database's write lock is held for a moment instead of
    for the whole scoring. If anything changed since ``seen`` was read, the
    hand goes the locked way below, which reads everything again."""
    if seen is not None and seen.match.pk == match_id:
        saved = _record_seen_hand(seen, entry, client_key, expected_number, actor)
        if saved is not None:
            return saved
    with transaction.atomic():
        match, names, entries = _lock(match_id)
        if client_key:
            earlier = match.hands.filter(client_key=client_key).first()
            if earlier is not None:
                return HandSaved(match, earlier, created=False)
        _require_open(match)
        _require_next_number(match, expected_number)
        result = _score(match.engine_input(names, [*entries, entry]))
        hand = Hand.objects.create(match=match, number=len(entries) + 1, entry=entry, client_key=client_key or None)
        match.pending_bidding = None
        _apply_result(match, result)
        _bump(match, update_fields=RESULT_FIELDS)
        audit(actor, "hand recorded", match=match, hand_number=hand.number, after=entry)
    return HandSaved(match, hand, created=True)


def _record_seen_hand(
    seen: MatchState, entry: dict, client_key: str | None, expected_number: int | None, actor: Actor
) -> HandSaved | None:
    """record_hand's fast way; None when it must go the locked way (a
    resubmission, or the match changed since ``seen`` was read)."""
    if client_key and any(key == client_key for _n, _e, key in seen.hands):
        return None  # already saved: the locked way finds that hand
    match = copy.copy(seen.match)
    if match.status != Match.Status.IN_PROGRESS or (
        expected_number is not None and expected_number != match.hands_played + 1
    ):
        return None  # refused, or stale: the locked way says which, on fresh data
    entries = seen.entries
    try:  # with the next form's hints: the answer's sheet is drawn from this (MatchState.scored)
        result, hints = score_with_hints(match.engine_input(seen.names, [*entries, entry]))
    except InvalidHand:
        return None  # the locked way says why, on fresh data (the form may be outdated)
    read_version = match.version
    match.pending_bidding = None
    _apply_result(match, result)
    now = timezone.now()
    match.version, match.updated_at = read_version + 1, now
    row = {
        "number": len(entries) + 1,
        "entry": entry,
        "client_key": client_key or None,
        "created_at": now,
        "updated_at": now,
    }
    # Every write to a match bumps its version: an unchanged version means
    # the hands scored above are still all the hands there are.
    ids = update_then_insert(
        Match,
        match.pk,
        {"version": read_version},
        {name: getattr(match, name) for name in [*RESULT_FIELDS, "version", "updated_at"]},
        inserts=[
            (Hand, {"match": match.pk, **row}),
            (AuditEvent, _audit_row(actor, "hand recorded", match=match, hand_number=row["number"], after=entry)),
        ],
    )
    if ids is None:
        return None
    hand = Hand(pk=ids[0], match=match, **row)
    state = MatchState(match, seen.players, [*seen.hands, (hand.number, entry, hand.client_key)], (result, hints))
    return HandSaved(match, hand, created=True, state=state)


def edit_hand(
    *,
    match_id: int,
    number: int,
    entry: dict,
    expected_version: int | None,
    actor: Actor = SYSTEM,
    action: str = "hand edited",
) -> Match:
    """Replace a past hand and re-score every hand after it. Refused if the
    match changed since the editor loaded it, or if a later hand becomes
    illegal (the engine's message names it)."""
    with transaction.atomic():
        match, names, entries = _lock(match_id)
        if match.status == Match.Status.ABANDONED:
            raise ServiceError(_("This match was abandoned; reopen it to change it."), code="closed")
        _require_version(match, expected_version)
        if not 1 <= number <= len(entries):
            raise ServiceError(_("There is no hand %(n)d in this match.") % {"n": number}, code="not_found")
        before = entries[number - 1]
        changed = list(entries)
        changed[number - 1] = entry
        result = _score(match.engine_input(names, changed))
        Hand.objects.filter(match=match, number=number).update(entry=entry, updated_at=timezone.now())
        if result["finished"]:
            match.pending_bidding = None
        _apply_result(match, result)
        _bump(match, update_fields=RESULT_FIELDS)
        audit(actor, action, match=match, hand_number=number, before=before, after=entry)
    return match


def undo_last_hand(*, match_id: int, expected_version: int | None, actor: Actor = SYSTEM) -> Match:
    with transaction.atomic():
        match, names, entries = _lock(match_id)
        if match.status == Match.Status.ABANDONED:
            raise ServiceError(_("This match was abandoned; reopen it to change it."), code="closed")
        _require_version(match, expected_version)
        if not entries:
            raise ServiceError(_("There is no hand to undo."))
        result = _score(match.engine_input(names, entries[:-1]))
        Hand.objects.filter(match=match, number=len(entries)).delete()
        match.pending_bidding = None  # bids made for the hand after the undone one
        _apply_result(match, result)
        _bump(match, update_fields=RESULT_FIELDS)
        audit(actor, "hand undone", match=match, hand_number=len(entries), before=entries[-1])
    return match


def abandon_match(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    with transaction.atomic():
        match, _names, _entries = _lock(match_id)
        if match.status != Match.Status.IN_PROGRESS:
            raise ServiceError(_("Only a match in progress can be abandoned."))
        match.status = Match.Status.ABANDONED
        _bump(match, update_fields=["status"])
        audit(actor, "match abandoned", match=match)
    return match


def reopen_match(*, match_id: int, actor: Actor = SYSTEM) -> Match:
    with transaction.atomic():
        match, _names, _entries = _lock(match_id)
        if match.status != Match.Status.ABANDONED:
            raise ServiceError(_("Only an abandoned match can be reopened."))
        match.status = Match.Status.IN_PROGRESS
        _bump(match, update_fields=["status"])
        audit(actor, "match reopened", match=match)
    return match


# ------------------------------------------------------------ links, people


def issue_link(*, match_id: int, label: str, actor: Actor) -> tuple[AccessLink, str]:
    """A new secret scoring link for one match. Returns the link and its
    token; the token is not stored and cannot be shown again."""
    token = new_token()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        link = AccessLink.objects.create(match=match, token_hash=hash_token(token), label=label, created_by=actor.user)
        audit(actor, "link issued", match=match, after={"link": link.pk, "label": label})
    return link, token


def revoke_link(*, link_id: int, actor: Actor) -> AccessLink:
    with transaction.atomic():
        link = AccessLink.objects.select_for_update().select_related("match").get(pk=link_id)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            audit(actor, "link revoked", match=link.match, before={"link": link.pk, "label": link.label})
    return link


def add_co_organiser(*, match_id: int, username: str, actor: Actor) -> Match:
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise ServiceError(
            _("There is no organiser account called %(name)s.") % {"name": (username or "").strip()[:40]}
        )
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        match.co_organisers.add(user)
        audit(actor, "co-organiser added", match=match, after={"user": user.get_username()})
    return match


# ------------------------------------------------------------------- helpers


def _lock(match_id: int) -> tuple[Match, list[str], list[dict]]:
    """Lock the match row for this transaction (PostgreSQL: SELECT ... FOR
    UPDATE; SQLite: the IMMEDIATE transaction already holds the write lock)
    and load what the engine needs."""
    match = Match.objects.select_for_update().get(pk=match_id)
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    entries = list(match.hands.order_by("number").values_list("entry", flat=True))
    return match, names, entries


def _score(engine_input: dict) -> dict:
    try:
        return score_match(engine_input)
    except InvalidHand as error:
        raise ServiceError(str(error)) from None


def _require_open(match: Match) -> None:
    if match.status == Match.Status.FINISHED:
        raise ServiceError(_("This match is over: no more hands can be added."), code="closed")
    if match.status == Match.Status.ABANDONED:
        raise ServiceError(_("This match was abandoned; reopen it to change it."), code="closed")


def _require_next_number(match: Match, expected_number: int | None) -> None:
    if expected_number is not None and expected_number != match.hands_played + 1:
        raise ServiceError(
            _("Hand %(n)d was already saved from another device. Check the sheet below before entering more.")
            % {"n": expected_number},
            code="conflict",
        )


def _require_version(match: Match, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != match.version:
        raise ServiceError(
            _("Someone else changed this match while you were editing. Nothing was saved; here is the current sheet."),
            code="conflict",
        )


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
        match.status = Match.Status.FINISHED
    elif match.status == Match.Status.FINISHED:
        match.status = Match.Status.IN_PROGRESS  # an edit or undo reopened the game
        match.finished_at = None


# What _apply_result (and clearing the bids) changes on a match.
RESULT_FIELDS = ["totals", "winners", "hands_played", "status", "finished_at", "pending_bidding"]


def _ended_early(match: Match) -> bool:
    return Table.objects.filter(match=match, ended_early_at__isnull=False).exists()


def _bump(match: Match, update_fields: list[str]) -> None:
    match.version += 1
    match.save(update_fields=[*update_fields, "version", "updated_at"])


def audit(actor: Actor, action: str, **about: Any) -> None:
    """Record who changed what: the one place every audit event is written
    (a saved hand's is written with the hand, from _audit_row). ``about``:
    match, tournament, hand_number, before, after."""
    insert_row(AuditEvent, **_audit_row(actor, action, **about))


def _audit_row(
    actor: Actor,
    action: str,
    *,
    match: Match | None = None,
    tournament: Any = None,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> dict:
    return {
        "match": match.pk if match else None,
        "tournament": tournament.pk if tournament else None,
        "user": actor.user.pk if actor.user else None,
        "link": actor.link.pk if actor.link else None,
        "actor": actor.label,
        "action": action,
        "hand_number": hand_number,
        "before": before,
        "after": after,
        "at": timezone.now(),
    }


__all__ = [
    "Actor",
    "HandSaved",
    "audit",
    "add_co_organiser",
    "issue_link",
    "revoke_link",
    "ServiceError",
    "abandon_match",
    "add_player",
    "clear_bidding",
    "edit_hand",
    "get_or_create_player",
    "play_again",
    "record_hand",
    "rename_player",
    "reopen_match",
    "save_bidding",
    "start_match",
    "undo_last_hand",
]
