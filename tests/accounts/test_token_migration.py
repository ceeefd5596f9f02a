"""accounts 0006: tokens made before tokens expired get ``created_at + API_TOKEN_DAYS``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0005_vacation_accrued_on")]
AFTER = [("accounts", "0006_api_token_expires_at")]


def test_existing_tokens_expire_api_token_days_after_they_were_made(settings: Any) -> None:
    settings.API_TOKEN_DAYS = 90
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        user = old.get_model("accounts", "User").objects.create(username="early-bird")
        token = old.get_model("accounts", "ApiToken").objects.create(
            user=user, name="old script", key_digest="d" * 64
        )
        made = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
        old.get_model("accounts", "ApiToken").objects.filter(pk=token.pk).update(created_at=made)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        row = new.get_model("accounts", "ApiToken").objects.get(pk=token.pk)
        assert row.expires_at == made + datetime.timedelta(days=90)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
