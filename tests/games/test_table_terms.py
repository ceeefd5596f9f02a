"""A table's seats and options are checked the same way whoever opens it: a player through
``POST /api/games`` (``games.tables.lifecycle``) and a tournament's round
(``games.tables.seated``). A bad count of players or an option the title does not offer is
a 400 with a stable code, and nothing is opened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.engine import get_rules, title_slugs
from games.errors import BadRequest
from games.models import Game
from games.tables import seated

pytestmark = pytest.mark.django_db

TITLE = title_slugs()[0]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": 99}, "bad_players"),
        ({"players": True}, "bad_players"),
        ({"options": {"no-such-option": 1}}, "bad_options"),
    ],
)
def test_a_table_a_player_asks_for_with_bad_terms_is_refused_and_not_opened(
    make_user: Callable[..., User], api: Callable[[User], Any], body: dict[str, Any], code: str
) -> None:
    rules = get_rules(TITLE)
    answer = api(make_user()).post(
        "/api/games", {"title": TITLE, "players": rules.min_players, **body}
    )
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["code"] == code
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [(99, {}, "bad_players"), (None, {"no-such-option": 1}, "bad_options")],
)
def test_a_tournament_table_with_bad_terms_is_refused_with_the_same_codes(
    seats: int | None, options: dict[str, Any], code: str
) -> None:
    rules = get_rules(TITLE)
    with pytest.raises(BadRequest) as refused:
        seated.table_checks(
            title=TITLE, seats=seats or rules.min_players, options=options, clock=None
        )
    assert refused.value.code == code
