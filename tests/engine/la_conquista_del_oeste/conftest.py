"""La Conquista del Oeste is not in ``TITLE_PACKAGES`` yet (its web side comes first):
the tests that go through the registry register it with the ``lcdo`` fixture."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.engine import register, unregister
from games.engine.la_conquista_del_oeste import RULES, LaConquistaDelOesteRules


@pytest.fixture
def lcdo() -> Iterator[LaConquistaDelOesteRules]:
    register(RULES)
    try:
        yield RULES
    finally:
        unregister(RULES.slug)
