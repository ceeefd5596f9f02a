"""Issue 43, trial item 1: two bots of one level at a table are two accounts, and were both
"Random bot" everywhere but the game page (the lobby, the invitation and game-over mails, the
replay's facts, the rating-change table, the profile's recent opponents), and the leaderboard
read "Random bot bot". Each bot account of a kind past the first carries a letter ("Random
bot B", ``User.shown_name``), the one name every place shows."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import is_a_bot_name
from games.models import Game
from games.tables import lifecycle
from tests.accounts.factories import make_user
from tests.play import play_randomly

pytestmark = [pytest.mark.django_db(transaction=True)]


def _client(user: User | None = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_two_bots_of_a_level_have_two_names_everywhere(eager_tasks: None, mailoutbox) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    # The invitation mail lists who sits already.
    lifecycle.game_create(creator=alice, players=4, bots=["random", "random"], invite=["bob"])
    invitation = next(m for m in mailoutbox if m.to == [bob.email])
    # In seat order, which the table draws: both bots, each by its own name.
    sitting = next(
        line for line in invitation.body.splitlines() if line.startswith("At the table:")
    )
    names = sitting.removeprefix("At the table:").strip().split(", ")
    assert sorted(names) == ["Random bot", "Random bot B", "alice"], invitation.body
    assert "Random bot B" in _text(_client(bob).get("/games/open-tables/").content.decode())

    game = lifecycle.game_create(
        creator=alice, players=3, bots=["random", "random"], options={"flags": "random"}
    )
    names = sorted(s.user.shown_name for s in game.seats.select_related("user"))
    assert names == ["Random bot", "Random bot B", "alice"]
    lobby = _text(_client(alice).get("/games/").content.decode())
    assert "Random bot B" in lobby
    game = play_randomly(game, [alice], seed=2)
    assert game.status == Game.Status.FINISHED

    over = next(m for m in mailoutbox if m.to == [alice.email] and "Game over" in m.subject)
    assert "Random bot B:" in over.body, over.body
    assert "Random bot:" in over.body, over.body

    facts = _client().get(f"/games/{game.pk}/replay.json").json()["steps"][-1]["facts"]
    assert re.search(r"Random bot \d", facts[-1]), facts
    assert "Random bot B " in facts[-1], facts

    page = _client(alice).get(f"/games/{game.pk}/").content.decode()
    table = re.search(r"<caption>Rating changes</caption>.*?</table>", page, re.S)
    assert table, "no rating-change table"
    assert "Random bot B" in _text(table.group(0))

    profile = _client().get(reverse("profile", args=["alice"])).content.decode()
    opponents = re.search(r'id="opponents-h".*?</ul>', profile, re.S)
    assert opponents
    entries = re.findall(r"<li>(.*?)</li>", opponents.group(0), re.S)
    shown = sorted(_text(e).split(" · ")[0].strip() for e in entries)
    assert shown == ["Random bot", "Random bot B"], shown

    board = _text(_client().get(reverse("leaderboard")).content.decode())
    assert "bot bot" not in board.lower()


def test_a_person_cannot_take_a_bot_s_lettered_name() -> None:
    assert is_a_bot_name("Random bot B")
    assert is_a_bot_name("search bot c")
    assert not is_a_bot_name("Bob")
