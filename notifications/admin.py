from django.contrib import admin

from notifications.models import Notification, ReplaceVote


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["key", "kind", "user", "game", "created_at", "sent_at"]
    list_filter = ["kind"]
    search_fields = ["key", "user__username"]
    readonly_fields = ["user", "game", "seat", "version", "kind", "key", "created_at", "sent_at"]


@admin.register(ReplaceVote)
class ReplaceVoteAdmin(admin.ModelAdmin):
    list_display = ["seat", "voter", "created_at"]
    readonly_fields = ["seat", "voter", "created_at"]
