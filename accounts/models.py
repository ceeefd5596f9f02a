"""Users. Bots are users too (``is_bot``), so they can hold seats and ratings."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    class EmailNotifications(models.TextChoices):
        EACH_TURN = "each_turn", _("each turn")
        DIGEST = "digest", _("daily digest")
        OFF = "off", _("off")

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=16, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=32, blank=True)

    # Playing over days: notification preferences and vacation (see platform.md).
    email_notifications = models.CharField(
        _("e-mail notifications"),
        max_length=10,
        choices=EmailNotifications.choices,
        default=EmailNotifications.EACH_TURN,
    )
    reminder_hours = models.PositiveSmallIntegerField(
        _("reminder before a deadline (hours, 0 for none)"), default=12
    )
    vacation_days = models.FloatField(_("vacation days left"), default=10.0)
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class ApiToken(models.Model):
    """A bearer token for scripts and third-party bots; only its SHA-256 digest is kept."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    key_digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"token {self.name or self.pk} of {self.user_id}"
