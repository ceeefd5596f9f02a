"""How the site uses django-allauth: messages in our words, bot names kept for bots, and
mails through the outbox.

Every mail allauth sends (sign-up confirmation, resend, password reset, "account already
exists", …) goes through ``send_mail``: it is rendered here, in the request, and stored in
the outbox; a Celery task hands it to the mail server. So sign-up and password reset answer
while SMTP is down, and the mail leaves once it is back (``notifications.services``).

Everything else (sign-up, e-mail verification, sign-in by username or e-mail, password
reset and change, rate limits) is allauth's own, configured in ``colorado/settings.py``.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django import forms
from django.contrib.sites.shortcuts import get_current_site
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.names import hidden_characters, is_a_bot_name, mixes_scripts, name_taken
from accounts.views_language import visitor_time_zone
from notifications.outbox import outbox_add

# Bot accounts are named ``bot-<kind>``, ``bot-<kind>-2`` … by the game services.
BOT_NAME_PREFIX = "bot-"


class SiteNamed:
    """The site as allauth's mails name it ("Hello from …!", "Thank you for using …"):
    our ``SITE_NAME``, not the request's host and port (``127.0.0.1:18800``), which is
    what ``get_current_site`` gives without the sites framework."""

    def __init__(self, request: Any) -> None:
        from django.conf import settings

        self.name = str(settings.SITE_NAME)
        self.domain = get_current_site(request).domain


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
        username = str(super().clean_username(username, shallow=shallow))
        if hidden_characters(username) or mixes_scripts(username) or is_a_bot_name(username):
            raise forms.ValidationError(
                _("That name could pass for someone else's; please choose another."),
                code="username_spoofing",
            )
        if not shallow and name_taken(username):
            # Another account is already shown by this name (its username or display name,
            # case and accents aside): a second one would let players be mistaken.
            raise forms.ValidationError(
                _("That name is already someone's; please choose another."),
                code="username_taken_by_name",
            )
        return username

    def save_user(self, request: Any, user: Any, form: Any, commit: bool = True) -> Any:
        """A new account starts in the time zone the browser reported (site.js's ``tz``
        cookie) rather than UTC; the player can change it in Settings."""
        user = super().save_user(request, user, form, commit=False)
        zone = visitor_time_zone(request) if request is not None else None
        if zone is not None:
            user.time_zone = zone.key
        if commit:
            user.save()
        return user

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """allauth's ``send_mail`` with the outbox instead of ``message.send()``: the same
        context and rendering (inside the request, where the templates' request and site
        are at hand), no SMTP."""
        request = allauth_context.request
        ctx = {"request": request, "email": email, "current_site": SiteNamed(request)}
        ctx.update(context)
        # A mail to an existing account (password reset, "account already exists") is
        # written in that person's language; otherwise in the language of the request.
        user = context.get("user")
        language = getattr(user, "language", "") or translation.get_language()
        with translation.override(language):
            message = self.render_mail(template_prefix, email, ctx)
        outbox_add(message, template=template_prefix)
