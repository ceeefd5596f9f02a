"""The pages: lobby, new table, game page for players and spectators, forms and their errors.

Everything goes through the real services, selectors and engine on PostgreSQL; bots move
through the eager Celery task (tests/games/conftest.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import ChatMessage, Game, Seat
from games.selectors import documents
from games.tables import lifecycle
from tests.games.fixtures import invited_pair
from tests.play import mover, play_randomly

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def client_for(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


def page_data(response: Any) -> dict[str, Any]:
    """The JSON the game page hands to its script (``json_script`` id ``game-data``)."""
    html = response.content.decode()
    m = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the game page carries its data for the script"
    return json.loads(m.group(1))


# --- lobby and new table ---------------------------------------------------------------


def test_home_is_the_welcome_page_when_signed_out(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Sign in to play" in response.content.decode()


def test_home_is_the_lobby_when_signed_in(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = invited_pair(make_user, "alice", "bob")
    carol = make_user("carol")
    lifecycle.game_create(creator=carol, players=3)  # an open table alice may join
    html = client_for(alice).get("/").content.decode()
    assert "Lobby" in html
    assert "New table" in html
    assert f"/games/{game.pk}/" in html
    assert "Open tables" in html
    assert "carol" in html
    to_act = documents.game_document(game=game, user=alice)["to_act"]
    alice_seat = Seat.objects.get(game=game, user=alice).seat
    assert ("your turn" in html) == (alice_seat in to_act)


def test_new_table_against_a_greedy_bot_starts_and_shows_the_board(
    make_user: Callable[..., User],
) -> None:
    alice = make_user("alice")
    c = client_for(alice)
    response = c.post(
        "/games/new/",
        {
            "players": "2",
            "lakes": "first-game",
            "flags": "players",
            "clock": "fast",
            "on_timeout": "bot",
            "rated": "on",
            "open_seats": "on",
            "invite": "",
            "bots": "1",
            "bot_kind": "greedy",
        },
    )
    game = Game.objects.get(created_by=alice)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.RUNNING
    assert Seat.objects.filter(game=game, bot_kind="greedy").count() == 1
    page = c.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert html.count("data-cell=") == 150
    assert 'data-cell="A1"' in html
    assert 'data-cell="O10"' in html
    data = page_data(page)
    assert data["my_seat"] is not None
    assert len(data["view"]["hand"]) >= 15 - 2


def test_custom_clock_and_options_reach_the_table(make_user: Callable[..., User]) -> None:
    alice = make_user("alice")
    make_user("bob")
    client_for(alice).post(
        "/games/new/",
        {
            "players": "3",
            "lakes": "random",
            "flags": "random",
            "clock": "custom",
            "initial_hours": "2",
            "increment_hours": "0.5",
            "max_hours": "4",
            "on_timeout": "wait",
            "invite": "bob",
            "bots": "0",
            "bot_kind": "greedy",
        },
    )
    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.OPEN
    assert game.options == {"lakes": "random", "flags": "random"}
    assert game.clock_initial_seconds == 7200
    assert game.clock_increment_seconds == 1800
    assert game.on_timeout == "wait"
    assert game.rated is False
    assert game.open_seats is False
    assert list(game.invitations.values_list("user__username", flat=True)) == ["bob"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": "2", "bots": "2"}, "do not fit"),
        ({"players": "2", "bots": "0", "invite": "nobody-here"}, "not a player of this site"),
        ({"players": "9", "bots": "0"}, "Select a valid choice"),
        ({"players": "2", "bots": "1", "clock": "custom"}, "custom clock"),
    ],
)
def test_new_table_errors_are_shown_and_nothing_is_created(
    make_user: Callable[..., User], fields: dict[str, str], message: str
) -> None:
    alice = make_user("alice")
    data = {
        "lakes": "first-game",
        "flags": "players",
        "clock": "normal",
        "on_timeout": "bot",
        "bot_kind": "greedy",
        **fields,
    }
    response = client_for(alice).post("/games/new/", data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_pages_refuse_posts_without_a_csrf_token(make_user: Callable[..., User]) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    version = game.version
    assert c.post("/games/new/", {"players": "2", "bots": "1"}).status_code == 403
    assert c.post(f"/games/{game.pk}/chat/", {"text": "hi"}).status_code == 403
    user, doc = mover(game, alice, bob)
    c.force_login(user)
    action = doc["legal_actions"][0]
    assert (
        c.post(
            f"/games/{game.pk}/act/",
            {"kind": "place_flag", "colour": action["colour"], "cell": action["cell"]},
        ).status_code
        == 403
    )
    game.refresh_from_db()
    assert game.version == version
    assert Game.objects.count() == 1
    assert not ChatMessage.objects.exists()


def test_lobby_and_new_table_need_a_sign_in(client: Client) -> None:
    assert client.get("/games/").status_code == 302
    assert client.post("/games/new/", {"players": "2"}).status_code == 302
    assert not Game.objects.exists()


# --- the game page -----------------------------------------------------------------------


def test_page_load_marks_the_version_seen(make_user: Callable[..., User]) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    client_for(alice).get(f"/games/{game.pk}/")
    game.refresh_from_db()
    assert Seat.objects.get(game=game, user=alice).last_seen_version == game.version
    assert Seat.objects.get(game=game, user=bob).last_seen_version < game.version


def test_spectators_get_the_public_view_and_no_one_elses_cowboys(
    make_user: Callable[..., User],
) -> None:
    # A public table: anyone may watch (an invitation-only one is for its players only).
    game, (alice, bob) = invited_pair(make_user, "alice", "bob", open_seats=True)
    carol = make_user("carol")
    alice_hand = documents.game_document(game=game, user=alice)["view"]["hand"]
    bob_hand = documents.game_document(game=game, user=bob)["view"]["hand"]
    for viewer, hidden in ((carol, alice_hand + bob_hand), (bob, alice_hand)):
        response = client_for(viewer).get(f"/games/{game.pk}/")
        assert response.status_code == 200
        data = page_data(response)
        html = response.content.decode()
        if viewer == carol:
            assert data["my_seat"] is None
            assert "hand" not in data["view"]
            assert data["legal_actions"] == []
            assert "You are watching" in html
            assert 'id="chat-text"' not in html
        # The starting hand of another seat never appears, neither listed nor in the log.
        assert "Your starting cowboys: " + ", ".join(map(str, hidden)) not in html
        assert ", ".join(map(str, hidden[:5])) not in html


def test_anonymous_visitors_watch_open_tables_only(
    client: Client, make_user: Callable[..., User]
) -> None:
    private, (_alice, _bob) = invited_pair(make_user, "alice", "bob")  # invitation only
    carol = make_user("carol")
    public = lifecycle.game_create(creator=carol, players=2, bots=["greedy"])
    assert client.get(f"/games/{public.pk}/").status_code == 200
    response = client.get(f"/games/{private.pk}/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert client.get("/games/999999/").status_code == 404


def test_a_move_by_form_is_applied_and_redirects(make_user: Callable[..., User]) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    user, doc = mover(game, alice, bob)
    action = doc["legal_actions"][0]
    assert action["type"] == "place_flag"
    response = client_for(user).post(
        f"/games/{game.pk}/act/",
        {
            "kind": "place_flag",
            "colour": action["colour"],
            "cell": action["cell"],
            "version": doc["version"],
        },
    )
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.version == doc["version"] + 1
    view = documents.game_document(game=game, user=user)["view"]
    assert view["board"]["cells"][action["cell"]] == {"flag": action["colour"]}
    page = client_for(user).get(f"/games/{game.pk}/").content.decode()
    assert f"placed a {action['colour']} flag on {action['cell']}" in page


def test_an_illegal_move_shows_the_reason_and_changes_nothing(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    user, doc = mover(game, alice, bob)
    colour = doc["legal_actions"][0]["colour"]
    c = client_for(user)
    response = c.post(
        f"/games/{game.pk}/act/",
        {"kind": "place_flag", "colour": colour, "cell": "C4"},
        follow=True,
    )  # C4 is under a lake in the first-game layout
    game.refresh_from_db()
    assert game.version == doc["version"]
    html = response.content.decode()
    assert 'class="message error"' in html
    # The same through the script: a JSON error with the engine's code.
    answer = c.post(
        f"/games/{game.pk}/act/",
        {"kind": "place_flag", "colour": colour, "cell": "C4"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 422
    assert answer.json()["code"]
    malformed = c.post(
        f"/games/{game.pk}/act/",
        {"kind": "place_flag", "colour": colour, "cell": "Z99"},
        headers={"Accept": "application/json"},
    )
    assert malformed.status_code == 400
    assert "like C4" in malformed.json()["message"]
    assert c.post(f"/games/{game.pk}/act/", {"kind": "fly"}).status_code == 302
    game.refresh_from_db()
    assert game.version == doc["version"]


def test_only_players_may_move(make_user: Callable[..., User], client: Client) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    carol = make_user("carol")
    _user, doc = mover(game, alice, bob)
    action = doc["legal_actions"][0]
    fields = {"kind": "place_flag", "colour": action["colour"], "cell": action["cell"]}
    answer = client_for(carol).post(
        f"/games/{game.pk}/act/", fields, headers={"Accept": "application/json"}
    )
    assert answer.status_code == 403
    assert client.post(f"/games/{game.pk}/act/", fields).status_code == 302  # to the page
    game.refresh_from_db()
    assert game.version == doc["version"]


def play_flags(game: Game, users: tuple[User, ...]) -> None:
    """Place flags through the page form until the bidding starts."""
    for _ in range(20):
        game.refresh_from_db()
        doc = documents.game_document(game=game, user=users[0])
        if doc["view"]["phase"] != "flags":
            return
        user, doc = mover(game, *users)
        a = doc["legal_actions"][0]
        client_for(user).post(
            f"/games/{game.pk}/act/",
            {"kind": "place_flag", "choice": f"{a['colour']}|{a['cell']}"},
        )
    raise AssertionError("flag placement did not end")


def test_bids_claims_and_preview_through_the_forms(make_user: Callable[..., User]) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    play_flags(game, (alice, bob))
    hands = {}
    for user in (alice, bob):
        doc = documents.game_document(game=game, user=user)
        assert doc["view"]["phase"] == "bid"
        hands[user.username] = doc["view"]["hand"]
    c_alice, c_bob = client_for(alice), client_for(bob)
    # Alice bids her two highest cowboys; the page shows her sealed bid to her alone.
    bid = sorted(hands["alice"])[-2:]
    c_alice.post(f"/games/{game.pk}/act/", {"kind": "bid", "cowboys": [str(n) for n in bid]})
    mine = c_alice.get(f"/games/{game.pk}/").content.decode()
    assert f"Your sealed bid: {bid[0]}, {bid[1]}." in mine
    theirs = c_bob.get(f"/games/{game.pk}/").content.decode()
    assert f"{bid[0]}, {bid[1]}" not in theirs
    assert "has bid" in theirs
    # Bob bids one cowboy: the bids are revealed and Alice (two cowboys) claims first.
    c_bob.post(f"/games/{game.pk}/act/", {"kind": "bid", "cowboys": [str(hands["bob"][0])]})
    game.refresh_from_db()
    doc = documents.game_document(game=game, user=alice)
    assert doc["view"]["phase"] == "claim"
    assert doc["view"]["claimer"] == doc["my_seat"]
    claim = next(a for a in doc["legal_actions"] if a["type"] == "claim")
    # The preview answers the claimer only.
    query = f"/games/{game.pk}/query/claim_preview/"
    preview = c_alice.get(query, {"card": claim["card"]})
    assert preview.status_code == 200
    rows = preview.json()["answer"]
    assert {(r["flag"], r["second"]) for r in rows} == {
        (a["flag"], a["second"])
        for a in doc["legal_actions"]
        if a["type"] == "claim" and a["card"] == claim["card"]
    }
    me = doc["my_seat"]
    assert all(r["after"][me]["total"] >= 0 and len(r["before"]) == 2 for r in rows)
    assert c_bob.get(query, {"card": claim["card"]}).status_code == 403
    assert c_alice.get(query, {"card": "nope"}).status_code == 403
    unknown = c_alice.get(f"/games/{game.pk}/query/no_such_query/")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_query")
    # Claim through the no-script select value.
    choice = f"{claim['card']}|{claim['flag']}|{claim['second'] or ''}"
    c_alice.post(f"/games/{game.pk}/act/", {"kind": "claim", "choice": choice})
    game.refresh_from_db()
    cells = documents.game_document(game=game, user=alice)["view"]["board"]["cells"]
    assert cells[claim["flag"]] == {"marker": me}
    if claim["second"]:
        assert cells[claim["second"]] == {"marker": me}
    log = c_bob.get(f"/games/{game.pk}/").content.decode()
    assert f"alice bid 2 cowboys: {bid[0]}, {bid[1]} — first choice" in log
    assert f"staked {claim['flag']}" in log


def test_chat_is_for_players_and_errors_are_shown(make_user: Callable[..., User]) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    carol = make_user("carol")
    c = client_for(alice)
    assert c.post(f"/games/{game.pk}/chat/", {"text": "Howdy, Bob"}).status_code == 302
    assert "Howdy, Bob" in client_for(bob).get(f"/games/{game.pk}/").content.decode()
    page = c.post(f"/games/{game.pk}/chat/", {"text": "   "}, follow=True).content.decode()
    assert "500 characters" in page
    page = (
        client_for(carol)
        .post(f"/games/{game.pk}/chat/", {"text": "let me in"}, follow=True)
        .content.decode()
    )
    assert "Only the players can chat" in page
    assert ChatMessage.objects.count() == 1


def test_join_and_leave_an_open_table(make_user: Callable[..., User]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = lifecycle.game_create(creator=alice, players=3)
    c = client_for(bob)
    assert "Take a seat" in c.get(f"/games/{game.pk}/").content.decode()
    c.post(f"/games/{game.pk}/join/")
    assert Seat.objects.filter(game=game, user=bob).exists()
    assert "Leave the table" in c.get(f"/games/{game.pk}/").content.decode()
    c.post(f"/games/{game.pk}/leave/")
    assert not Seat.objects.filter(game=game, user=bob).exists()
    # Leaving twice is refused with a message, not a 500.
    page = c.post(f"/games/{game.pk}/leave/", follow=True).content.decode()
    assert "not seated" in page


def test_resign_hands_the_seat_to_a_bot(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = invited_pair(make_user, "alice", "bob")
    client_for(alice).post(f"/games/{game.pk}/resign/")
    seat = Seat.objects.get(game=game, user=alice)
    assert seat.resigned
    assert seat.bot_kind


def test_finished_game_shows_final_scores_and_the_after_game_block(
    make_user: Callable[..., User],
) -> None:
    game, (alice, bob) = invited_pair(make_user, "alice", "bob")
    game = play_randomly(game, [alice, bob], seed=3)
    assert game.status == Game.Status.FINISHED
    html = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert "Final scores" in html
    assert 'id="after-game"' in html
    scores = game.result["scores"]
    for seat in Seat.objects.filter(game=game).select_related("user"):
        assert f"<strong>{seat.user.username}</strong> — {scores[seat.seat]} points" in html
    assert "winner" in html


def test_panels_fragment_matches_the_page(make_user: Callable[..., User]) -> None:
    game, (alice, _bob) = invited_pair(make_user, "alice", "bob")
    html = client_for(alice).get(f"/games/{game.pk}/panels/").content.decode()
    for block in ('id="act-panel"', 'id="side-panel"', 'id="chat-list"'):
        assert block in html
    assert "<html" not in html


def test_how_to_play_page(client: Client) -> None:
    html = client.get("/how-to-play/colorado-county/").content.decode()
    assert "How to play Colorado County" in html
    assert "Sealed bids" in html


def test_the_headers_how_to_play_lists_every_title(client: Client) -> None:
    """Issue 43, trial item 7: the header's "How to play" is a page of every title's rules."""
    html = client.get("/how-to-play/").content.decode()
    assert 'href="/how-to-play/colorado-county/"' in html
    assert 'href="/how-to-play/la-conquista-del-oeste/"' in html
    assert "Sealed bids" not in html  # not one title's rules


def test_the_new_table_form_says_rated_without_a_stray_colon_and_lists_rules_apart(
    make_user: Callable[..., User],
) -> None:
    """Issue 43, trial item 7: "Rated" with no colon after its box; the lobby's two rules
    links are separate items; the bot level takes the form's whole width (game.css)."""
    html = client_for(make_user()).get("/games/").content.decode()
    assert '<label for="id_rated">Rated</label>' in html
    assert "Rated:" not in html
    rules = html.split('<ul class="rules-list">', 1)[1].split("</ul>", 1)[0]
    assert rules.count("<li>") == rules.count("How to play") >= 2
    css = (Path(__file__).resolve().parents[2] / "static/css/game.css").read_text()
    assert ".form-grid .field-bot_kind { grid-column: 1 / -1; }" in css


def test_the_players_card_is_headed_players_in_japanese(make_user: Callable[..., User]) -> None:
    """Issue 43, trial item 6: the players card's heading is "プレイヤー" (the players), not
    "プレイヤー数" (the number of players, the new-table form's field)."""
    alice, bob = make_user(language="ja"), make_user()
    game = lifecycle.game_create(creator=alice, players=2, invite=[bob.username], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    html = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert '<h2 id="players-h">プレイヤー</h2>' in html


def test_the_new_table_form_says_plainly_who_may_sit_and_watch(
    make_user: Callable[..., User],
) -> None:
    """Issue 43, trial item 9: unticking "anyone may take a free seat" also hid the table
    from everyone else, which the label did not say."""
    html = client_for(make_user()).get("/games/new/").content.decode()
    assert "Public table: anyone may take a free seat or watch" in html
    assert "Unticked, the table is private: only its players and the people you invite" in html
