from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    list_display = ("username", "email", "display_name", "is_bot", "is_staff", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Site", {"fields": ("display_name", "time_zone", "language", "is_bot", "bot_kind")}),
    )
