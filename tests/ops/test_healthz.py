"""/healthz answers 200 when the database does, 503 when it does not."""

from __future__ import annotations

import pytest
from django.db import DatabaseError
from django.test import Client


@pytest.mark.django_db
def test_healthz_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["ok"] is True


@pytest.mark.postgres
@pytest.mark.django_db
def test_healthz_ok_on_postgresql(client: Client) -> None:
    from django.db import connection

    assert connection.vendor == "postgresql"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["ok"] is True


@pytest.mark.django_db
def test_healthz_503_when_database_fails(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import connection

    def broken_cursor(*args: object, **kwargs: object) -> None:
        raise DatabaseError("connection refused")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["ok"] is False


@pytest.mark.django_db
def test_healthz_rejects_post(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
