"""Colorado County's form: a move posted from its page (its table options are declared
by its rules and drawn by the generic form).

A form only checks shape (types, ranges, known names); whether a move is legal is the
engine's business, reached through ``games.moves.action_submit``.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CELL_RE = re.compile(r"^[A-O](10|[1-9])$")


def _cowboys(values: list[str]) -> list[int]:
    out: list[int] = []
    for v in values:
        try:
            n = int(v)
        except (TypeError, ValueError):
            raise forms.ValidationError(_("Cowboys are numbers from 1 to 66.")) from None
        if not 1 <= n <= 66:
            raise forms.ValidationError(_("Cowboys are numbers from 1 to 66."))
        out.append(n)
    return sorted(set(out))


def _cell(value: str, label: str | Promise) -> str:
    """``value`` as a cell name (``C4``); ``label`` names it in the error, lazily translated."""
    value = (value or "").strip().upper()
    if not CELL_RE.match(value):
        raise forms.ValidationError(_("Choose a cell for %(what)s, like C4.") % {"what": label})
    return value


class ActionForm(forms.Form):
    """A move from the page, posted as plain fields (works without JavaScript).

    ``kind`` picks the action type; ``choice`` may carry a whole claim as
    ``card|flag|second`` (the no-script select), else ``card``/``flag``/``second``.
    """

    KINDS = ("place_flag", "bid", "claim", "sell", "sale_interest", "sale_bid", "sale_pay")
    kind = forms.ChoiceField(choices=[(k, k) for k in KINDS])
    version = forms.IntegerField(required=False, min_value=0)
    client_id = forms.CharField(required=False, max_length=64)

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.raw = data

    def action(self) -> dict[str, Any]:
        """The engine action (JSON form, CC-12); raises ValidationError on a malformed one."""
        kind = self.cleaned_data["kind"]
        get = self.raw.get
        if kind == "place_flag":
            choice = get("choice") or ""
            if "|" in choice:
                colour, cell = choice.split("|", 1)
            else:
                colour, cell = get("colour") or "", get("cell") or ""
            return {"type": kind, "colour": colour.strip(), "cell": _cell(cell, _("the flag"))}
        if kind in ("bid", "sale_bid"):
            return {"type": kind, "cowboys": _cowboys(self.raw.getlist("cowboys"))}
        if kind == "claim":
            choice = get("choice") or ""
            if choice.count("|") == 2:
                card, flag, second = choice.split("|")
            else:
                card, flag, second = get("card") or "", get("flag") or "", get("second") or ""
            if not card:
                raise forms.ValidationError(_("Choose a card to claim."))
            return {
                "type": kind,
                "card": card.strip(),
                "flag": _cell(flag, _("the flag")),
                "second": _cell(second, _("the second star")) if second else None,
            }
        if kind == "sell":
            return {"type": kind, "cell": _cell(get("cell") or "", _("the sale"))}
        if kind == "sale_interest":
            answer = get("interested")
            if answer not in ("yes", "no"):
                raise forms.ValidationError(_("Answer yes or no."))
            return {"type": kind, "interested": answer == "yes"}
        cowboys = _cowboys([get("cowboy") or ""])
        return {"type": "sale_pay", "cowboy": cowboys[0]}
