"""A finished game's record: its export (the seed and every move, for the fairness check)
and its replay, step by step from the published seed, as the table saw it (the public view
and the public events only). Callers check that the game is finished and may be watched."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import get_rules
from games.engine.replay import replay
from games.models import Game, Move, Seat
from games.records.sealed_moves import export_rows
from games.selectors.documents import _iso, _visible, seats_read
from games.selectors.log_words import describe
from games.titles import web_title


def game_export(*, game: Game) -> dict[str, Any]:
    """The replayable record of a FINISHED game (seed included). Callers check the status."""
    seats = seats_read(game)
    return {
        "id": game.pk,
        "game": game.title,
        "players": [
            {"seat": s.seat, "username": s.user.username, "is_bot": bool(s.bot_kind)} for s in seats
        ],
        "options": game.options,
        "seed": game.seed,
        "seed_hash": game.seed_hash,
        "moves": [
            {
                "version": m.version,
                "seat": m.seat,
                "action": m.action,
                "at": _iso(m.created_at),
                "actor": m.actor,
            }
            for m in Move.objects.filter(game=game).order_by("version")
        ],
        "result": game.result,
        # Each sealed move's salt and commitment (games.records.commitments), public now it is over.
        "sealed": export_rows(game),
    }


def _replay_states(game: Game) -> tuple[list[Move], list[Any], dict[int, str]]:
    """The finished game replayed from its published seed: its moves, the state before the
    first move and after each, and the seats' names."""
    names: dict[int, str] = {}
    for seat in Seat.objects.filter(game=game, seat__isnull=False).select_related("user"):
        if seat.seat is not None:  # always (the filter): the check tells the type checker
            names[seat.seat] = seat.user.shown_name
    log = list(
        Move.objects.filter(game=game).order_by("version").only("seat", "action", "events", "actor")
    )
    replayed = replay(
        game.title,
        seed=game.seed,
        num_players=game.num_players,
        options=game.options,
        moves=((m.seat, m.action) for m in log),
        keep_states=True,
    )
    return log, list(replayed.states), names


def replay_document(*, game: Game) -> dict[str, Any]:
    """A finished game replayed from its published seed, step by step: the PUBLIC view
    (``view(state, None)``) before the first move and after each move, with who moved,
    the log lines of that step, and the title's facts beside the board (face-up cards,
    revealed bids, scores: ``WebTitle.replay_facts``).

    What each step shows is what the table saw at that moment (docs/pages.md, "Replay"):
    the public view and the public events only (``visible_to`` "all"). A sealed bid shows
    at the step that reveals it, a hand never, although the game is over and its export
    (the moves, for the fairness check) is published."""

    engine = get_rules(game.title)
    title = web_title(game.title)
    log, states, by_seat = _replay_states(game)
    names = [by_seat.get(i, _("seat %(n)s") % {"n": i + 1}) for i in range(game.num_players)]

    def public_lines(events: Any, actor: str = "player") -> list[str]:
        lines = []
        for event in events or []:
            if isinstance(event, dict) and _visible(event, None):
                entry = {k: v for k, v in event.items() if k != "visible_to"}
                text = describe({**entry, "actor": actor}, names, None, title)
                if text:
                    lines.append(str(text))
        return lines

    def step(view: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {
            **extra,
            "view": view,
            "facts": [str(f) for f in title.replay_facts(view, names)],
        }

    start = engine.view(states[0], None)
    steps: list[dict[str, Any]] = [
        step(start, move=None, text=_("Start"), log=public_lines(game.setup_events))
    ]
    for move, state in zip(log, states[1:], strict=True):
        kind = move.action.get("type", "?") if isinstance(move.action, dict) else "?"
        who = by_seat.get(move.seat, _("seat %(n)s") % {"n": move.seat + 1})
        steps.append(
            step(
                engine.view(state, None),
                move=len(steps),
                seat=move.seat,
                type=kind,
                text=_("%(who)s: %(type)s") % {"who": who, "type": kind},
                log=public_lines(move.events, move.actor),
            )
        )
    server_board = title.replay_board(start, names) is not None
    return {
        "game": game.pk,
        "moves": len(steps) - 1,
        "names": names,
        "board": "server" if server_board else "client",
        "steps": steps,
    }


def replay_board(*, game: Game, step: int) -> str | None:
    """The board of replay step ``step`` drawn by the title on the server
    (``WebTitle.replay_board``; None when the title's script draws it or ``step`` is out
    of range). The replayed views are kept in the cache: a finished game never changes."""
    from django.core.cache import cache

    key = f"replay-views:{game.pk}:{game.version}:{game.seed_hash[:16]}"
    cached = cache.get(key)
    if cached is None:
        engine = get_rules(game.title)
        _log, states, by_seat = _replay_states(game)
        views = [engine.view(state, None) for state in states]
        names = [by_seat.get(i, str(i + 1)) for i in range(game.num_players)]
        cached = {"views": views, "names": names}
        cache.set(key, cached, 3600)
    views, names = cached["views"], cached["names"]
    if not 0 <= step < len(views):
        return None
    board = web_title(game.title).replay_board(views[step], names)
    return None if board is None else str(board)
