"""The checks ``register`` runs on a title: its declaration (``declaration.Declaration``)
against the rules object itself, each problem as a sentence naming what is wrong."""

from __future__ import annotations

from collections.abc import Mapping

from .declaration import GENERIC_KINDS, HOOKS, LEVELS, SHAREABLE, Declaration, Option
from .protocol import Rules

__all__ = ["declaration_problems"]


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
    random_kind, search_kind = GENERIC_KINDS
    kinds = set(rules.bots) | {random_kind} | ({search_kind} if "determinise" in d.hooks else set())
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
