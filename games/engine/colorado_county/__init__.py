"""Colorado County (slug ``colorado-county``), rules CC-1..CC-11 of the project spec.

Public names fixed by CC-12: ``GAME`` (the game object), ``rank_bids`` and ``valuation``.
"""

from __future__ import annotations

from .game import GAME, ColoradoCounty
from .scoring import rank_bids, valuation

__all__ = ["GAME", "ColoradoCounty", "rank_bids", "valuation"]
