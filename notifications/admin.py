"""The admin of notifications and the outbox.

The outbox admin never shows a mail's body or headers: an unsent password reset or
confirmation mail holds a key that lets whoever reads it take over the account. Operators
see who it is for, what kind of mail, how often it was tried and the last error; rows are
added by the site only, and an unsent row can be queued again by hand.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from notifications.models import Notification, OutboxMail, PushMessage
from notifications.outbox import outbox_queue


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["key", "kind", "user", "game", "created_at", "sent_at"]
    list_filter = ["kind"]
    search_fields = ["key", "user__username"]
    readonly_fields = ["user", "game", "seat", "version", "kind", "key", "created_at", "sent_at"]


@admin.register(OutboxMail)
class OutboxMailAdmin(admin.ModelAdmin):
    list_display = ["id", "template", "to", "created_at", "attempts", "sent_at", "error"]
    list_filter = [("sent_at", admin.EmptyFieldListFilter), "template"]
    search_fields = ["to"]
    date_hierarchy = "created_at"
    # Everything but body_text, body_html and headers.
    fields = readonly_fields = (
        "template",
        "to",
        "from_email",
        "subject",
        "created_at",
        "next_try_at",
        "lease_until",
        "attempts",
        "sent_at",
        "error",
    )
    actions = ["queue_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Queue the selected unsent mails again now")
    def queue_again(self, request: HttpRequest, queryset: QuerySet[OutboxMail]) -> None:
        """Safe to use on a row whose task is alive: the task claims the row, so a second
        one sends nothing."""
        ids = list(queryset.filter(sent_at__isnull=True).values_list("pk", flat=True))
        for pk in ids:
            outbox_queue(pk)
        self.message_user(request, f"{len(ids)} mail(s) queued again.")


@admin.register(PushMessage)
class PushMessageAdmin(admin.ModelAdmin):
    """Pushes, waiting (outcome empty) or done; never their keys' targets' secrets."""

    list_display = ["key", "kind", "outcome", "attempts", "next_try_at", "sent_at"]
    list_filter = ["kind", "outcome"]
    search_fields = ["key"]
    readonly_fields = [
        "key",
        "kind",
        "subscription",
        "game",
        "seat",
        "version",
        "created_at",
        "next_try_at",
        "attempts",
        "outcome",
        "sent_at",
        "error",
    ]
