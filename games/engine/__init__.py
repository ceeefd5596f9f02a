"""The rules engine: the protocol every title (game) implements, what a title declares,
its options, and the title registry.

This package is pure Python: it imports no Django, database, network or clock (CC-12).
The web app, the bots and outside tools reach a title only through ``get_rules(slug)``.
Each title's rules are one package ``titles.<package>.engine`` exporting ``RULES``; the
titles are listed once, in ``titles.TITLE_PACKAGES``, and imported on the first registry
call. Nothing else in ``games.engine`` imports a title package.

``protocol`` holds ``Rules`` and the hooks' protocols, ``declaration`` what a title
declares (``Declaration``, ``Length``, ``Option``), ``checks`` the checks ``register`` runs
on it, ``options`` the one function that turns sent options into typed ones, ``registry``
the registry and typed access to declared hooks.
"""

from __future__ import annotations

from titles import TITLE_PACKAGES

from . import _native

_native.extend(__path__, __name__)  # the compiled engine, when built (``_native``)

from .checks import declaration_problems  # noqa: E402 (after the path is set)
from .declaration import (  # noqa: E402
    HOOKS,
    LEVELS,
    SHAREABLE,
    Declaration,
    Length,
    Option,
    OptionValue,
    gettext_noop,
)
from .options import OptionError, normalise_options  # noqa: E402
from .protocol import (  # noqa: E402
    Determinising,
    Event,
    Generator,
    IllegalAction,
    ManyViews,
    OptionSpec,
    Rules,
    SearchHooks,
)
from .registry import (  # noqa: E402
    determinising,
    get_rules,
    has_hook,
    listed_title_slugs,
    playout_estimate,
    playout_policy,
    register,
    search_actions,
    search_budget,
    title_slugs,
    unregister,
    validate_options,
    views,
)

__all__ = [
    "HOOKS",
    "LEVELS",
    "SHAREABLE",
    "TITLE_PACKAGES",
    "Declaration",
    "Determinising",
    "Event",
    "Generator",
    "IllegalAction",
    "Length",
    "ManyViews",
    "Option",
    "OptionError",
    "OptionSpec",
    "OptionValue",
    "Rules",
    "SearchHooks",
    "declaration_problems",
    "determinising",
    "get_rules",
    "gettext_noop",
    "has_hook",
    "listed_title_slugs",
    "normalise_options",
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
