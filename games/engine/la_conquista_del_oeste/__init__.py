"""La Conquista del Oeste (NAC, Madrid, 1982), slug ``la-conquista-del-oeste``, on this
site's own map and cards. Not yet listed in ``TITLE_PACKAGES``: its web side comes first."""

from __future__ import annotations

from .title import RULES, LaConquistaDelOesteRules

__all__ = ["RULES", "LaConquistaDelOesteRules"]
