"""What a title declares it is and provides, checked when it is registered.

Like OpenSpiel's ``GameType``, a title states its shape as data (``Rules.declaration``):
whether seats act at once, whether chance and hidden information are part of it, the
queries it answers, the optional hooks it implements, the bot that plays each level, how
long a game lasts, and which of the values it returns are shared read-only. The platform
reads the declaration instead of probing the rules object for attributes, and
``registry.register`` refuses a title whose declaration does not match the object, with a
sentence naming what is wrong (``declaration_problems``).

Its options are declared here too (``Option``): typed choices with a label and help that
the title marks with ``gettext_noop`` so that its own translation catalogue holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .protocol import Rules

__all__ = [
    "HOOKS",
    "LEVELS",
    "SHAREABLE",
    "Declaration",
    "Length",
    "Option",
    "OptionValue",
    "declaration_problems",
    "gettext_noop",
]

OptionValue = str | int

#: The optional hooks a title may implement, and what each is for:
#: ``views`` several seats' views at once (``protocol.ManyViews``); ``determinise`` the
#: search bot's first step (``protocol.Determinising``); ``search_actions``,
#: ``playout_action`` and ``playout_estimate`` tune the search (``protocol.SearchHooks``).
HOOKS: tuple[str, ...] = (
    "views",
    "determinise",
    "search_actions",
    "playout_action",
    "playout_estimate",
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


def declaration_problems(rules: Rules) -> list[str]:
    """Sentences naming each way ``rules`` does not match its declaration (empty: none)."""
    d = getattr(rules, "declaration", None)
    slug = getattr(rules, "slug", "?")
    if not isinstance(d, Declaration):
        return [f"{slug}: its declaration must be a games.engine.Declaration."]
    out: list[str] = []
    say = out.append
    if not (isinstance(rules.min_players, int) and isinstance(rules.max_players, int)):
        say(f"{slug}: min_players and max_players must be whole numbers.")
        return out
    if not 1 <= rules.min_players <= rules.max_players:
        say(f"{slug}: it needs 1 <= min_players <= max_players.")
    seats = range(rules.min_players, rules.max_players + 1)
    if len(rules.seat_colours) != rules.max_players:
        say(f"{slug}: seat_colours must name one colour per seat.")
    for hook in sorted(d.hooks - set(HOOKS)):
        say(f"{slug}: it declares an unknown hook {hook!r} (known: {', '.join(HOOKS)}).")
    for hook in HOOKS:
        present = callable(getattr(rules, hook, None))
        if hook in d.hooks and not present:
            say(f"{slug}: it declares the hook {hook!r} but has no such method.")
        if present and hook not in d.hooks:
            say(f"{slug}: it has a {hook!r} method but does not declare the hook.")
    for value in sorted(d.shared - set(SHAREABLE)):
        say(f"{slug}: only {', '.join(SHAREABLE)} may be shared, not {value!r}.")
    if "views" in d.shared and "views" not in d.hooks:
        say(f"{slug}: it declares its views shared but has no 'views' hook.")
    if rules.sealed_steps and not d.hidden_information:
        say(f"{slug}: it has sealed steps, so it must declare hidden information.")
    if d.queries and not callable(getattr(rules, "query", None)):
        say(f"{slug}: it declares queries but has no query method.")
    length = d.length
    if length.unit not in ("rounds", "steps"):
        say(f"{slug}: its length unit must be 'rounds' or 'steps'.")
    for n in seats:
        if n not in length.typical or n not in length.most:
            say(f"{slug}: its length must give typical and most for {n} players.")
            continue
        low, high = length.typical[n]
        if not 0 < low <= high <= length.most[n]:
            say(f"{slug}: its length for {n} players needs 0 < low <= high <= most.")
    kinds = set(rules.bots) | {"random"} | ({"search"} if "determinise" in d.hooks else set())
    for level, kind in d.bot_levels.items():
        if level not in LEVELS:
            say(f"{slug}: unknown bot level {level!r} (levels: {', '.join(LEVELS)}).")
        if kind not in kinds:
            say(f"{slug}: its {level} level names the bot {kind!r}, which cannot play it.")
    if rules.stand_in_bot not in kinds:
        say(f"{slug}: its stand-in bot {rules.stand_in_bot!r} is not one of its bots.")
    for name, bot in rules.bots.items():
        if getattr(bot, "name", None) != name:
            say(f"{slug}: its bot listed as {name!r} must be named {name!r}.")
    out += _option_problems(slug, rules.options_schema)
    return out


def _option_problems(slug: str, schema: Mapping[str, Option]) -> list[str]:
    out = []
    for name, option in schema.items():
        if not (isinstance(name, str) and name.isidentifier()):
            out.append(f"{slug}: option names must be identifiers, not {name!r}.")
        if not isinstance(option, Option):
            out.append(f"{slug}: option {name} must be a games.engine.Option.")
            continue
        if not option.choices or option.default not in option.choices:
            out.append(f"{slug}: option {name}'s default must be one of its choices.")
        if any(isinstance(c, bool) or not isinstance(c, str | int) for c in option.choices):
            out.append(f"{slug}: option {name}'s choices must be strings or whole numbers.")
        texts = [str(c) for c in option.choices]
        if len(set(texts)) != len(texts):
            out.append(f"{slug}: option {name}'s choices must differ as text too.")
        if not option.label:
            out.append(f"{slug}: option {name} needs a label.")
    return out
