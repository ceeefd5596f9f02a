"""Admin: read-mostly views of tables and their logs (writes go through the services)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.errors import GameError
from games.models import ChatMessage, Game, Invitation, Move, ReplaceVote, Seat, SeatHandover
from games.tables import lifecycle


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat", "user", "colour", "bot_kind", "deadline", "resigned", "final_rank")
    readonly_fields = fields
    can_delete = False


class SeatHandoverInline(admin.TabularInline):
    """Seats handed to a bot (resigned, or replaced by the other players' vote)."""

    model = SeatHandover
    extra = 0
    fields = ("seat", "user", "bot_kind", "reason", "version", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # hand-overs go through the services (resign, replace vote)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "status", "num_players", "version", "created_at")
    list_filter = ("status", "title", "rated")
    search_fields = ("id", "seats__user__username")
    exclude = ("state", "seed")  # secret until the end; never shown to staff by accident
    readonly_fields = ("version", "seed_hash", "to_act", "result", "setup_events")
    inlines = [SeatInline, SeatHandoverInline]
    actions = ["abort_games"]

    @admin.action(description=_("Abort the selected games (not rated, nothing more is played)"))
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        aborted = 0
        for game_id in queryset.values_list("pk", flat=True):
            try:
                lifecycle.game_abort(game_id=game_id)
            except GameError as exc:
                self.message_user(request, f"#{game_id}: {exc.message}", messages.WARNING)
            else:
                aborted += 1
        self.message_user(
            request,
            ngettext("%(n)d game aborted.", "%(n)d games aborted.", aborted) % {"n": aborted},
        )


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "version", "seat", "actor", "created_at")
    list_filter = ("actor",)
    readonly_fields = ("game", "version", "seat", "action", "events", "client_id", "actor", "user")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False  # the move log is append-only


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "text", "created_at")


admin.site.register(Invitation)


@admin.register(ReplaceVote)
class ReplaceVoteAdmin(admin.ModelAdmin):
    list_display = ["seat", "voter", "created_at"]
    readonly_fields = ["seat", "voter", "created_at"]
