"""Users. Bots are users too (``is_bot``), so they can hold seats and ratings."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=16, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
