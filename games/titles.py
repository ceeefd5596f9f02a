"""Titles on the web side: what the pages, forms and mails need from each game.

A title is one engine package (``games/engine/<slug>/``: its rules, reached through
``games.engine.get_rules``) and, if it wants a board of its own, one web package
(``titles/<slug>/``: a Django app whose ``AppConfig.ready`` calls ``register`` with a
``WebTitle`` subclass). The core — services, selectors, API, sockets, clocks, tasks, mails,
the generic templates — reaches a title only through these two registries and never
imports a title package (an import-linter contract in ``pyproject.toml``).

A title without a web package still plays: ``web_title`` gives it this module's
``WebTitle``, whose board lists the public view and whose action panel offers each legal
action as a button (``templates/games/generic/``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.engine import Rules, get_rules, listed_title_slugs, title_slugs

__all__ = [
    "WebTitle",
    "default_title",
    "register",
    "unregister",
    "web_title",
    "web_titles",
]

#: Seat colours of the generic token, used when a title names none.
GENERIC_COLOURS = ("#b5452f", "#2f5fa8", "#2f7d3a", "#8a5a00", "#6b3fa0", "#00707a")


class WebTitle:
    """The web side of one title. Subclass it in ``titles/<slug>/web.py`` and override what
    the title shows differently; every method has a generic answer."""

    #: Templates included by the generic game page (``templates/games/game.html``).
    board_template = "games/generic/_board.html"
    act_template = "games/generic/_act.html"
    side_template = "games/generic/_side.html"
    #: Shown under the board (None: nothing).
    legend_template: str | None = None
    #: The board is drawn by the server and swapped in with the panels after each update
    #: (True), or redrawn by the title's script from the socket's view (False).
    board_swaps = True
    #: The board zooms and pans on a small screen (``static/js/board_zoom.js``): a CSS
    #: selector of the places a player taps on it (their size decides how far a tap zooms
    #: in), or None for a board shown as it is.
    board_zoom: str | None = None
    #: The home page's card of the title: its picture (a static path, an SVG of our own
    #: drawing; None: none) and, from ``pitch``, one translated line saying what it is.
    artwork: str | None = None
    #: Shown on the home page under the title's name; the how-to-play page (None: none).
    home_template: str | None = None
    how_to_play_template: str | None = None
    #: Static files of the title's page (paths for ``{% static %}``).
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()

    def __init__(self, slug: str) -> None:
        self.slug = slug

    @property
    def rules(self) -> Rules:
        return get_rules(self.slug)

    @property
    def name(self) -> str:
        return str(self.rules.name)

    def pitch(self) -> str:
        """One line for the home page's card, in the reader's language (empty: none)."""
        return ""

    # --- the new-table form --------------------------------------------------------------

    def option_fields(self) -> dict[str, forms.Field]:
        """Form fields for the title's table options, built from its declared options; the
        label, help and choices' words come from the title's own catalogue."""
        fields: dict[str, forms.Field] = {}
        for name, option in self.rules.options_schema.items():
            fields[name] = forms.ChoiceField(
                label=_(option.label),
                choices=[(str(c), _(option.choice_label(c))) for c in option.choices],
                initial=str(option.default),
                help_text=_(option.help) if option.help else "",
            )
        return fields

    def options_from_form(self, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The options for ``games.tables.lifecycle.game_create`` from the cleaned form data (text:
        ``games.engine.normalise_options`` turns it into the typed choices)."""
        return {name: cleaned.get(name) for name in self.rules.options_schema}

    def form_note(self) -> str:
        """A sentence the new-table form shows for this title (empty: none)."""
        return ""

    def bot_label(self, kind: str) -> str:
        """How the new-table form names a bot kind."""
        if kind == "random":
            return _("random (a beginner)")
        if kind == "search":
            return _("search (thinks ahead)")
        return _("%(kind)s bot") % {"kind": kind}

    # --- the game page -------------------------------------------------------------------

    def page_context(
        self,
        *,
        doc: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        names: Sequence[str],
        me: int | None,
    ) -> dict[str, Any]:
        """Extra context for the title's templates (board, action panel, side panel)."""
        return {
            "generic_actions": [
                {"json": json.dumps(dict(a), sort_keys=True), "label": self.action_label(a)}
                for a in legal
            ]
        }

    def client_strings(self) -> dict[str, Any]:
        """Words the title's page script needs (passed in the page's JSON data)."""
        return {}

    def status_line(self, view: Mapping[str, Any] | None) -> str:
        """A few words on where a running game stands (the page's meta line)."""
        return _("Playing")

    def action_label(self, action: Mapping[str, Any]) -> str:
        """A button's words for one legal action (generic: its fields)."""
        rest = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
        kind = str(action.get("type", "")).replace("_", " ")
        return f"{kind}: {rest}" if rest else kind

    def action_from_post(self, data: Any) -> dict[str, Any]:
        """The engine action posted by the page (``data`` is the request's POST). Generic:
        the action as JSON in the ``action`` field. Raises ``forms.ValidationError``."""
        raw = data.get("action") or ""
        try:
            action = json.loads(raw)
        except (TypeError, ValueError):
            raise forms.ValidationError(_("That move was not understood.")) from None
        if not isinstance(action, dict):
            raise forms.ValidationError(_("That move was not understood."))
        return action

    def token(self, seat: int, size: int = 18) -> SafeString:
        """A seat's marker (the players list, the legend)."""
        colour = GENERIC_COLOURS[seat % len(GENERIC_COLOURS)]
        half = size / 2
        return format_html(
            '<svg class="token" width="{}" height="{}" viewBox="0 0 {} {}" aria-hidden="true">'
            '<circle cx="{}" cy="{}" r="{}" fill="{}"/></svg>',
            size,
            size,
            size,
            size,
            half,
            half,
            half - 1,
            colour,
        )

    # --- words ---------------------------------------------------------------------------

    def describe(
        self, event: Mapping[str, Any], names: Sequence[str], me: int | None
    ) -> str | None:
        """One log line for one of the title's events (None: no line)."""
        kind = str(event.get("type", ""))
        return kind.replace("_", " ").capitalize() + "." if kind else None

    # --- the replay of a finished game ------------------------------------------------------

    def replay_board(self, view: Mapping[str, Any], names: Sequence[str]) -> SafeString | None:
        """One replay step's board drawn on the server from the step's PUBLIC view (None:
        the title's script draws it, ``render`` in ``window.TitleClients``, or the page
        shows the view as a list)."""
        return None

    def replay_facts(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """What a replay step shows beside the board, from its PUBLIC view only: the
        face-up cards, the bids revealed, the scores… Generic: the scores, when the view's
        ``players`` carry one."""
        players = [p for p in view.get("players") or () if isinstance(p, Mapping)]
        scored = [p for p in players if isinstance(p.get("score"), (int, float))]
        if not scored:
            return []
        parts = ", ".join(f"{_seat_words(names, p.get('seat'))} {p['score']}" for p in scored)
        return [_("Scores: %(scores)s") % {"scores": parts}]

    def needed_words(self, public_view: Mapping[str, Any]) -> str | None:
        """What a 'your turn' mail says the player must do, from the PUBLIC view (never a
        seat's); None: the generic "make your move"."""
        return None


def _seat_words(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return str(names[seat])
    return _("seat %(n)s") % {"n": (seat + 1) if isinstance(seat, int) else "?"}


_REGISTERED: dict[str, WebTitle] = {}


def register(title: WebTitle) -> None:
    """Register ``title`` (its engine title must be registered too)."""
    get_rules(title.slug)
    _REGISTERED[title.slug] = title


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)


def web_title(slug: str) -> WebTitle:
    """The web side of ``slug``: its registered one, else the generic one. ``KeyError`` if
    no engine title has that slug."""
    found = _REGISTERED.get(slug)
    if found is not None:
        return found
    get_rules(slug)
    return WebTitle(slug)


def web_titles() -> list[WebTitle]:
    """Every title the site offers, the default first."""
    first = default_title()
    return sorted((web_title(s) for s in title_slugs()), key=lambda t: (t.slug != first, t.name))


def default_title() -> str:
    """The title a form or a link means when it names none (setting ``DEFAULT_TITLE``,
    else the first title of the one list with a web package, else the first title)."""
    slugs = listed_title_slugs()
    wanted = getattr(settings, "DEFAULT_TITLE", "")
    if wanted in slugs:
        return str(wanted)
    with_web = [s for s in slugs if s in _REGISTERED]
    return (with_web or slugs)[0]
