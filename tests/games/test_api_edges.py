"""The API's edges (issue 41, item 10): an unknown path under ``/api/`` and an oversized
query string answer the API's JSON, and no error message repeats what was sent."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.games.fixtures import ApiClient

pytestmark = [pytest.mark.django_db]

MARK = "zq<img src=x onerror=alert(1)>zq"


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_path_under_api_answers_the_api_json_404(method: str) -> None:
    response = getattr(Client(), method)("/api/no/such/thing")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


def test_too_many_query_parameters_answer_the_api_json_400() -> None:
    query = "&".join(f"p{n}=1" for n in range(1200))
    response = Client().get(f"/api/games?{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "bad_request"


def test_too_many_query_parameters_on_a_page_answer_400_not_500() -> None:
    query = "&".join(f"p{n}=1" for n in range(1200))
    response = Client().get(f"/how-to-play/?{query}")
    assert response.status_code == 400


def _no_echo(response: Any) -> None:
    body = response.content.decode("utf-8", "replace")
    assert "zq" not in body, body[:400]
    assert "onerror" not in body


def test_errors_never_echo_what_was_sent(make_user: Callable[..., User]) -> None:
    alice = make_user()
    api = ApiClient(alice)
    refused = [
        api.post("/api/games", {"players": 2, "options": {MARK: 1}}),
        api.post("/api/games", {"players": 2, "options": {"flags": MARK}}),
        api.post("/api/games", {"players": 2, "invite": [MARK]}),
        api.post("/api/games", {"players": 2, "bots": [MARK]}),
        api.post("/api/games", {"players": 2, "bot_level": MARK}),
        api.post("/api/games", {"players": 2, "clock": MARK}),
        api.post("/api/games", {"players": 2, "clock": {MARK: 1}}),
        api.post("/api/games", {"game": MARK, "players": 2}),
        api.post("/api/games", {"players": MARK}),
        api.post("/api/games", raw='{"players": ' + json.dumps(MARK)),
        api.get(f"/api/users/{MARK}"),
        api.get(f"/api/users/{MARK}/games"),
        api.get(f"/api/users/{alice.username}/games?status={MARK}"),
        api.get(f"/api/bots?game={MARK}"),
        api.get(f"/api/games?status={MARK}"),
        api.get(f"/api/games/1/log?since={MARK}"),
        api.client.put(
            "/api/me/settings",
            json.dumps({"time_zone": MARK}),
            content_type="application/json",
            headers=api.headers,
        ),
        api.client.put(
            "/api/me/settings",
            json.dumps({MARK: 1}),
            content_type="application/json",
            headers=api.headers,
        ),
    ]
    for response in refused:
        assert 400 <= response.status_code < 500, response.content[:200]
        _no_echo(response)


def test_page_errors_never_echo_what_was_sent(make_user: Callable[..., User]) -> None:
    client = Client()
    client.force_login(make_user())
    for response in (
        client.get(f"/leaderboard/{'zq-img-onerror'}/"),
        client.get(f"/users/{MARK}/"),
    ):
        assert response.status_code == 404
        _no_echo(response)


def test_a_form_error_keeps_the_titles_sentence_but_never_the_value_sent() -> None:
    from django import forms

    from games.moves.request import form_refusal

    own = forms.ValidationError("Choose a cell, like C4.")
    assert form_refusal(own) == "Choose a cell, like C4."
    field = forms.ChoiceField(choices=[("a", "A")])
    with pytest.raises(forms.ValidationError) as caught:
        field.clean(MARK)
    assert "zq" not in form_refusal(caught.value)
