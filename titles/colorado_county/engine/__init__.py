"""Colorado County (slug ``colorado-county``), rules CC-1..CC-11 of its rules page
(``titles/colorado_county/docs/rules.md``).

Public names fixed by CC-12: ``RULES`` (the rules object), ``rank_bids`` and ``valuation``.
"""

from __future__ import annotations

from games.engine import _native

_native.extend(__path__, __name__)  # the compiled modules, when built (``_native``)

from .scoring import rank_bids, valuation  # noqa: E402 (after the path is set)
from .title import RULES, ColoradoCountyRules  # noqa: E402

__all__ = ["RULES", "ColoradoCountyRules", "rank_bids", "valuation"]
