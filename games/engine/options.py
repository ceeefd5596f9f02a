"""Table options: one pure function turns what a caller sent into a title's typed options.

The API sends JSON values, the page's form and the engine's command line send text: each
value is matched against the option's declared choices (``Option``), a text matching a
choice's text standing for that choice (``"5"`` for ``5``). Errors carry a stable code and
a sentence of our own; they never repeat what was sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .declaration import Option, OptionValue

__all__ = ["OptionError", "normalise_options"]


class OptionError(ValueError):
    """Options the title refuses: ``code`` is stable, the message is ours."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def normalise_options(
    schema: Mapping[str, Option], options: Mapping[str, Any] | None
) -> dict[str, OptionValue]:
    """Every option of ``schema``: the value given (converted to its typed choice) or the
    default. ``OptionError`` for something that is not a mapping, an unknown name or a
    value that is not one of the choices."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise OptionError(
            "bad_options", "Options must be an object mapping option names to values."
        )
    allowed = ", ".join(sorted(schema)) or "none"
    if any(name not in schema for name in options):
        raise OptionError("unknown_option", f"Unknown option; this game's options: {allowed}.")
    out: dict[str, OptionValue] = {}
    for name, option in schema.items():
        out[name] = _choice(name, option, options.get(name, option.default))
    return out


def _choice(name: str, option: Option, value: Any) -> OptionValue:
    if not isinstance(value, bool):
        for choice in option.choices:
            if value == choice and type(value) is type(choice):
                return choice
        if isinstance(value, str):
            for choice in option.choices:
                if str(choice) == value.strip():
                    return choice
    choices = ", ".join(str(c) for c in option.choices)
    raise OptionError("bad_option_value", f"Option {name} must be one of {choices}.")
