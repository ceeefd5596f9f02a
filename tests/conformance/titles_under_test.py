"""Which titles and seat counts the conformance suite runs over: every title in the
registry (``titles.TITLE_PACKAGES``), plus the test-only title (``tests/tiny_title.py``),
which is registered only while a conformance test runs (``conftest.py``). Nothing here
names a title."""

from __future__ import annotations

from games.engine import Rules, get_rules, title_slugs
from tests.tiny_title import TinyDuel

TEST_ONLY = TinyDuel()


def built_in_slugs() -> list[str]:
    """The site's titles: those with a folder of their own (a web side, catalogues)."""
    return [s for s in title_slugs() if s != TEST_ONLY.slug]


def all_slugs() -> list[str]:
    return sorted([*built_in_slugs(), TEST_ONLY.slug])


def rules_of(slug: str) -> Rules:
    return TEST_ONLY if slug == TEST_ONLY.slug else get_rules(slug)


def slug_seats() -> list[tuple[str, int]]:
    """Every title with every seat count it is played with."""
    out = []
    for slug in all_slugs():
        rules = rules_of(slug)
        out += [(slug, n) for n in range(rules.min_players, rules.max_players + 1)]
    return out
