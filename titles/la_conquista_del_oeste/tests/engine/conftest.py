"""The ``lcdo`` fixture: La Conquista del Oeste's rules object from the registry."""

from __future__ import annotations

import pytest

from games.engine import get_rules
from titles.la_conquista_del_oeste.engine import RULES, LaConquistaDelOesteRules


@pytest.fixture
def lcdo() -> LaConquistaDelOesteRules:
    assert get_rules(RULES.slug) is RULES  # a built-in title (TITLE_PACKAGES)
    return RULES
