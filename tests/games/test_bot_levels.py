"""Bot levels: the new-table form and the API offer easy, medium and hard (only the levels
a title's bots can play), each level has its own bot account, the table's level plays its
bot seats and stands in for a late player, the hard bot thinks its budget, the Bots page
lists the levels with their ratings, and ``bot_ladder`` rates the levels against each other.

The titles here are the test-only tiny duel (tests/tiny_title.py), which the search bot
cannot play (no ``determinise`` hook), and a variant of it that it can play, with a bot for
each level whose picks tell them apart (easy picks 1, medium 5)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from io import StringIO
from types import MappingProxyType
from typing import Any

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, RatingChange, User
from games.bots.play import bot_play
from games.clocks.sweep import deadlines_sweep
from games.models import Game, Move, Seat, SeatHandover
from games.tables import lifecycle
from tests.tiny_title import HighBot, TinyDuel, registered

pytestmark = pytest.mark.django_db(transaction=True)


class LowBot:
    """Always picks the lowest number."""

    name = "low"
    reads_view = False
    reads_state = False

    def choose(
        self, rules: Any, view: dict[str, Any], legal_actions: list[Any], rng: random.Random
    ) -> Any:
        return min(legal_actions, key=lambda a: a["number"])


class SearchableDuel(TinyDuel):
    """The tiny duel with the search bot's hook: a seat cannot see the other's pick before
    the reveal, so its determinisation drops that pick (the other seat picks again in the
    search). Its levels: easy ``low``, medium ``high``, hard ``search``."""

    bots = MappingProxyType({"high": HighBot(), "low": LowBot()})
    declaration = replace(
        TinyDuel.declaration,
        bot_levels=MappingProxyType({"easy": "low", "medium": "high", "hard": "search"}),
        hooks=frozenset({"determinise"}),
    )

    def determinise(self, state: Any, seat: int, rng: random.Random) -> Any:
        picks = [p if i == seat else None for i, p in enumerate(state["picks"])]
        return {**self.dump(state), "picks": picks}


@pytest.fixture
def searchable() -> Iterator[SearchableDuel]:
    with registered(SearchableDuel()) as rules:
        yield rules


@pytest.fixture
def quick_search(settings: Any) -> None:
    settings.BOT_SEARCH_SECONDS = 0.05
    settings.BOT_SEARCH_ITERATIONS = 30


def _form(user: User, title: str) -> str:
    page = Client()
    page.force_login(user)
    return page.get(f"/?title={title}").content.decode()


def _post_table(user: User, **fields: str) -> Any:
    page = Client()
    page.force_login(user)
    data = {
        "title": "tiny-duel",
        "players": "2",
        "rounds": "1",
        "clock": "normal",
        "on_timeout": "bot",
        "rated": "on",
        "open_seats": "on",
        "bots": "1",
    }
    return page.post("/games/new/", {**data, **fields})


# --- what is offered -------------------------------------------------------------------


def test_the_form_offers_the_three_levels_with_their_words(
    make_user: Callable[..., User], searchable: Any
) -> None:
    html = _form(make_user(), "tiny-duel")
    assert '<option value="low">Easy: low bot</option>' in html
    assert '<option value="high" selected>Medium: high bot</option>' in html
    assert '<option value="search">Hard: search (thinks ahead)</option>' in html
    assert "moves for a player at the table who misses a deadline" in html
    assert 'href="/bots/"' in html


def test_a_title_the_search_bot_cannot_play_offers_no_hard_level(
    make_user: Callable[..., User], api: Any, tiny_title: Any
) -> None:
    html = _form(make_user(), "tiny-duel")
    assert '<option value="random">Easy: random (a beginner)</option>' in html
    assert '<option value="high" selected>Medium: high bot</option>' in html
    assert "Hard" not in html
    assert 'value="search"' not in html
    answer = api(make_user()).post(
        "/api/games", {"game": "tiny-duel", "players": 2, "bots": ["hard"]}
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "unknown_bot"
    levels = api(None).get("/api/bots?game=tiny-duel").json()
    assert [(b["level"], b["kind"]) for b in levels] == [("easy", "random"), ("medium", "high")]


def test_picking_hard_on_the_form_seats_the_search_bot_and_it_moves(
    make_user: Callable[..., User], searchable: Any, quick_search: None
) -> None:
    alice = make_user()
    answer = _post_table(alice, bot_kind="search")
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get(title="tiny-duel")
    assert game.status == Game.Status.RUNNING
    assert game.bot_kind == "search"
    bot_seat = Seat.objects.select_related("user").get(game=game, user__is_bot=True)
    assert bot_seat.user.username == "bot-search"
    assert bot_seat.bot_kind == "search"
    # Both seats pick at once: the hard bot has picked already, the person is to act.
    moved = Move.objects.get(game=game, seat=bot_seat.seat)
    assert moved.actor == "bot"
    assert moved.action["type"] == "pick"


def test_the_api_takes_levels_and_each_level_has_its_own_account(
    make_user: Callable[..., User], api: Any, searchable: Any, quick_search: None
) -> None:
    client = api(make_user())
    seats = {}
    for level in ("easy", "medium", "hard"):
        answer = client.post(
            "/api/games",
            {"game": "tiny-duel", "players": 2, "bots": [level], "options": {"rounds": 1}},
        )
        assert answer.status_code == 201, answer.content
        doc = answer.json()
        seats[level] = next(s["username"] for s in doc["seats"] if s["is_bot"])
        assert Game.objects.get(pk=doc["id"]).bot_kind == {"easy": "low", "medium": "high"}.get(
            level, "search"
        )
    assert seats == {"easy": "bot-low", "medium": "bot-high", "hard": "bot-search"}
    # The seats' level and the stand-in's may differ; a kind is still taken.
    answer = client.post(
        "/api/games", {"game": "tiny-duel", "players": 2, "bots": ["low"], "bot_level": "hard"}
    )
    assert answer.status_code == 201
    assert Game.objects.get(pk=answer.json()["id"]).bot_kind == "search"
    # The table's level is in its document, for every reader.
    assert answer.json()["bot_level"] == "hard"
    table = answer.json()["id"]
    assert api(None).get(f"/api/games/{table}").json()["bot_level"] == "hard"
    terms = render_to_string("games/_table_terms.html", {"game": Game.objects.get(pk=table)})
    assert "Bot level: Hard" in terms
    for body, code in (
        ({"bots": ["expert"]}, "unknown_bot"),
        ({"bot_level": "expert"}, "unknown_bot_level"),
        ({"bot_level": 3}, "bad_request"),
    ):
        answer = client.post("/api/games", {"game": "tiny-duel", "players": 2, **body})
        assert answer.status_code == 400, body
        assert answer.json()["code"] == code
    levels = api(None).get("/api/bots?game=tiny-duel").json()
    assert [(b["level"], b["label"], b["username"]) for b in levels] == [
        ("easy", "Easy", "bot-low"),
        ("medium", "Medium", "bot-high"),
        ("hard", "Hard", "bot-search"),
    ]
    assert levels[2]["seconds"] == 0.05
    assert levels[0]["seconds"] is None
    assert api(None).get("/api/bots?game=no-such-game").json()["code"] == "unknown_game"


# --- the table's level plays for late and departed players ------------------------------


def _two_people(make_user: Callable[..., User], level: str) -> tuple[Game, User, User]:
    alice = make_user(email="alice@example.org", vacation_days=0)
    bob = make_user(email="bob@example.org", vacation_days=0)
    game = lifecycle.game_create(
        creator=alice,
        title="tiny-duel",
        players=2,
        options={"rounds": 3},
        clock={"initial_hours": 1, "increment_hours": 1, "max_hours": 2},
        bot_level=level,
    )
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game, alice, bob


@pytest.mark.parametrize(("level", "number"), [("easy", 1), ("medium", 5)])
def test_the_stand_in_for_a_late_player_is_the_tables_level(
    make_user: Callable[..., User], searchable: Any, level: str, number: int
) -> None:
    game, alice, _bob = _two_people(make_user, level)
    seat = Seat.objects.get(game=game, user=alice)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert deadlines_sweep()["bot_moved"] == 1
    move = Move.objects.get(game=game, seat=seat.seat)
    assert move.actor == "timeout"
    assert move.action == {"type": "pick", "number": number}


def test_a_resigned_players_seat_goes_to_the_tables_level(
    make_user: Callable[..., User], searchable: Any, quick_search: None
) -> None:
    game, alice, _bob = _two_people(make_user, "hard")
    page = Client()
    page.force_login(alice)
    assert page.post(f"/games/{game.pk}/resign/").status_code in (200, 302)
    handover = SeatHandover.objects.get(game=game)
    assert handover.bot_kind == "search"
    assert Seat.objects.get(game=game, user=alice).bot_kind == "search"
    assert Move.objects.filter(game=game, actor="bot").exists()  # and it played


def test_tables_opened_before_levels_keep_the_titles_stand_in(
    make_user: Callable[..., User], searchable: Any
) -> None:
    game, alice, _bob = _two_people(make_user, "")
    assert game.bot_kind == ""
    seat = Seat.objects.get(game=game, user=alice)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    deadlines_sweep()
    assert Move.objects.get(game=game, seat=seat.seat).action["number"] == 5  # high, the stand-in


# --- the hard bot's budget ---------------------------------------------------------------


def test_the_hard_bot_thinks_its_budget_and_the_sweep_may_give_it_less(
    make_user: Callable[..., User], searchable: Any, settings: Any, monkeypatch: Any
) -> None:
    """The search gets the setting's budget (it may stop sooner, once the rest of the budget
    could not change its move), or the less the sweep gives it."""
    from games.engine.bots import SearchBot

    budgets: list[float | None] = []
    search = SearchBot.search

    def spy(bot: SearchBot, *args: Any) -> Any:
        budgets.append(bot.seconds)
        return search(bot, *args)

    monkeypatch.setattr(SearchBot, "search", spy)
    settings.BOT_SEARCH_SECONDS = 0.4
    game, alice, bob = _two_people(make_user, "hard")
    seats = {s.user_id: int(s.seat) for s in Seat.objects.filter(game=game)}  # type: ignore[arg-type]
    assert (
        bot_play(game=game, seat=seats[alice.pk], kind="search", actor="timeout", client_id="t:1")
        == "moved"
    )
    assert budgets == [0.4]
    game.refresh_from_db()
    played = bot_play(
        game=game, seat=seats[bob.pk], kind="search", actor="timeout", client_id="t:2", seconds=0.01
    )
    assert played == "moved"
    assert budgets == [0.4, 0.01]


def test_the_budget_setting_stays_inside_the_bot_tasks_time_limit() -> None:
    """An operator who sets a budget the bot task could not hold is told at start-up."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from games.bots.tasks import bot_move

    root = Path(__file__).resolve().parents[2]
    for value in ("31", "0", "nan", "two"):
        env = {**os.environ, "BOT_SEARCH_SECONDS": value}
        run = subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.returncode != 0, value
        assert "BOT_SEARCH_SECONDS" in run.stderr, run.stderr[-500:]
    # Each bot move is a task of its own, so the longest budget fits twice in its limit.
    assert bot_move.soft_time_limit >= 2 * 30.0


