from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.admin_login import AdminLoginForm
from accounts.models import ApiToken, Rating, RatingChange, User


class RatingInline(admin.TabularInline):
    model = Rating
    extra = 0
    fields = ("game", "shown", "mu", "sigma", "games", "updated_at")
    readonly_fields = fields  # written by games.records.ratings only
    can_delete = False

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False

    @admin.display(description=_("shown rating (mu - 3 sigma)"))
    def shown(self, obj: Rating) -> str:
        return f"{obj.display:.2f}" if obj.pk else "-"


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    list_display = ("username", "email", "display_name", "is_bot", "is_staff", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            _("Site"),
            {"fields": ("display_name", "time_zone", "language", "is_bot", "bot_kind")},
        ),
        (
            _("Playing over days"),
            {"fields": ("email_notifications", "reminder_hours", "vacation_days", "away_until")},
        ),
    )
    inlines = (RatingInline,)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "shown", "mu", "sigma", "games", "updated_at")
    list_filter = ("game", "user__is_bot")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)

    @admin.display(description=_("shown rating (mu - 3 sigma)"))
    def shown(self, obj: Rating) -> str:
        return f"{obj.display:.2f}"


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "game_obj", "rank", "mu_before", "mu_after", "created_at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    list_select_related = ("user", "game_obj")
    raw_id_fields = ("user", "game_obj")

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False  # the rating history is written by ratings_apply only


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "created_at", "last_used_at", "expires_at")
    search_fields = ("user__username", "name")
    # Revoking is deleting the row; shortening ``expires_at`` ends a token at that time.
    readonly_fields = ("key_digest", "created_at", "last_used_at")
    raw_id_fields = ("user",)


# The admin's sign-in keeps the site's rules: lockout, throttle, verified address.
admin.site.login_form = AdminLoginForm
