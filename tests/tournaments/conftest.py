"""Tournament tests run Celery tasks eagerly, on the test-only title (fast two-seat games)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None, tiny_title: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
