"""Tables and constraints. No game rules here: scores come from
scorekeeper.scoring, and every write goes through a room's services
(scorekeeper.matches.services, scorekeeper.tournaments.services, ...)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .i18n import scorer_names, shown
from .scoring import GAMES

NAME_MAX_LENGTH = 40
GAME_ID_MAX_LENGTH = 20


def game_name(game_id: str) -> str:
    """The game's name as its module gives it. The game field has no
    ``choices``: the registry is the one list of games (a fifth game needs
    no migration), and the services check a new match's game against it."""
    game = GAMES.get(game_id)
    return shown(game.spec.name) if game else game_id


def name_key(name: str) -> str:
    """ "Ann" and "ann" (and "Émile" and "émile") at one club are one person.
    Folded in Python: SQLite's LOWER() only folds ASCII."""
    return " ".join(name.split()).casefold()


class Player(models.Model):
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    key = models.CharField(max_length=NAME_MAX_LENGTH * 3, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.key = name_key(self.name)
        super().save(*args, **kwargs)


class Match(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    game = models.CharField(_("game"), max_length=GAME_ID_MAX_LENGTH)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    # The players' names in seat order, as the seats hold them (kept with
    # them when a match starts and when a player is renamed): the engine's
    # "players", read with the match instead of a join on every hand.
    player_names = models.JSONField(default=list, blank=True, editable=False)
    # Caches of the engine's result, for fast lists; the hands are the truth.
    totals = models.JSONField(default=list, blank=True)
    winners = models.JSONField(default=list, blank=True)
    hands_played = models.PositiveIntegerField(default=0)
    # The bids (or Draw Bridge contract) of the hand being played, saved
    # before the tricks are known (RULES.md 1.4); null when none is pending.
    pending_bidding = models.JSONField(null=True, blank=True)
    # Bumped on every write, so an edit made from a stale screen is refused.
    version = models.PositiveIntegerField(default=1)
    # Opponent confirmation (scorekeeper.matches.confirmation): the other
    # side checks each saved hand; the hands not yet confirmed (pending or
    # disputed) are counted here, kept by the services, so the standings
    # need no join on the hands. An organiser may accept the match as it is.
    confirm_hands = models.BooleanField(_("the other side confirms each hand"), default=False)
    unconfirmed_hands = models.PositiveIntegerField(default=0, editable=False)
    accepted_at = models.DateTimeField(null=True, blank=True, help_text="Accepted as it is by an organiser")
    corrected_at = models.DateTimeField(
        null=True, blank=True, help_text="Last changed by an organiser after its result was final"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    co_organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="co_organised_matches")
    previous = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematches",
        help_text="Played again from",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the match ended (finished, abandoned, its table ended early, its
    # round or tournament over): from then on its scoring links may not
    # write, even if an organiser's correction reopens it. Only an organiser
    # of a casual match can give them back (reopen, share page).
    links_closed_at = models.DateTimeField(null=True, blank=True)
    # Who this is in every backup (scorekeeper/backups): restoring a file
    # that holds it again finds it here instead of making a second one.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    restored_at = models.DateTimeField(null=True, blank=True, editable=False, help_text="Restored from a backup")
    # The newest change of what the sheet shows (audit.SHEET_ACTIONS), as
    # every write leaves it (audit.change_of): what another device's live
    # sheet and a refused write say happened, and who did it, without
    # reading the audit log back. None: not known (made before, restored).
    last_change = models.JSONField(null=True, blank=True, editable=False)
    # Restored "as a copy" of the one with this uid: it is shown, but counts
    # in no player's record or rating (those games were played once).
    copy_of = models.UUIDField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name_plural = "matches"
        # The home page's lists: the latest matches of each status. One
        # index for them: every saved hand writes a new entry in each
        # index of the table (updated_at changes every time).
        indexes = [models.Index(fields=["status", "-updated_at"], name="match_status_recent")]

    def __str__(self) -> str:
        return f"{self.game_name} #{self.pk}"

    @property
    def game_name(self) -> str:
        return game_name(self.game)

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.IN_PROGRESS

    @property
    def score_lines(self) -> list[tuple[str, int | None, bool]]:
        """(name, total, won) of each player, or of each side of partners
        where the game has sides ("Ann & Cat"), in the totals' order."""
        game = GAMES.get(self.game)
        names = scorer_names(game.spec, self.player_names) if game else self.player_names
        totals = list(self.totals or [])
        return [
            (name, totals[i] if i < len(totals) else None, i in (self.winners or [])) for i, name in enumerate(names)
        ]

    def engine_input(self, entries: list[dict]) -> dict:
        """The dict scorekeeper.scoring.score_match takes (RULES.md 1.1)."""
        return {"game": self.game, "players": self.player_names, "options": self.options, "hands": entries}


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0 deals (Spades: draws) first in hand 1")

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.position + 1}: {self.player}"


class Hand(models.Model):
    """One completed hand as the table entered it (the source of truth).
    Bids and tricks stay queryable through JSON lookups that work on SQLite
    and PostgreSQL alike, e.g. ``Hand.objects.filter(entry__bids__0=0)``."""

    # No index of its own: hand_number_unique (match, number) serves it.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveIntegerField(help_text="1-based, as the table counts")
    entry = models.JSONField(help_text="The hand as entered: the engine's hand dict")
    # The submitting form's one-time key: a repeated POST of the same form
    # (double tap, retry after a timeout) finds this row and writes nothing.
    client_key = models.CharField(max_length=64, null=True, blank=True)

    class Confirmation(models.TextChoices):
        NOT_ASKED = "", _("not asked")  # the match does not ask the other side
        PENDING = "pending", _("not yet confirmed")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("something is wrong")

    confirmation = models.CharField(max_length=10, choices=Confirmation.choices, default="", blank=True)
    # Who made the hand as it stands (entered it, or last corrected it): a
    # table's link, or an organiser's login (neither: the app itself). The
    # other side's check is decided from these, never from the audit log
    # (matches/confirmation.py): that link or login may not check it.
    entered_by_link = models.ForeignKey(
        "AccessLink", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    # The one-time key of that write: the phone that made it holds it in a
    # signed cookie (access/confirming.py) and may show the other side the
    # pass-the-phone card. A correction gives the hand a new one.
    entry_key = models.CharField(max_length=64, blank=True, default="")
    # The one-time key of the other side's answer: the same answer sent
    # again finds it here and is answered as the first time.
    check_key = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
            models.UniqueConstraint(fields=["match", "client_key"], name="hand_client_key_unique"),
            models.UniqueConstraint(fields=["match", "check_key"], name="hand_check_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number}"


class AccessLink(models.Model):
    """A secret scoring link for one match: a casual match's shared link or
    a tournament table's link. No token is stored: it is worked out from the
    server's SECRET_KEY, the link's id and its generation (``access.links``),
    so it can be shown again; revoking or reissuing bumps the generation."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="access_links")
    generation = models.PositiveIntegerField(default=1, help_text="Bumped when the link is revoked or reissued")
    label = models.CharField(max_length=80, help_text="Shown in the audit trail, e.g. 'table 7'")
    # A tournament table has a link per side (0, 1): each side's phones score
    # with their own, so the other side checks a hand from its own phone.
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.label} ({'revoked' if self.revoked_at else 'active'})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class AuditEvent(models.Model):
    """Who changed what, when, with the state before and after. The log is
    for people to read (the history of changes): no state is read back
    from it. Its actions are a fixed set, used by name (``Action.X``)."""

    class Action(models.TextChoices):
        MATCH_STARTED = "match started"
        MATCH_IMPORTED = "match imported"
        MATCH_ABANDONED = "match abandoned"
        MATCH_REOPENED = "match reopened"
        BIDS_SAVED = "bids saved"
        BIDS_CLEARED = "bids cleared"
        HAND_RECORDED = "hand recorded"
        HAND_EDITED = "hand edited"
        HAND_RESTORED = "hand restored"
        HAND_UNDONE = "hand undone"
        HAND_CONFIRMED = "hand confirmed"
        HAND_DISPUTED = "hand disputed"
        ACCEPTED = "accepted as it is"
        CORRECTED_AFTER_END = "corrected after the end"
        CORRECTED_AFTER_CONFIRMATION = "corrected after confirmation"
        ENDED_EARLY = "ended early"
        LINK_ISSUED = "link issued"
        LINK_REISSUED = "link reissued"
        LINK_REVOKED = "link revoked"
        LINKS_REOPENED = "links reopened"
        CO_ORGANISER_ADDED = "co-organiser added"
        PLAYER_ADDED = "player added"
        PLAYER_RENAMED = "player renamed"
        TOURNAMENT_CREATED = "tournament created"
        TOURNAMENT_IMPORTED = "tournament imported"
        TOURNAMENT_FINISHED = "tournament finished"
        PLAYERS_REGISTERED = "players registered"
        PLAYER_DROPPED = "player dropped"
        ROUND_PROPOSED = "round proposed"
        ROUND_PROPOSED_AGAIN = "round proposed again"
        ROUND_PUBLISHED = "round published"
        PLAYERS_SWAPPED = "players swapped"
        ROUND_LINKS_ISSUED = "round links issued"
        TABLE_LINK_ISSUED = "table link issued"
        TABLE_LINK_REVOKED = "table link revoked"
        TABLE_ENDED_EARLY = "table ended early"
        ROUND_CLOCK_PAUSED = "round clock pause"
        ROUND_CLOCK_RESUMED = "round clock resume"
        ROUND_CLOCK_ADDED = "round clock add"
        ROUND_ENDED = "round ended"
        ROUND_COMPLETED = "round completed"

    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_events")
    tournament = models.ForeignKey(
        "Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="audit_events"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    link = models.ForeignKey(AccessLink, null=True, blank=True, on_delete=models.SET_NULL, help_text="Device link used")
    actor = models.CharField(max_length=80, help_text="Who, in words: an organiser or a table device")
    action = models.CharField(max_length=40, choices=Action.choices, db_index=True)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"


# ---------------------------------------------------------------- tournaments


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        SWISS = "swiss", _("Swiss")
        SEATED = "seated", _("Seated rounds (tables of 3 or more)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class OhHellPoints(models.TextChoices):
        # the values of scorekeeper.pairing.standings.OH_HELL_POINTS
        PLACEMENT = "placement", _("Placement points")
        TOTAL_SCORE = "total_score", _("Total score")

    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=GAME_ID_MAX_LENGTH)
    options = models.JSONField(_("game options"), default=dict, blank=True)
    format = models.CharField(max_length=20, choices=Format.choices)
    planned_rounds = models.PositiveSmallIntegerField(_("number of rounds"))
    round_minutes = models.PositiveSmallIntegerField(_("round time limit (minutes)"), null=True, blank=True)
    table_size = models.PositiveSmallIntegerField(
        _("preferred table size"), default=4, help_text="Seated rounds: 3 to 7"
    )
    seed = models.PositiveIntegerField(default=0, help_text="Makes random seating reproducible")
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.REGISTRATION)
    is_public = models.BooleanField(_("public standings"), default=True)
    confirm_hands = models.BooleanField(_("the other side confirms each hand"), default=True)
    # Swiss: order the field by the players' ratings of the game (round 1's
    # pairing and every tie after), instead of by registration.
    seed_by_rating = models.BooleanField(_("seed by rating"), default=False)
    # Seated rounds: rank by placement points (2 for a table's winner to 0
    # for its last, whatever its size) or by total game score.
    oh_hell_points = models.CharField(
        _("Oh Hell points"), max_length=12, choices=OhHellPoints.choices, default=OhHellPoints.PLACEMENT
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    co_organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="co_organised_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Who this is in every backup (scorekeeper/backups): restoring a file
    # that holds it again finds it here instead of making a second one.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    restored_at = models.DateTimeField(null=True, blank=True, editable=False, help_text="Restored from a backup")
    # Restored "as a copy" of the one with this uid: it is shown, but counts
    # in no player's record or rating (those games were played once).
    copy_of = models.UUIDField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def game_name(self) -> str:
        return game_name(self.game)


class Entrant(models.Model):
    """A player registered in a tournament, or in a pairs event (a game with
    partnerships) a fixed pair: ``player`` and ``partner``. The pair is
    paired, seated and ranked by its ``player`` (the first named), and
    named by both. A drop keeps the results."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    partner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="partner_entries")
    registered_at = models.DateTimeField(auto_now_add=True)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entrant_unique")]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def is_active(self) -> bool:
        return self.dropped_after_round is None


class Round(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")  # pairings shown for review, no matches yet
        PLAYING = "playing", _("Playing")
        COMPLETE = "complete", _("Complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    # While proposed: [[player_id, ...], ...] per table in seat order; byes separately.
    proposal = models.JSONField(default=list, blank=True)
    byes = models.JSONField(default=list, blank=True, help_text="Player ids with a bye this round")
    published_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="The round's time limit")
    paused_remaining = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds left when the organiser paused the round's clock"
    )
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="table")
    ended_early_at = models.DateTimeField(
        null=True, blank=True, help_text="Ended by the organiser at the time limit: current totals decide"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"
