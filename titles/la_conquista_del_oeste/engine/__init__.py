"""La Conquista del Oeste (NAC, Madrid, 1982), slug ``la-conquista-del-oeste``, on this
site's own map and cards (its web side: ``titles/la_conquista_del_oeste/``)."""

from __future__ import annotations

from .title import RULES, LaConquistaDelOesteRules

__all__ = ["RULES", "LaConquistaDelOesteRules"]
