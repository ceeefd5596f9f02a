"""The title registry: the one list of titles (``titles.TITLE_PACKAGES``) imported on the
first call, titles added at run time (a test-only title), and typed access to the hooks a
title declares (never probed by attribute)."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from titles import TITLE_PACKAGES

from .checks import declaration_problems
from .declaration import OptionValue
from .options import normalise_options
from .protocol import Determinising, Generator, ManyViews, Ranking, Rules, SearchHooks

__all__ = [
    "determinising",
    "get_rules",
    "has_hook",
    "listed_title_slugs",
    "playout_estimate",
    "playout_policy",
    "register",
    "search_actions",
    "search_budget",
    "title_slugs",
    "unregister",
    "validate_options",
    "views",
]

Action = dict[str, Any]

_LOCK = threading.Lock()
_TITLES: dict[str, Rules] | None = None
_BUILTIN_ORDER: list[str] = []  # the slugs of titles.TITLE_PACKAGES, in its order


def _checked(rules: Rules) -> Rules:
    if not isinstance(rules, Rules):
        raise TypeError(f"{rules!r} does not implement the Rules protocol.")
    if not isinstance(rules.slug, str) or not rules.slug:
        raise ValueError("A title's slug must be a non-empty string.")
    problems = declaration_problems(rules)
    if problems:
        raise ValueError(" ".join(problems))
    return rules


def _builtin() -> dict[str, Rules]:
    out: dict[str, Rules] = {}
    for package in TITLE_PACKAGES:
        rules = _checked(importlib.import_module(f"titles.{package}.engine").RULES)
        if rules.slug in out:
            raise ValueError(f"Two titles use the slug {rules.slug!r}.")
        out[rules.slug] = rules
    _BUILTIN_ORDER[:] = list(out)
    return out


def _titles() -> dict[str, Rules]:
    global _TITLES
    if _TITLES is None:
        with _LOCK:
            if _TITLES is None:
                _TITLES = _builtin()
    return _TITLES


def title_slugs() -> list[str]:
    """The slugs of all registered titles, sorted."""
    return sorted(_titles())


def listed_title_slugs() -> list[str]:
    """The slugs in the order of the one list (``titles.TITLE_PACKAGES``: its first title is
    the site's default), then the titles registered at run time, by slug. A built-in title
    registered again (a test's wrapper) keeps its place."""
    titles = _titles()
    place = {slug: i for i, slug in enumerate(_BUILTIN_ORDER)}
    return sorted(titles, key=lambda slug: (place.get(slug, len(place)), slug))


def get_rules(slug: str) -> Rules:
    """The rules object of ``slug``; ``KeyError`` with a clear message if unknown."""
    try:
        return _titles()[slug]
    except (KeyError, TypeError):
        raise KeyError(
            f"Unknown title {slug!r}; known titles: {', '.join(title_slugs())}."
        ) from None


def register(rules: Rules) -> None:
    """Add a title at run time (e.g. a test-only title). Registering the same object again
    does nothing. ``TypeError`` if it lacks part of the ``Rules`` protocol; ``ValueError``
    if its slug belongs to another object or its declaration does not match it (the
    message names each problem)."""
    _checked(rules)
    titles = _titles()
    with _LOCK:
        known = titles.get(rules.slug)
        if known is not None and known is not rules:
            raise ValueError(f"The slug {rules.slug!r} is already taken by {known!r}.")
        titles[rules.slug] = rules


def unregister(slug: str) -> None:
    """Remove the title ``slug`` (``KeyError`` if it is not registered)."""
    titles = _titles()
    with _LOCK:
        if slug not in titles:
            raise KeyError(f"Unknown title {slug!r}; nothing to unregister.")
        del titles[slug]


def validate_options(slug: str, options: Mapping[str, Any] | None) -> dict[str, OptionValue]:
    """``slug``'s options from what a caller sent (``options.normalise_options``)."""
    return normalise_options(get_rules(slug).options_schema, options)


# -- the declared hooks --------------------------------------------------------------------


def has_hook(rules: Rules, hook: str) -> bool:
    """Whether ``rules`` declares the optional ``hook`` (``declaration.HOOKS``)."""
    return hook in rules.declaration.hooks


def views(
    rules: Rules, state: Any, seats: Sequence[int | None]
) -> dict[int | None, dict[str, Any]]:
    """Each of ``seats``' view of ``state`` (``None``: the spectators'), as ``rules.view``
    gives it: through the title's ``views`` hook when it declares one (after a move the
    server builds every seat's frame at once), else one ``view`` per seat."""
    if "views" in rules.declaration.hooks:
        return cast(ManyViews, rules).views(state, seats)
    return {seat: rules.view(state, seat) for seat in seats}


def determinising(rules: Rules) -> Determinising | None:
    """The title's ``determinise`` hook, or None if it declares none."""
    return cast(Determinising, rules) if "determinise" in rules.declaration.hooks else None


def search_actions(rules: Rules) -> Callable[[Any, int], list[Action]]:
    """The moves the search considers: the ``search_actions`` hook, else the legal ones."""
    if "search_actions" in rules.declaration.hooks:
        return cast(SearchHooks, rules).search_actions
    return rules.legal_actions


def playout_policy(rules: Rules) -> Callable[[Any, int, Generator], Action] | None:
    """The ``playout_action`` hook, or None (the search then plays uniformly)."""
    if "playout_action" in rules.declaration.hooks:
        return cast(SearchHooks, rules).playout_action
    return None


def search_budget(rules: Rules) -> Callable[[Any, int], float] | None:
    """The ``search_budget`` hook, or None (every decision spends the whole budget)."""
    if "search_budget" in rules.declaration.hooks:
        return cast(SearchHooks, rules).search_budget
    return None


def playout_estimate(rules: Rules) -> Callable[[Any, Any], list[float] | None] | None:
    """The ``playout_estimate`` hook, or None (playouts run to the end)."""
    if "playout_estimate" in rules.declaration.hooks:
        return cast(SearchHooks, rules).playout_estimate
    return None


def competition_ranks(scores: Sequence[int]) -> list[int]:
    """1 for the best score; ties share a rank and the next rank skips (1, 1, 3)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def final_ranks(rules: Rules, state: Any) -> list[int]:
    """A finished game's ranks: the title's ``ranks`` hook when declared (its tie-breaks),
    else the competition ranks of ``result``."""
    if "ranks" in rules.declaration.hooks:
        return [int(r) for r in cast(Ranking, rules).ranks(state)]
    return competition_ranks(list(rules.result(state)))
