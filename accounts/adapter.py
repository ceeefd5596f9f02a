"""How the site uses django-allauth: messages in our words, bot names kept for bots.

Everything else (sign-up, e-mail verification, sign-in by username or e-mail, password
reset and change, rate limits) is allauth's own, configured in ``colorado/settings.py``.
"""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext_lazy as _

# Bot accounts are named ``bot-<kind>``, ``bot-<kind>-2`` … by the game services.
BOT_NAME_PREFIX = "bot-"


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_password_mismatch": _(
            "That username and password did not match. Please try again."
        ),
        "email_password_mismatch": _(
            "That e-mail address and password did not match. Please try again."
        ),
        "too_many_login_attempts": _(
            "Too many failed sign-in attempts. Wait a few minutes, then try again."
        ),
        "username_blacklisted": _("That username is reserved; please choose another."),
    }

    def clean_username(self, username: str, shallow: bool = False) -> str:
        if username.lower().startswith(BOT_NAME_PREFIX):
            raise forms.ValidationError(
                _("Usernames starting with “bot-” are kept for the site's bots."),
                code="username_reserved",
            )
        return str(super().clean_username(username, shallow=shallow))
