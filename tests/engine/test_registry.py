"""The title registry: built-in titles from TITLE_PACKAGES, run-time register/unregister,
clear errors, and metadata every title must carry."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import replace

import pytest

from games.engine import (
    TITLE_PACKAGES,
    Rules,
    get_rules,
    register,
    title_slugs,
    unregister,
    validate_options,
    views,
)
from games.engine.bots import bot_names
from tests.tiny_title import TinyDuel, registered


@pytest.fixture
def tiny() -> Iterator[TinyDuel]:
    with registered() as rules:
        yield rules


def test_the_titles_come_from_the_one_list_each_from_its_own_folder() -> None:
    assert TITLE_PACKAGES
    slugs = []
    for package in TITLE_PACKAGES:
        rules = importlib.import_module(f"titles.{package}.engine").RULES
        assert get_rules(rules.slug) is rules
        slugs.append(rules.slug)
    assert title_slugs() == sorted(slugs)


def test_unknown_slug_is_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match=f"Unknown title 'chess'; known titles: {title_slugs()[0]}"):
        get_rules("chess")
    with pytest.raises(KeyError, match="Unknown title"):
        get_rules(["not", "hashable"])  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="Unknown title 'chess'"):
        validate_options("chess", {})


def test_register_adds_a_title_and_unregister_removes_it() -> None:
    rules = TinyDuel()
    built_in = title_slugs()
    register(rules)
    try:
        assert title_slugs() == sorted([*built_in, "tiny-duel"])
        assert get_rules("tiny-duel") is rules
        register(rules)  # the same object again: nothing changes
        assert title_slugs() == sorted([*built_in, "tiny-duel"])
        assert validate_options("tiny-duel", None) == {"rounds": 3}
    finally:
        unregister("tiny-duel")
    assert title_slugs() == built_in
    with pytest.raises(KeyError, match="tiny-duel"):
        get_rules("tiny-duel")
    with pytest.raises(KeyError, match="nothing to unregister"):
        unregister("tiny-duel")


def test_a_taken_slug_is_refused(tiny: TinyDuel) -> None:
    with pytest.raises(ValueError, match="'tiny-duel' is already taken"):
        register(TinyDuel())
    impostor = TinyDuel()
    impostor.slug = "colorado-county"
    with pytest.raises(ValueError, match="'colorado-county' is already taken"):
        register(impostor)
    assert get_rules("tiny-duel") is tiny
    assert get_rules("colorado-county") is not impostor


def test_register_refuses_what_is_not_a_title() -> None:
    with pytest.raises(TypeError, match="Rules protocol"):
        register(object())  # type: ignore[arg-type]
    no_colours = TinyDuel()
    no_colours.seat_colours = ("white",)
    with pytest.raises(ValueError, match="one colour per seat"):
        register(no_colours)
    assert "tiny-duel" not in title_slugs()


def test_a_registered_title_gets_its_own_bots(tiny: TinyDuel) -> None:
    assert bot_names("tiny-duel") == ["high", "random"]


@pytest.mark.parametrize("slug", [*title_slugs(), "tiny-duel"])
def test_every_title_carries_consistent_metadata(tiny: TinyDuel, slug: str) -> None:
    rules = get_rules(slug)
    assert isinstance(rules, Rules)
    assert 1 <= rules.min_players <= rules.max_players
    assert len(rules.seat_colours) == rules.max_players
    assert len(set(rules.seat_colours)) == rules.max_players
    assert rules.stand_in_bot in bot_names(slug)
    assert "random" in bot_names(slug)
    for name, bot in rules.bots.items():
        assert bot.name == name
    for action_type, reveal in rules.sealed_steps.items():
        assert isinstance(action_type, str)
        assert isinstance(reveal, str)
    validate_options(slug, None)  # the defaults are valid choices


def test_views_of_a_title_without_the_hook_are_its_views_one_by_one(tiny: TinyDuel) -> None:
    """``games.engine.views`` works for every title: one that has no ``views`` of its own
    (``ManyViews``) gets ``view`` seat by seat."""
    assert not hasattr(tiny, "views")
    state = tiny.setup(2, 7)
    assert views(tiny, state, [1, None, 0]) == {
        1: tiny.view(state, 1),
        None: tiny.view(state, None),
        0: tiny.view(state, 0),
    }


def _refusal(**changes: object) -> str:
    """The sentence ``register`` refuses a tiny duel with, its declaration changed."""
    title = TinyDuel()
    title.declaration = replace(title.declaration, **changes)  # type: ignore[misc]
    with pytest.raises(ValueError, match="tiny-duel: ") as info:
        register(title)
    assert "tiny-duel" not in title_slugs()
    return str(info.value)


def test_register_refuses_a_declaration_that_does_not_match_the_title() -> None:
    assert "declares the hook 'determinise' but has no such method" in _refusal(
        hooks=frozenset({"determinise"})
    )
    assert "unknown hook 'telepathy'" in _refusal(hooks=frozenset({"telepathy"}))
    assert "names the bot 'search', which cannot play it" in _refusal(
        bot_levels={"easy": "random", "hard": "search"}
    )
    assert "unknown bot level 'expert'" in _refusal(bot_levels={"expert": "high"})
    assert "must give typical and most for 2 players" in _refusal(
        length=replace(TinyDuel.declaration.length, most={})
    )
    assert "sealed steps, so it must declare hidden information" in _refusal(
        hidden_information=False
    )
    assert "only legal_actions, view, views, query may be shared" in _refusal(
        shared=frozenset({"dump"})
    )


def test_register_refuses_a_hook_the_title_has_but_does_not_declare() -> None:
    class Searchable(TinyDuel):
        def determinise(self, state: object, seat: int, rng: object) -> object:
            return state

    with pytest.raises(ValueError, match="has a 'determinise' method but does not declare"):
        register(Searchable())


def test_the_one_lists_order_holds_when_a_title_is_registered_again() -> None:
    """The site's default title is the first of the one list; a test that wraps a built-in
    title (unregister, register a proxy, put it back) must not move it to the end."""
    from games.engine import get_rules, listed_title_slugs, register, unregister

    before = listed_title_slugs()
    first = before[0]
    rules = get_rules(first)
    unregister(first)
    try:
        register(rules)
        assert listed_title_slugs() == before
    finally:
        if first not in listed_title_slugs():
            register(rules)
