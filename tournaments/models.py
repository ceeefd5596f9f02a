"""Tournaments, their entrants, rounds and tables (docs/tournaments.md). Written only by
``tournaments.services``; the games themselves are ordinary tables (``games.Game``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("knockout")

    class Status(models.TextChoices):
        OPEN = "open", _("taking entries")
        RUNNING = "running", _("under way")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(max_length=80)
    title = models.CharField(max_length=40)
    format = models.CharField(max_length=12, choices=Format.choices)
    seats = models.PositiveSmallIntegerField()
    # Swiss: as chosen; round robin and knockout: set at the start from the entrants.
    rounds = models.PositiveSmallIntegerField(default=0)
    options = models.JSONField(default=dict)
    clock = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    bots_allowed = models.BooleanField(default=False)
    min_entrants = models.PositiveSmallIntegerField()
    max_entrants = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)  # None: when full
    round_days = models.PositiveSmallIntegerField(default=14)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status"], name="tournament_status")]

    def __str__(self) -> str:
        return f"tournament {self.pk} ({self.format}, {self.title})"


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField(auto_now_add=True)
    # The place in the seed order (rating at the start, then who joined first).
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_once"),
        ]

    def __str__(self) -> str:
        return f"entrant {self.user_id} of tournament {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class Pairing(models.Model):
    """One table of a round (``game``), or one entrant's bye (``bye``). ``slot`` keeps a
    knockout's bracket order."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    slot = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bye = models.ForeignKey(Entrant, on_delete=models.CASCADE, null=True, blank=True)

    class Meta:
        ordering = ["round", "slot", "id"]

    def __str__(self) -> str:
        return f"pairing {self.slot} of {self.round_id}"


class LadderRung(models.Model):
    """A player's place on a title's standing ladder (``tournaments.ladder``): 1 is the
    top. Places are kept without gaps by the ladder's services."""

    title = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["title", "position"]
        constraints = [
            models.UniqueConstraint(fields=["title", "user"], name="ladderrung_once"),
        ]
        indexes = [models.Index(fields=["title", "position"], name="ladderrung_place")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.position} of the {self.title} ladder"


class LadderChallenge(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        WON = "won", _("the challenger won")
        HELD = "held", _("the place was held")
        CANCELLED = "cancelled", _("cancelled")

    title = models.CharField(max_length=40)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    defender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    challenger_position = models.PositiveIntegerField()
    defender_position = models.PositiveIntegerField()
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["title", "-created_at", "-id"]
        indexes = [models.Index(fields=["title", "status"], name="ladderchallenge_open")]

    def __str__(self) -> str:
        return f"challenge {self.pk} on the {self.title} ladder"