# --- the Bots page and the ladder ---------------------------------------------------------


def _section(page: str, slug: str) -> str:
    """The Bots page's part for one title."""
    return page.split(f'id="bots-{slug}"', 1)[1].split("</section>", 1)[0]


def test_the_bots_page_lists_each_level_and_the_ladder_rates_them(
    make_user: Callable[..., User], searchable: Any, quick_search: None
) -> None:
    home = Client().get("/how-to-play/colorado-county/").content.decode()
    assert 'href="/bots/"' in home  # in the site's navigation
    page = _section(Client().get("/bots/").content.decode(), "tiny-duel")
    assert "Tiny duel" in page
    for words in ("Easy", "Medium", "Hard", "low bot", "high bot", "search (thinks ahead)"):
        assert words in page
    assert "Plays a legal move at random" in page
    assert "It thinks for about 0.05 seconds a move" in page
    assert page.count("not rated yet") == 3
    county = _section(Client().get("/bots/").content.decode(), "colorado-county")
    assert "Medium" in county
    assert "greedy (plays for points)" in county  # the title's own words for its bot

    out = StringIO()
    call_command("bot_ladder", games=2, title="tiny-duel", iterations=20, stdout=out)
    text = out.getvalue()
    assert "Bot ladder of Tiny duel" in text
    assert "A easy (low) v B medium (high)" in text
    ladder = Game.objects.filter(title="tiny-duel", status=Game.Status.FINISHED)
    assert ladder.count() == 6  # two games for each of the three pairs
    assert not Game.objects.exclude(status=Game.Status.FINISHED).exists()
    ratings = {r.user.username: r for r in Rating.objects.filter(game="tiny-duel")}
    assert {name: r.games for name, r in ratings.items()} == {
        "bot-low": 4,
        "bot-high": 4,
        "bot-search": 4,
    }
    assert RatingChange.objects.filter(game_obj__in=ladder).count() == 12
    # The low bot loses every game (medium picks 5; a tie scores nothing): it is last.
    assert ratings["bot-low"].display < ratings["bot-high"].display
    assert "bot-low" in text
    assert f"{ratings['bot-high'].display:.1f}" in text

    page = _section(Client().get("/bots/").content.decode(), "tiny-duel")
    assert "not rated yet" not in page
    assert f"{ratings['bot-high'].display:.1f}" in page
    board = Client().get("/leaderboard/tiny-duel/").content.decode()
    assert "Search bot" in board
    assert "Low bot" in board

    # Safe to re-run: the same N plays nothing; a larger N plays the difference.
    call_command("bot_ladder", games=2, title="tiny-duel", iterations=20, stdout=StringIO())
    assert Game.objects.filter(title="tiny-duel").count() == 6
    assert Rating.objects.get(user__username="bot-low", game="tiny-duel").games == 4
    call_command("bot_ladder", games=3, title="tiny-duel", iterations=20, stdout=StringIO())
    assert Game.objects.filter(title="tiny-duel", status=Game.Status.FINISHED).count() == 9
    assert Rating.objects.get(user__username="bot-low", game="tiny-duel").games == 6
