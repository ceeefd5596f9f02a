"""Notifications sent to players, and votes to replace a player who keeps missing deadlines.

``Notification.key`` is unique: a notification is recorded under its key before the mail
leaves, so however often a task runs, each (seat, version, kind) is mailed at most once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("your turn")
        REMINDER = "reminder", _("deadline reminder")
        DIGEST = "digest", _("daily digest")
        FINISHED = "finished", _("game finished")
        MISSED = "missed", _("a player missed a deadline")
        VACATION = "vacation", _("vacation day used")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=120, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        indexes = [models.Index(fields=["seat", "kind"], name="notification_seat_kind")]

    def __str__(self) -> str:
        return self.key


class ReplaceVote(models.Model):
    """A player's vote to hand ``seat`` (a player who missed two deadlines) to a bot."""

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "voter"], name="replacevote_unique_voter")
        ]

    def __str__(self) -> str:
        return f"vote of {self.voter_id} to replace seat {self.seat_id}"
