"""Display names that pass for someone else (issue 41, item 7): zero-width characters,
right-to-left overrides, Cyrillic look-alikes (``аlice``) and the bots' own names were all
accepted. A display name is NFKC-normalised, and refused when it holds an invisible or
bidirectional control, mixes scripts confusably, reads as another account's name by
Unicode's confusable skeletons (UTS #39, ICU's implementation), or copies a bot's name."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import User
from accounts.names import display_name_problem, skeleton
from tests.accounts.factories import make_user
from tests.games.fixtures import ApiClient

pytestmark = pytest.mark.django_db


def _put(user: User, name: str) -> tuple[int, dict]:
    api = ApiClient(user)
    response = api.client.put(
        "/api/me/settings",
        json.dumps({"display_name": name}),
        content_type="application/json",
        headers=api.headers,
    )
    return response.status_code, response.json()


@pytest.mark.parametrize(
    "name",
    [
        "Al\u200bice",  # zero-width space
        "Alice\u200d",  # zero-width joiner
        "\u202eecilA",  # right-to-left override
        "Alice\u2066x\u2069",  # isolates
        "Alice\u200e",  # left-to-right mark
        "\u2800",  # braille blank
        "A\u3164",  # Hangul filler
        "Al\u00adice",  # soft hyphen
    ],
)
def test_invisible_and_bidirectional_characters_are_refused(name: str) -> None:
    user = make_user("someone")
    problem = display_name_problem(user, name)
    assert problem is not None, repr(name)
    status, body = _put(user, name)
    assert status == 400, (name, body)
    assert body["code"] == "invalid_setting"
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_cyrillic_look_alike_of_another_name_is_refused() -> None:
    make_user("alice")
    make_user("bob", display_name="Lucky Luke")
    mallory = make_user("mallory")
    make_user("mark")
    for name in ("аlice", "ALICE", "Lucky Lukе", "LuckyLuke", "Lucky Luke", "ａｌｉｃｅ", "rnark"):
        assert display_name_problem(mallory, name) is not None, name
    assert skeleton("аlice") == skeleton("alice")


def test_mixing_latin_with_cyrillic_is_refused_even_without_a_victim() -> None:
    user = make_user("mallory")
    assert display_name_problem(user, "Bоrіs Nоbоdy") is not None  # Cyrillic о and і
    # One script, or Latin with the Japanese scripts, is fine.
    for fine in ("Борис", "José Núñez", "山田 Taro", "やまだ", "Zoë"):
        assert display_name_problem(user, fine) is None, fine


def test_a_bots_name_is_refused_in_any_language() -> None:
    user = make_user("mallory")
    for name in ("Search bot", "search  BOT", "Random bot", "Greedy bot", "Bot glouton"):
        assert display_name_problem(user, name) is not None, name


def test_display_names_are_nfkc_normalised() -> None:
    user = make_user("fullwidth")
    status, body = _put(user, "Ｔｏｍ")
    assert status == 200, body
    assert body["display_name"] == "Tom"


def test_the_settings_page_shows_the_refusal() -> None:
    user = make_user("pageuser")
    client = Client()
    client.force_login(user)
    page = client.post(
        "/accounts/settings/",
        {
            "display_name": "\u202eecilA",
            "time_zone": "UTC",
            "language": "",
            "email_notifications": "each_turn",
            "reminder_hours": "12",
        },
    )
    assert page.status_code == 200
    assert page.context["form"].errors.get("display_name")
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_username_confusable_with_another_name_is_refused_at_sign_up() -> None:
    from players.adapter import AccountAdapter

    make_user("alice")
    from django import forms

    with pytest.raises(forms.ValidationError):
        AccountAdapter().clean_username("аlice")
