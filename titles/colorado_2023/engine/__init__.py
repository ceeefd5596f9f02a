"""Colorado' rules: pure Python (no Django), reached through ``games.engine.get_rules``.

``RULES`` is the rules object; ``docs/rules.md`` in this title's folder says the rules in
words, with the id of each ruling the code and tests cite.
"""

from __future__ import annotations

from .title import RULES, Colorado2023Rules

__all__ = ["RULES", "Colorado2023Rules"]
