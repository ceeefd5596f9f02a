"""Every title through the site: a whole game played through the services (people and
bots, documents, frames, the page) never changes a value the title hands out shared and
read-only; and the title's pages (rules, new-table form, game page, finished game with its
replay) speak every language with no English left over, which also proves the title's
catalogue complete."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import User
from games import moves
from games.bots.players import bot_choose
from games.engine import Rules, get_rules, register, unregister
from games.models import Game, Move
from games.selectors import documents as selectors
from games.store.state_cache import engine_for, load_state
from games.tables import lifecycle
from games.titles import web_title
from tests.conformance.playing import canonical, fingerprinted
from tests.i18n.english_left import LANGUAGES, english_left

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


class Fingerprinting:
    """A title's rules whose values declared shared (``Declaration.shared``) are logged
    with a deep copy taken as they are handed out; everything else is the title's own."""

    def __init__(self, inner: Rules) -> None:
        self._inner = inner
        self.given: list[tuple[Any, Any]] = []
        for name in inner.declaration.shared:
            setattr(self, name, fingerprinted(getattr(inner, name), self.given))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@pytest.fixture
def fingerprinting(slug: str) -> Iterator[Fingerprinting]:
    inner = get_rules(slug)
    proxy = Fingerprinting(inner)
    unregister(slug)
    register(proxy)  # type: ignore[arg-type]
    try:
        yield proxy
    finally:
        unregister(slug)
        register(inner)


def play_through_the_site(
    game: Game, person: User, client: Client, seed: str, *, like_bot: str | None = None
) -> Game:
    """The person plays random legal moves through the services (the bots answer through
    their eager task); the page is drawn now and then, as a player would see it. With
    ``like_bot`` (a bot kind), the person plays the moves that bot would choose instead: a
    whole game still, in the length people play it (random moves wander far longer)."""
    rng = random.Random(seed)  # noqa: S311
    for step in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        doc = selectors.game_document(game=game, user=person)
        if step % 7 == 0:
            assert client.get(f"/games/{game.pk}/").status_code == 200
        stuck = f"the table waits at version {doc['version']} with nobody able to move"
        assert doc["my_seat"] in doc["to_act"], stuck
        assert doc["legal_actions"], stuck
        action = (
            bot_choose(
                kind=like_bot,
                engine=engine_for(game),
                state=load_state(game),
                seat=doc["my_seat"],
                rng=rng,
            )
            if like_bot
            else rng.choice(doc["legal_actions"])
        )
        moves.action_submit(
            game_id=game.pk,
            user=person,
            action=action,
            version=doc["version"],
            client_id=f"conformance-{step}",
        )
    raise AssertionError("the game did not end")


def test_a_whole_game_through_the_site_never_changes_a_shared_value(
    slug: str, fingerprinting: Fingerprinting, make_user: Callable[..., User]
) -> None:
    rules = get_rules(slug)
    person = make_user()
    medium = rules.declaration.bot_levels["medium"]
    game = lifecycle.game_create(
        creator=person,
        title=slug,
        players=rules.max_players,
        bots=[medium] * (rules.max_players - 1),
    )
    client = Client()
    client.force_login(person)
    game = play_through_the_site(game, person, client, f"{slug}:site")
    assert game.status == Game.Status.FINISHED
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert_logs_hold_only_what_each_reader_may_see(game, person)
    changed = [given for given, copy in fingerprinting.given if canonical(given) != canonical(copy)]
    assert not changed, f"the site changed {len(changed)} value(s) {slug} shares read-only"
    if rules.declaration.shared:
        assert fingerprinting.given, "no shared value was handed out in a whole game"


