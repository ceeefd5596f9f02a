"""Commitments to sealed moves: the recipe, and its check on a finished game's export.

A sealed action (``Rules.sealed_steps``) is stored with a random salt and its commitment

    commitment = sha256(salt + canonical_json(payload)).hexdigest()

where ``salt`` is 32 lowercase hexadecimal characters (16 random bytes), ``payload`` is the
action exactly as the move log keeps it, and ``canonical_json`` is ``json.dumps`` with
sorted keys, no spaces (``separators=(",", ":")``) and ASCII escapes (``ensure_ascii``),
encoded as UTF-8. Every other seat receives the commitment with the move (a public
``sealed_commitment`` log entry); the salt and the payload stay on the server until the
game is over, when the export publishes them (docs/fairness.md).

Pure: no database, so ``games.records.fairness`` and ``manage.py verify_game`` check an export
anywhere.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

#: The log entry that carries a sealed move's commitment to every seat.
COMMITMENT_EVENT = "sealed_commitment"


def new_salt() -> str:
    return secrets.token_hex(16)


def canonical_json(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment(salt: str, payload: Any) -> str:
    return hashlib.sha256((salt + canonical_json(payload)).encode("utf-8")).hexdigest()


def commitment_event(*, seat: int, step: str, digest: str) -> dict[str, Any]:
    """The public entry of a sealed move: who sealed which step, and the hash only."""
    return {
        "type": COMMITMENT_EVENT,
        "visible_to": "all",
        "seat": seat,
        "step": step,
        "commitment": digest,
    }


@dataclass(frozen=True)
class SealedCheck:
    """One sealed move of an export, checked: ``ok`` and why not."""

    version: Any
    seat: Any
    step: Any
    commitment: Any
    salt: Any
    payload: str
    revealed_version: Any
    replaced_version: Any
    ok: bool
    detail: str


_KEYS = ("version", "seat", "step", "payload", "salt", "commitment")


def _by_version(moves: Sequence[Any]) -> dict[Any, Any]:
    """The export's moves by the game's version each made: its ``version`` if it has one,
    else its place (the first move makes version 2: version 1 is the setup)."""
    return {
        (m.get("version") if isinstance(m, Mapping) and "version" in m else index): m
        for index, m in enumerate(moves, start=2)
    }


def _problem(entry: Mapping[str, Any], moves: Mapping[Any, Any]) -> str | None:
    """Why one sealed entry of an export does not prove its move, or None."""
    if any(k not in entry for k in _KEYS) or not all(
        isinstance(entry[k], str) for k in ("salt", "commitment", "step")
    ):
        return _("the entry lacks its version, seat, step, payload, salt or commitment.")
    if commitment(entry["salt"], entry["payload"]) != entry["commitment"].lower():
        return _("sha256(salt + payload) does not match the commitment shown during play.")
    version = entry["version"]
    move = moves.get(version) if isinstance(version, int) else None
    if move is None:
        return _("it names a move that is not in the log.")
    if not isinstance(move, Mapping) or canonical_json(move.get("action")) != canonical_json(
        entry["payload"]
    ):
        return _("the move log holds another action at that move.")
    if move.get("seat") != entry["seat"]:
        return _("the move log holds another seat's move at that move.")
    revealed = entry.get("revealed_version")
    if revealed is not None and (not isinstance(revealed, int) or revealed < version):
        return _("it was revealed before it was committed.")
    return None


def check_sealed(
    entries: Any, moves: Sequence[Any], sealed_steps: Mapping[str, str]
) -> list[SealedCheck]:
    """Each sealed entry of an export checked against its commitment and the move log, then
    one failed row for each sealed move of the log (from the first committed one on) that
    has no entry."""
    if not isinstance(entries, list):
        return [_row({}, False, _("sealed must be a list."))]
    by_version = _by_version(moves)
    out: list[SealedCheck] = []
    listed: set[Any] = set()
    for entry in entries:
        if not isinstance(entry, Mapping):
            out.append(_row({}, False, _("a sealed entry is not an object.")))
            continue
        listed.add(entry.get("version"))
        problem = _problem(entry, by_version)
        out.append(_row(entry, problem is None, problem or _("matches its commitment.")))
    first = min((v for v in listed if isinstance(v, int)), default=None)
    if first is not None:
        for version, move in by_version.items():
            action = move.get("action") if isinstance(move, Mapping) else None
            kind = action.get("type") if isinstance(action, Mapping) else None
            if (
                isinstance(version, int)
                and version > first
                and kind in sealed_steps
                and version not in listed
            ):
                row = {"version": version, "seat": move.get("seat"), "step": kind}
                out.append(_row(row, False, _("this sealed move has no commitment.")))
    return out


def _row(entry: Mapping[str, Any], ok: bool, detail: str) -> SealedCheck:
    return SealedCheck(
        version=entry.get("version"),
        seat=entry.get("seat"),
        step=entry.get("step"),
        commitment=entry.get("commitment"),
        salt=entry.get("salt"),
        payload=canonical_json(entry["payload"]) if "payload" in entry else "",
        revealed_version=entry.get("revealed_version"),
        replaced_version=entry.get("replaced_version"),
        ok=ok,
        detail=str(detail),
    )
