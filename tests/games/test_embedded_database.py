"""Embedded mode (SQLite): a read never fails because another thread is writing.

The site's SQLite file waits (its busy timeout) instead of failing while another connection
writes. The tests must use a database that behaves the same: SQLite's shared-cache
in-memory database, Django's default for tests, answers "database table is locked" at once,
which made a socket's frame fail in CI while a bot's move was being written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from accounts.models import User
from games.store import db_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="embedded mode (SQLite) only"),
]


def test_a_read_in_a_database_thread_succeeds_while_another_thread_writes(
    make_user: Callable[..., User],
) -> None:
    user = make_user()
    writing = threading.Event()
    done = threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                User.objects.filter(pk=user.pk).update(first_name="Changed")
                writing.set()
                done.wait(timeout=5)
        finally:
            connections.close_all()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert writing.wait(timeout=5)
        name = db_threads.call(lambda: User.objects.get(pk=user.pk).first_name)
    finally:
        done.set()
        thread.join(timeout=10)
    assert name == user.first_name  # what was committed: the write was still in progress
    assert User.objects.get(pk=user.pk).first_name == "Changed"


def test_the_test_database_is_a_file_as_the_sites_is() -> None:
    assert not connection.is_in_memory_db()
