from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import title_slugs
from games.titles import web_title
from tournaments.models import Tournament


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    title = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    seats = forms.IntegerField(label=_("Seats per table"), min_value=2, max_value=16, initial=2)
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"), min_value=1, max_value=20, initial=4, required=False
    )
    min_entrants = forms.IntegerField(
        label=_("Fewest entrants"), min_value=2, max_value=64, initial=4
    )
    max_entrants = forms.IntegerField(
        label=_("Most entrants"), min_value=2, max_value=64, initial=8
    )
    round_days = forms.IntegerField(
        label=_("Days per round"), min_value=1, max_value=60, initial=14
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    bots_allowed = forms.BooleanField(label=_("Bots may enter"), required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["title"].choices = [(s, web_title(s).name) for s in title_slugs()]  # type: ignore[attr-defined]