def assert_logs_hold_only_what_each_reader_may_see(game: Game, person: User) -> None:
    """No line of the seated person's log, nor of a spectator's, is an event kept for
    other seats (``visible_to`` naming seats that are not theirs)."""
    seat = selectors.seat_for_user(game=game, user=person)
    assert seat is not None
    readers: list[tuple[Any, int | None]] = [(person, seat.seat), (AnonymousUser(), None)]
    for reader, number in readers:
        shown = {
            canonical({k: v for k, v in e.items() if k not in ("version", "at", "actor")})
            for e in selectors.game_log(game=game, user=reader, chat=False)
        }
        hidden = [
            canonical({k: v for k, v in event.items() if k != "visible_to"})
            for move in Move.objects.filter(game=game)
            for event in move.events
            if isinstance(event.get("visible_to"), list) and number not in event["visible_to"]
        ]
        leaked = [event for event in hidden if event in shown]
        assert not leaked, f"seat {number} reads events kept for others: {leaked[:2]}"


@pytest.fixture
def readers(make_user: Callable[..., User]) -> Callable[[str], User]:
    def make(language: str) -> User:
        return make_user(
            username=f"reader-{language}",
            email=f"reader-{language}@example.org",
            language=language,
            time_zone="Europe/Paris",
        )

    return make


def _page(user: User | None, path: str, language: str | None = None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = client.get(path, **headers)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def _tables(site_slug: str, reader: User) -> tuple[Game, Game]:
    """A running table of the reader and bots, and a finished one."""
    rules = get_rules(site_slug)
    bots = [rules.declaration.bot_levels["easy"]] * (rules.min_players - 1)
    running = lifecycle.game_create(
        creator=reader, title=site_slug, players=rules.min_players, bots=bots
    )
    finished = lifecycle.game_create(
        creator=reader, title=site_slug, players=rules.min_players, bots=bots
    )
    client = Client()
    client.force_login(reader)
    # Played as the medium bot would: the pages of a finished game, not random play's
    # length, are what this test reads (random play covers the shared-value test above).
    finished = play_through_the_site(
        finished,
        reader,
        client,
        f"{site_slug}:{reader.pk}",
        like_bot=rules.declaration.bot_levels["medium"],
    )
    return running, finished


def test_a_titles_pages_speak_every_language(
    site_slug: str, readers: Callable[[str], User]
) -> None:
    """Each language's reader, at tables of their own, reads the title's pages with no
    English left over, compared with the same pages an English reader reads. The English
    reader's tables are played once for the four languages (two whole games, not eight)."""
    english_reader = readers("en")
    web = web_title(site_slug)
    pages = [f"/games/new/?title={site_slug}"]
    if web.how_to_play_template:
        pages.append(f"/how-to-play/{site_slug}/")
    for index in (0, 1):  # the running game's page, the finished game's page and replay
        pages.append(f"/games/{{{index}}}/")
    english_tables = _tables(site_slug, english_reader)
    english_pages = {
        path: _page(english_reader, path.format(*(g.pk for g in english_tables))) for path in pages
    }
    # A replay step's board, where the server draws it (a fragment of the page).
    english_client = Client()
    english_client.force_login(english_reader)
    english_board = english_client.get(f"/games/{english_tables[1].pk}/replay/1/board/")
    problems: list[str] = []
    for language in LANGUAGES:
        reader = readers(language)
        names = [reader.username, english_reader.username]
        tables = _tables(site_slug, reader)
        for path in pages:
            translated = _page(reader, path.format(*(g.pk for g in tables)))
            if f'<html lang="{language}"' not in translated:
                problems.append(f"{site_slug} {path} in {language}: not <html lang={language}>")
            left = english_left(english_pages[path], translated, language=language, names=names)
            if left:
                problems.append(f"{site_slug} {path} in {language}: English left {left}")
        translated_client = Client()
        translated_client.force_login(reader)
        answer = translated_client.get(f"/games/{tables[1].pk}/replay/1/board/")
        if answer.status_code != english_board.status_code:
            problems.append(
                f"{site_slug} replay board in {language}: answered {answer.status_code}, "
                f"in English {english_board.status_code}"
            )
        elif answer.status_code == 200:
            left = english_left(
                english_board.content.decode(),
                answer.content.decode(),
                language=language,
                names=names,
            )
            if left:
                problems.append(f"{site_slug} replay board in {language}: English left {left}")
        elif answer.status_code != 404:  # 404: the title's script draws its replay board
            problems.append(f"{site_slug} replay board in {language}: {answer.status_code}")
    assert problems == [], "\n".join(problems)
