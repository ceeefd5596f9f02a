"""The sign-in form (the settings page's form is ``players.forms``)."""

from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django.utils.translation import gettext_lazy as _


class LoginForm(AllauthLoginForm):
    """allauth's sign-in form, with a label that says what the first field takes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = _("Username or e-mail")
        login.widget.attrs["autocomplete"] = "username"
