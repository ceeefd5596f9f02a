from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from webhooks.models import Webhook


class HookForm(forms.Form):
    url = forms.CharField(label=_("URL"), max_length=500)
    events = forms.MultipleChoiceField(
        label=_("Tell it when"),
        choices=[
            ("my_turn", _("it is my turn")),
            ("invitation", _("someone invites me to a table")),
            ("game_over", _("a game of mine is over")),
            ("tournament_round", _("a round of my tournament starts")),
        ],
        widget=forms.CheckboxSelectMultiple,
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=Webhook.Format.choices, initial=Webhook.Format.JSON
    )
