"""Notifications sent to players and the outbox of account mails.

``Notification.key`` is unique: a notification is recorded under its key before the mail
leaves, so however often a task runs, each (seat, version, kind) is mailed at most once.

``OutboxMail`` holds a mail rendered inside a request (sign-up confirmation, password reset…)
until a Celery task hands it to the mail server: the request never waits for SMTP.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("your turn")
        REMINDER = "reminder", _("deadline reminder")
        DIGEST = "digest", _("daily digest")
        FINISHED = "finished", _("game finished")
        MISSED = "missed", _("a player missed a deadline")
        VACATION = "vacation", _("vacation day used")
        INVITATION = "invitation", _("invitation to a table")

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
    # When a send last failed: a row in error whose tries stopped long ago lost its retry.
    tried_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["seat", "kind"], name="notification_seat_kind")]

    def __str__(self) -> str:
        return self.key


class OutboxMail(models.Model):
    """One rendered mail waiting for (or past) delivery; ``notifications.outbox``.

    The bodies may hold a secret (a password reset key, a confirmation key): they are
    blanked once the mail server accepted the mail, and the admin never shows them.
    ``lease_until`` is set while a task is sending it: a second delivery of the task skips
    the row, and a send that crashed mid-way is taken again once the lease is over.
    ``next_try_at`` is when a task is expected to try it; a row still unsent well after
    that lost its task and is queued again by the sweep (``outbox_requeue``).
    """

    template = models.CharField(max_length=200, blank=True)  # what kind of mail, for operators
    to = models.CharField(max_length=254)
    from_email = models.CharField(max_length=254)
    subject = models.CharField(max_length=998)
    body_text = models.TextField(blank=True)
    body_html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_try_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        verbose_name = "outbox mail"
        indexes = [
            models.Index(
                fields=["next_try_at"],
                name="outbox_unsent_next_try",
                condition=models.Q(sent_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.template or 'mail'} to {self.to}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (a player's phone, a laptop): where its push
    service takes messages (``endpoint``), the keys that encrypt them for that browser
    (RFC 8291), and which events it wants (``PushSubscription.EVENTS``). A push service
    that answers 404 or 410 has dropped it: the row is then deleted."""

    #: The events a device may push; the settings' check boxes.
    EVENTS = ("turn", "invitation", "finished", "chat", "deadline")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    events = models.JSONField(default=list)
    label = models.CharField(max_length=120, blank=True)  # "Chrome on Android", from the page
    created_at = models.DateTimeField(default=timezone.now)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.label or 'device'} of user {self.user_id}"


class PushMessage(models.Model):
    """One push to one device, recorded under a unique key before it leaves (like
    ``Notification``), so it leaves at most once however often its task runs.
    ``next_try_at`` is when a task is expected to send it: a row still waiting well after
    that lost its task, and the sweep queues it again (``notifications.push.push_requeue``).
    ``outcome`` is empty while it waits, then ``sent``, ``skipped`` (not needed any more:
    the player saw the table), ``gone`` (the device's subscription ended) or ``failed``."""

    key = models.CharField(max_length=160, unique=True)
    kind = models.CharField(max_length=16)
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="messages"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_try_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=8, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_try_at"],
                name="push_waiting_next_try",
                condition=models.Q(outcome=""),
            )
        ]

    def __str__(self) -> str:
        return self.key
