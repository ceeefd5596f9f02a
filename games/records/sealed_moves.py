"""The sealed moves' rows (``SealedMove``), written in the move's own transaction.

``seal`` runs for each accepted sealed action (``Rules.sealed_steps``): one more row in the
move's collected writes (``games.store.rows``), and the public commitment entry added to the
move's events, so every other seat receives the hash with the move, never the payload or
the salt. What changes earlier rows (a replaced sealed action, a reveal) is gathered in
``Pending`` and written by ``Pending.write`` once the move's writes are sent (the rows of
the same batch have no key before that): nothing for moves that neither reveal nor
replace.

Replacement is the title's word: a sealed move replaces its seat's earlier one at the
same step when one of its public events says ``"replaced": true`` for that seat (a bid
made again, say). Every other sealed move stands beside the earlier ones (a title may let
a seat make several at one step), and all are revealed by the step's reveal event.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.models import Game, SealedMove
from games.records.commitments import commitment, commitment_event, new_salt
from games.store import rows

SEALED_FIELDS = ("game", "version", "seat", "step", "payload", "salt", "commitment", "committed_at")


@dataclass
class Pending:
    """Replacements and reveals of one batch of moves, in their order."""

    replaced: list[tuple[int, str, int, datetime]] = field(default_factory=list)
    revealed: list[tuple[frozenset[str], int, datetime]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.replaced or self.revealed)

    def write(self, game: Game) -> None:
        """Each replacement and reveal, in order (after the batch's rows are sent): one
        ``UPDATE`` each, of the seat's or the steps' rows not yet replaced nor revealed."""
        column = functools.partial(rows.column_name, SealedMove)
        still_open = (
            f"{column('replaced_version')} IS NULL AND {column('revealed_version')} IS NULL"
        )
        for seat, step, version, at in self.replaced:
            rows.update_where(
                SealedMove,
                {"replaced_version": version, "replaced_at": at},
                f"{column('game')} = %s AND {column('seat')} = %s AND {column('step')} = %s "
                f"AND {column('version')} < %s AND {still_open}",
                [game.pk, seat, step, version],
            )
        for steps, version, at in self.revealed:
            marks = ", ".join(["%s"] * len(steps))
            rows.update_where(
                SealedMove,
                {"revealed_version": version, "revealed_at": at},
                f"{column('game')} = %s AND {column('step')} IN ({marks}) "
                f"AND {column('version')} <= %s AND {still_open}",
                [game.pk, *sorted(steps), version],
            )


def _replaces(events: list[Any], seat: int) -> bool:
    return any(
        isinstance(e, dict)
        and e.get("replaced") is True
        and e.get("seat") == seat
        and e.get("visible_to", "all") == "all"
        for e in events
    )


def seal(
    *,
    game: Game,
    sealed_steps: Mapping[str, str],
    seat: int,
    action: Any,
    version: int,
    at: datetime,
    events: list[Any],
    pending: Pending,
) -> None:
    """Record the move at ``version`` if it is sealed or reveals: its row and commitment
    entry (first in ``events``, which is the move's own fresh list), and what it changes
    in earlier rows into ``pending``."""
    kind = action.get("type") if isinstance(action, dict) else None
    if isinstance(kind, str) and kind in sealed_steps:
        step = kind
        salt = new_salt()
        digest = commitment(salt, action)
        row = SealedMove(
            game=game,
            version=version,
            seat=seat,
            step=step,
            payload=action,
            salt=salt,
            commitment=digest,
            committed_at=at,
        )
        rows.insert(row, SEALED_FIELDS)
        if _replaces(events, seat):
            pending.replaced.append((seat, step, version, at))
        events.insert(0, commitment_event(seat=seat, step=step, digest=digest))
    kinds = {e.get("type") for e in events if isinstance(e, dict)}
    steps = frozenset(s for s, reveal in sealed_steps.items() if reveal in kinds)
    if steps:
        pending.revealed.append((steps, version, at))


def export_rows(game: Game) -> list[dict[str, Any]]:
    """The sealed moves of a FINISHED game for its export (salts included)."""
    return [
        {
            "version": r.version,
            "seat": r.seat,
            "step": r.step,
            "payload": r.payload,
            "salt": r.salt,
            "commitment": r.commitment,
            "committed_at": r.committed_at.isoformat(),
            "replaced_version": r.replaced_version,
            "revealed_version": r.revealed_version,
            "revealed_at": r.revealed_at.isoformat() if r.revealed_at else None,
        }
        for r in SealedMove.objects.filter(game=game).order_by("version")
    ]
