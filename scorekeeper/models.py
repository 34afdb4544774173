"""Tables and constraints. No game rules here: scores come from
scorekeeper.scoring, and every write goes through scorekeeper.services."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .scoring import GAMES

GAME_CHOICES = [(game_id, game.spec.name) for game_id, game in GAMES.items()]
NAME_MAX_LENGTH = 40


class Player(models.Model):
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            # "Ann" and "ann" at one club are the same person.
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ignoring_case"),
        ]

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    game = models.CharField(_("game"), max_length=20, choices=GAME_CHOICES)
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True)
    # Caches of the engine's result, for fast lists; the hands are the truth.
    totals = models.JSONField(default=list, blank=True)
    winners = models.JSONField(default=list, blank=True)
    hands_played = models.PositiveIntegerField(default=0)
    # The bids (or Draw Bridge contract) of the hand being played, saved
    # before the tricks are known (RULES.md 1.4); null when none is pending.
    pending_bidding = models.JSONField(null=True, blank=True)
    # Bumped on every write, so an edit made from a stale screen is refused.
    version = models.PositiveIntegerField(default=1)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches", help_text="Played again from"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.IN_PROGRESS

    def engine_input(self, player_names: list[str], entries: list[dict]) -> dict:
        """The dict scorekeeper.scoring.score_match takes (RULES.md 1.1)."""
        return {"game": self.game, "players": player_names, "options": self.options, "hands": entries}


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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1-based, as the table counts")
    entry = models.JSONField(help_text="The hand as entered: the engine's hand dict")
    # The submitting form's one-time key: a repeated POST of the same form
    # (double tap, retry after a timeout) finds this row and writes nothing.
    client_key = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
            models.UniqueConstraint(fields=["match", "client_key"], name="hand_client_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number}"


class AuditEvent(models.Model):
    """Who changed what, when, with the state before and after."""

    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_events")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor = models.CharField(max_length=80, help_text="Who, in words: an organiser or a table device")
    action = models.CharField(max_length=40, db_index=True)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"
