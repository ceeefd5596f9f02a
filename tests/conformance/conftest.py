"""Parametrise the conformance tests over the registry: a test that takes ``slug`` runs
once per title, one that takes ``slug`` and ``seats`` once per title and seat count, one
that takes ``site_slug`` once per title with a folder of its own (the test-only title has
no web side or catalogue); ``sealed_slug`` and ``hidden_slug`` instead of ``slug`` limit a
test to the titles with sealed steps, or with the ``determinise`` hook."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.engine import determinising, register, title_slugs, unregister
from tests.conformance.titles_under_test import (
    TEST_ONLY,
    all_slugs,
    built_in_slugs,
    rules_of,
    slug_seats,
)

#: Arguments naming the titles a test applies to: with a ``seats`` argument too, every seat
#: count of each such title.
KINDS = {
    "slug": lambda slug: True,
    "sealed_slug": lambda slug: bool(rules_of(slug).sealed_steps),
    "hidden_slug": lambda slug: determinising(rules_of(slug)) is not None,
}


@pytest.fixture(autouse=True)
def test_only_title() -> Iterator[None]:
    """The test-only title is registered for each conformance test, and only then."""
    registered = TEST_ONLY.slug not in title_slugs()
    if registered:
        register(TEST_ONLY)
    yield
    if registered:
        unregister(TEST_ONLY.slug)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    names = set(metafunc.fixturenames)
    kind = next((k for k in KINDS if k in names), None)
    if kind is not None and "seats" in names:
        pairs = [(s, n) for s, n in slug_seats() if KINDS[kind](s)]
        metafunc.parametrize((kind, "seats"), pairs, ids=[f"{s}-{n}p" for s, n in pairs])
    elif "slug" in names:
        metafunc.parametrize("slug", all_slugs())
    elif "site_slug" in names:
        metafunc.parametrize("site_slug", built_in_slugs())
