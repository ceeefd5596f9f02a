"""Admin: read-mostly views of tables and their logs (writes go through the services)."""

from __future__ import annotations

from django.contrib import admin

from games.models import ChatMessage, Game, Invitation, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat", "user", "colour", "bot_kind", "deadline", "resigned", "final_rank")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "num_players", "version", "created_at")
    list_filter = ("status", "game", "rated")
    search_fields = ("id", "seats__user__username")
    exclude = ("state", "seed")  # secret until the end; never shown to staff by accident
    readonly_fields = ("version", "seed_hash", "to_act", "result", "setup_events")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "seat", "actor", "created_at")
    list_filter = ("actor",)
    readonly_fields = ("game", "version", "seat", "action", "events", "client_id", "actor", "user")

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "text", "created_at")


admin.site.register(Invitation)
