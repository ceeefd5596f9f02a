"""The admin's sign-in (``/admin/login/``) under the site's sign-in rules (issue 41, item
4). Django's own admin form checked the password and nothing else: no throttle, no account
lockout (30 wrong passwords, then the right one, and in), no verified e-mail address.

``AdminLoginForm`` checks the password through ``accounts.services.password_check``, as the
token endpoint does: failures count under the sign-in form's own limit, per account
(``5/5m/key``: failures on the form, the API and here add up, and a locked account stays
locked even with the right password) and per address (``10/m/ip``); then it asks for a
verified e-mail address, as signing in does, and for a staff account, as the admin does.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from accounts.services import TooManyAttempts, email_verified, password_check


class AdminLoginForm(AdminAuthenticationForm):
    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "too_many_attempts": _(
            "Too many failed sign-in attempts. Wait a few minutes, then try again."
        ),
        "email_unverified": _(
            "Confirm your e-mail address first (follow the link we e-mailed you)."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return self.cleaned_data
        if self.request is None:  # the admin's login view always passes it
            raise ImproperlyConfigured("AdminLoginForm needs the request (for the throttles)")
        try:
            user = password_check(
                request=self.request, username=username, password=password, by_address=True
            )
        except TooManyAttempts:
            raise forms.ValidationError(
                self.error_messages["too_many_attempts"], code="too_many_attempts"
            ) from None
        if user is None:
            raise self.get_invalid_login_error()
        if not email_verified(user=user):
            raise forms.ValidationError(
                self.error_messages["email_unverified"], code="email_unverified"
            )
        self.confirm_login_allowed(user)
        self.user_cache = user
        return self.cleaned_data
