"""The settings page's form (the account's fields and vacation taken in advance)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts import services
from accounts.models import User
from players.settings import settings_update


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(services.time_zone_names())]


def _language_choices() -> list[tuple[str, Any]]:
    return [("", _("As my browser says")), *settings.LANGUAGES]


class SettingsForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("Shown at the table instead of your username. Leave empty to use it."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zone_choices,
        help_text=_("Deadlines and times are shown in this zone."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=_language_choices, required=False)
    email_notifications = forms.ChoiceField(
        label=_("E-mail me"),
        choices=User.EmailNotifications.choices,
        widget=forms.RadioSelect,
    )
    reminder_hours = forms.IntegerField(
        label=_("Reminder before a deadline (hours)"),
        min_value=0,
        max_value=services.REMINDER_HOURS_MAX,
        help_text=_("0 for no reminder."),
    )
    away_until = forms.DateTimeField(
        label=_("Away until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "While you are away your clocks are paused, using your vacation days. "
            "Leave empty when you are here."
        ),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial", {field: getattr(user, field) for field in services.SETTINGS_FIELDS}
        )
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        changes = {field: cleaned.get(field) for field in services.SETTINGS_FIELDS}
        if changes["language"] is None:
            changes["language"] = ""
        try:
            services.user_settings_check(user=self.user, changes=changes)
        except services.SettingsError as exc:
            self.add_error(exc.field, exc.message)
        self.changes = changes
        return cleaned

    def save(self) -> User:
        return settings_update(user=self.user, changes=self.changes)
