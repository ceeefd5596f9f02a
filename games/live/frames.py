"""The frames of the game sockets: each seat's (and the spectators') frame after a move,
built once from what the move's transaction holds in memory, and a frame from a document.
The filtering is the documents' and the log's (``games.selectors.documents``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import views as engine_views
from games.models import Game, Move, Seat
from games.selectors.documents import (
    _document,
    _entry,
    _seats,
    _visible,
    game_summary,
    viewing_seat,
)
from games.store import jsontext
from games.store.state_cache import engine_for, load_state

#: The keys of a socket frame (``{"type": "game", …}``), taken from the game document.
FRAME_KEYS = ("version", "status", "my_seat", "seats", "view", "legal_actions", "to_act", "result")


def socket_frame(doc: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The WebSocket frame built from a game document and the log entries it adds."""
    return {"type": "game", **{k: doc[k] for k in FRAME_KEYS}, "events": events}


def move_frames(
    *, game: Game, moves: Sequence[Move], state: Any, seats: list[Seat] | None = None
) -> dict[int | None, dict[str, Any]]:
    """The socket frame of every seat (``move_frames_and_documents``)."""
    frames, _documents = move_frames_and_documents(game=game, seats=seats, moves=moves, state=state)
    return frames


def move_frames_and_documents(
    *, game: Game, seats: list[Seat] | None, moves: Sequence[Move], state: Any
) -> tuple[dict[int | None, dict[str, Any]], dict[int | None, dict[str, Any]]]:
    """The socket frame of every seat (by seat number) and of spectators (``None``) right
    after ``moves`` (one move, or a batch of them in order: the frame carries the events
    of each), built from what the move's transaction holds in memory (game, seats with
    their users, the new state): no query. Each frame carries only what
    ``game_document``/``game_log`` give that seat; each socket passes on its own seat's.
    With them, the document each frame was built from (the mover's answer is one)."""
    seats = _seats(game, seats)
    summary = game_summary(game=game, seats=seats)
    frames: dict[int | None, dict[str, Any]] = {}
    documents: dict[int | None, dict[str, Any]] = {}
    holders = [*(s for s in seats if s.seat is not None), None]
    numbers = [mine.seat if mine is not None else None for mine in holders]
    views: dict[int | None, dict[str, Any]] = {}
    if game.state is not None:  # every seat's view at once: the public part built once
        state = state if state is not None else load_state(game)
        views = engine_views(engine_for(game), state, numbers)
    for mine, number in zip(holders, numbers, strict=True):
        sees = viewing_seat(mine)  # a seat its person left: the spectators' view and events
        events = [
            _entry(e, version=move.version, at=move.created_at, actor=move.actor)
            for move in moves
            for e in move.events
            if _visible(e, sees)
        ]
        documents[number] = _document(game, seats, mine, state, summary, views.get(sees))
        frames[number] = socket_frame(documents[number], events)
    return frames, documents


def frames_json(frames: dict[int | None, dict[str, Any]]) -> dict[int | None, str]:
    """Each of ``move_frames``' frames as JSON text (``games.store.jsontext``): decoded, each text
    is exactly its frame. (Each frame is encoded whole: with ``orjson`` that is cheaper than
    comparing the seats' members with the spectators' to encode the shared ones once.)"""
    return {number: jsontext.dumps(frame) for number, frame in frames.items()}
