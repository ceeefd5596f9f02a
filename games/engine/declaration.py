"""What a title declares it is and provides, checked when it is registered.

Like OpenSpiel's ``GameType``, a title states its shape as data (``Rules.declaration``):
whether seats act at once, whether chance and hidden information are part of it, the
queries it answers, the optional hooks it implements, the bot that plays each level, how
long a game lasts, and which of the values it returns are shared read-only. The platform
reads the declaration instead of probing the rules object for attributes, and
``registry.register`` refuses a title whose declaration does not match the object, with a
sentence naming what is wrong (``checks.declaration_problems``).

Its options are declared here too (``Option``): typed choices with a label and help that
the title marks with ``gettext_noop`` so that its own translation catalogue holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "HOOKS",
    "LEVELS",
    "SHAREABLE",
    "Declaration",
    "Length",
    "Option",
    "OptionValue",
    "gettext_noop",
]

OptionValue = str | int

#: The optional hooks a title may implement, and what each is for:
#: ``views`` several seats' views at once (``protocol.ManyViews``); ``determinise`` the
#: search bot's first step (``protocol.Determinising``); ``search_actions``,
#: ``playout_action``, ``playout_estimate`` and ``search_budget`` tune the search
#: (``protocol.SearchHooks``).
HOOKS: tuple[str, ...] = (
    "views",
    "determinise",
    "search_actions",
    "playout_action",
    "playout_estimate",
    "search_budget",
)
#: The returned values a title may declare shared read-only (the same objects handed out
#: again, which callers must never change). Events and dumps are always fresh.
SHAREABLE: tuple[str, ...] = ("legal_actions", "view", "views", "query")
#: The bot levels a table may choose, easiest first.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
#: Bot kinds every title can use: ``random`` plays any title; ``search`` any title with
#: the ``determinise`` hook.
GENERIC_KINDS: tuple[str, ...] = ("random", "search")


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged. The rules stay free of
    Django; the catalogue tools find the strings marked this way in a title's folder, and
    the pages translate them from the title's own catalogue when they show them."""
    return message


@dataclass(frozen=True)
class Option:
    """One table option: its typed ``choices`` and ``default``, a ``label`` and ``help``
    (English, marked with ``gettext_noop``), and optional words for each choice."""

    choices: tuple[OptionValue, ...]
    default: OptionValue
    label: str
    help: str = ""
    choice_labels: Mapping[OptionValue, str] = field(default_factory=dict)

    def choice_label(self, value: OptionValue) -> str:
        """The words for ``value`` (English; the value itself when none are declared)."""
        return self.choice_labels.get(value, str(value))


@dataclass(frozen=True)
class Length:
    """How long a game lasts, in ``unit`` (``rounds``: every seat acts about once;
    ``steps``: single actions), per seat count: ``typical[n] = (low, high)`` holds most
    games of ``n`` seats between bots of one level, and no game lasts more than
    ``most[n]`` (the conformance suite plays games out against it)."""

    unit: Literal["rounds", "steps"]
    typical: Mapping[int, tuple[int, int]]
    most: Mapping[int, int]


@dataclass(frozen=True)
class Declaration:
    """What a title is and provides (see the module's text)."""

    #: Several seats may be to act at once (``to_act`` holds more than one seat).
    simultaneous: bool
    #: The seed's generator draws during setup or play (shuffles, dice).
    chance: bool
    #: Some part of the state is hidden from some seat (hands, decks, sealed actions).
    hidden_information: bool
    length: Length
    #: Level -> bot kind (a title's own bot, or a generic kind).
    bot_levels: Mapping[str, str]
    #: The names ``query`` answers.
    queries: tuple[str, ...] = ()
    #: The optional hooks implemented (names from ``HOOKS``).
    hooks: frozenset[str] = frozenset()
    #: The returned values handed out shared and read-only (names from ``SHAREABLE``);
    #: any other is fresh on every call.
    shared: frozenset[str] = frozenset()
