"""Colorado County (slug ``colorado-county``), rules CC-1..CC-11 of the project spec.

Public names fixed by CC-12: ``RULES`` (the rules object), ``rank_bids`` and ``valuation``.
"""

from __future__ import annotations

from .scoring import rank_bids, valuation
from .title import RULES, ColoradoCountyRules

__all__ = ["RULES", "ColoradoCountyRules", "rank_bids", "valuation"]
