"""Webhook tests run Celery tasks eagerly, may point hooks at this machine (a local receiver),
and read the list of accounts with hooks afresh each time."""

from __future__ import annotations

from typing import Any

import pytest

from webhooks import events


@pytest.fixture(autouse=True)
def _webhook_settings(eager_tasks: None, settings: Any) -> Any:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOKS_OWNERS_SECONDS = 0
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    events.owners_forget()
    yield
    events.owners_forget()
