"""A player's webhooks and each event owed to one (docs/webhooks.md).

``Webhook.secret`` signs every delivery (HMAC-SHA256); it is shown to its owner once, when
the hook is made, and never sent in a payload. ``WebhookDelivery`` is one event owed to one
hook, written once under a unique ``key`` (so an event is never owed twice) and sent by a
task that claims it with a lease; the sweep sends again what a lost task left.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

EVENTS = ("my_turn", "invitation", "game_over", "tournament_round")


class Webhook(models.Model):
    class Format(models.TextChoices):
        JSON = "json", _("JSON, signed")
        DISCORD = "discord", _("Discord")
        SLACK = "slack", _("Slack")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.JSON)
    secret = models.CharField(max_length=64)
    # The events it takes (one column each: a plain filter on every database).
    on_my_turn = models.BooleanField(default=False)
    on_invitation = models.BooleanField(default=False)
    on_game_over = models.BooleanField(default=False)
    on_tournament_round = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Deliveries given up one after another; reset by a success.
    failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["user", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.user_id}"

    @property
    def events(self) -> list[str]:
        return [event for event in EVENTS if getattr(self, f"on_{event}")]


class WebhookDelivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("given up")

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    # What the event is about, unique per hook: "my_turn:<game>:<version>:<seat>", …
    key = models.CharField(max_length=100)
    event = models.CharField(max_length=20)
    event_id = models.UUIDField()  # sent as X-Event-Id and in the body; the same on a retry
    body = models.JSONField()  # the payload's fields (public only), before formatting
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    # When it may be tried next: a claim pushes it by the lease, a failure by the backoff.
    next_attempt_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hook", "key"], name="webhookdelivery_once"),
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="webhookdelivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"delivery {self.pk} ({self.event}) to webhook {self.hook_id}"
