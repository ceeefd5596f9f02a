"""Live nudges for the lobby and the header's inbox count (``notifications.consumers``).

What changes a lobby or an inbox: a table opened, a seat taken or given up, a table that
starts, ends or is aborted, an invitation, a move that changes who is due. Receivers of
Django's signals and the move's after-commit effect (``inbox_nudge``, named in
``games.moves.effects``) send, once committed, one small message to the channel layer:

* ``lobby``: ``{"type": "lobby.changed"}`` to every lobby socket; each page then fetches
  the open tables it may see (``/games/open-tables/``), so an invitation-only table never
  crosses a socket it does not belong to;
* ``inbox-<user id>``: ``{"type": "inbox.changed"}`` to each socket of that user, which
  reads the user's count again (``games.selectors.inbox.inbox_count``).

A nudge lost with the channel layer costs nothing lasting: the sockets also re-read every
``LIVE_POLL_SECONDS`` and the pages are right on every load.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from colorado.realtime import group_send
from games.live.broadcast import group_name
from games.models import Game, Invitation, Seat
from games.moves.result import MoveResult

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def inbox_group(user_id: int) -> str:
    return f"inbox-{int(user_id)}"


def _send(groups: list[str], message: dict[str, Any]) -> None:
    for group in groups:
        try:
            group_send(group, message)
        except Exception as exc:  # committed already; the sockets' poll catches up
            log.warning("live nudge to %s failed: %s", group, exc)


def nudge_inbox(user_ids: set[int] | list[int]) -> None:
    """On commit, tell these users' sockets that their inbox may have changed."""
    groups = [inbox_group(uid) for uid in sorted(set(user_ids))]
    if groups:
        transaction.on_commit(lambda: _send(groups, {"type": "inbox.changed"}), robust=True)


def _people_at(game_id: int) -> set[int]:

    seated = Seat.objects.filter(game_id=game_id, bot_kind="").values_list("user_id", flat=True)
    invited = Invitation.objects.filter(game_id=game_id).values_list("user_id", flat=True)
    return set(seated) | set(invited)


def _game_and_people_later(game_id: int, *, open_table: bool) -> None:
    """On commit: nudge the lobby (when an open table changed) and the inbox of everyone
    seated at or invited to the game (read after the commit, so the invitations written
    after the table's row are there)."""

    def later() -> None:
        groups = [inbox_group(uid) for uid in sorted(_people_at(game_id))]
        if open_table:
            groups.append(LOBBY_GROUP)
        for group in groups:
            kind = "lobby.changed" if group == LOBBY_GROUP else "inbox.changed"
            _send([group], {"type": kind})

    transaction.on_commit(later, robust=True)


def on_game_saved(sender: Any, *, instance: Any, created: bool, **kwargs: Any) -> None:
    """A table opened, or its status changed (started, aborted); moves write the row with
    plain SQL and come through ``inbox_nudge`` instead."""
    fields = kwargs.get("update_fields")
    if not created and (fields is None or "status" not in fields):
        return
    _game_and_people_later(int(instance.pk), open_table=True)


def on_seat_changed(sender: Any, *, instance: Any, **kwargs: Any) -> None:
    """A seat taken (created) or given up (deleted) at an open table; also tells the sockets
    of the table's own page (the game socket's ``game.update`` with ``refresh``: the
    version of an open table stays 0)."""
    if kwargs.get("created") is False:
        return
    game_id = int(instance.game_id)

    def later() -> None:

        status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
        if status == Game.Status.OPEN:
            _send(
                [group_name(game_id)],
                {"type": "game.update", "game_id": game_id, "version": 0, "refresh": True},
            )

    transaction.on_commit(later, robust=True)
    _game_and_people_later(game_id, open_table=True)


def inbox_nudge(result: MoveResult) -> None:
    """After a move's (or the start's) commit: the inbox count of the people whose seats
    came in or left the seats due, and of everyone at the table when the game ended."""
    changed: set[int] = set()
    for advance in result.advances:
        changed |= set(advance.previous_to_act) ^ set(advance.to_act)
        if advance.move is not None and advance.move.seat in advance.to_act:
            changed.add(advance.move.seat)
    users = {s.user_id for s in result.seats if s.seat in changed and not s.bot_kind}
    if result.finished:
        users |= _people_at(int(result.game.pk))
    groups = [inbox_group(uid) for uid in sorted(users)]
    if groups:
        _send(groups, {"type": "inbox.changed"})
