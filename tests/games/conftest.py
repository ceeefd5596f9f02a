"""Every test of the game server runs Celery tasks eagerly."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Every test here runs Celery tasks eagerly (``tests.fixtures.eager_tasks``)."""
