"""Fairness proof: replay a finished game's export and check every draw and move.

The seed of a game is secret while it runs; only its SHA-256 (``seed_hash``) is public from
the start. When the game ends the export publishes the seed, so anyone can check that

1. ``sha256(seed) == seed_hash`` (the seed is the one committed to at the start),
2. every move in the log was legal when it was made (replayed with the rules engine from
   that seed, so every shuffle and draw is the seeded one), and
3. the replay ends the game with exactly the published result, and
4. every sealed move (``sealed``: its salt, payload and commitment) matches the commitment
   every other seat received when it was made, before its reveal (``games.records.commitments``).

``verify_export`` is pure (no database) and never raises for bad input: a malformed export
gets a failed verdict saying what is wrong. It is shared by ``manage.py verify_game`` and the
finished-game page's "verify" view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.engine import final_ranks, get_rules
from games.engine.replay import MoveRefused, replay
from games.records.commitments import SealedCheck, check_sealed


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Verdict:
    """``ok`` only if every check passed; ``checks`` lists them in order."""

    checks: list[Check] = field(default_factory=list)
    moves_replayed: int = 0
    scores: list[int] | None = None
    sealed: list[SealedCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    @property
    def summary(self) -> str:
        if self.ok:
            return _(
                "Fair: the seed matches its commitment, all %(n)s moves are legal and the "
                "replay gives the published result."
            ) % {"n": self.moves_replayed}
        failed = next(check for check in self.checks if not check.ok)
        return _("Not verified: %(detail)s") % {"detail": failed.detail}

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "summary": self.summary,
            "moves_replayed": self.moves_replayed,
            "scores": self.scores,
            "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
            "sealed": [vars(row) for row in self.sealed],
        }

    def _pass(self, name: str, detail: str) -> None:
        self.checks.append(Check(name, True, detail))

    def _fail(self, name: str, detail: str) -> Verdict:
        self.checks.append(Check(name, False, detail))
        return self


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _format_problem(data: Any) -> str | None:
    """What makes ``data`` unreadable as an export, or None."""
    if not isinstance(data, Mapping):
        return _("the export is not a JSON object.")
    missing = [
        k for k in ("game", "players", "seed", "seed_hash", "moves", "result") if k not in data
    ]
    if missing:
        return _("the export lacks %(keys)s.") % {"keys": ", ".join(missing)}
    if not isinstance(data["seed"], str) or not data["seed"]:
        return _("the seed is missing: exports of running games hide it.")
    if not isinstance(data["seed_hash"], str):
        return _("seed_hash must be a string.")
    if not isinstance(data["players"], list) or not isinstance(data["moves"], list):
        return _("players and moves must be lists.")
    result = data["result"]
    if not isinstance(result, Mapping) or not isinstance(result.get("scores"), list):
        return _("result must hold the final scores.")
    if not isinstance(data.get("options") or {}, Mapping):
        return _("options must be an object.")
    return None


class _BadMove(Exception):
    """A move of the export that is not even a move (its shape, its seat)."""


def _pairs(moves: list[Any], seats: int) -> Iterator[tuple[int, Any]]:
    """The export's moves as ``(seat, action)`` for ``replay``, checked for shape first."""
    for number, move in enumerate(moves, start=1):
        if not isinstance(move, Mapping) or not _is_int(move.get("seat")) or "action" not in move:
            raise _BadMove(_("move %(n)s is not {seat, action, at}.") % {"n": number})
        if not 0 <= move["seat"] < seats:
            raise _BadMove(
                _("move %(n)s is by seat %(seat)s, who is not at the table.")
                % {"n": number, "seat": move["seat"]}
            )
        yield move["seat"], move["action"]


def verify_export(data: Any) -> Verdict:
    """Check an export (docs/api.md, ``GET /api/games/{id}/export``) by replaying it."""
    verdict = Verdict()
    problem = _format_problem(data)
    if problem is not None:
        return verdict._fail("format", problem)
    seed, players, moves, result = data["seed"], data["players"], data["moves"], data["result"]

    digest = hashlib.sha256(seed.encode()).hexdigest()
    if digest != data["seed_hash"].lower():
        return verdict._fail(
            "seed",
            _("sha256(seed) is %(digest)s, but the game committed to %(hash)s.")
            % {"digest": digest, "hash": data["seed_hash"]},
        )
    verdict._pass(
        "seed", _("sha256(seed) equals the committed seed_hash %(hash)s.") % {"hash": digest}
    )

    try:
        engine = get_rules(str(data["game"]))
    except KeyError:
        return verdict._fail("game", _("unknown game %(game)r.") % {"game": data["game"]})
    try:
        engine.setup(len(players), seed, data.get("options") or {})
    except (ValueError, TypeError) as exc:
        return verdict._fail("setup", _("the game cannot be set up: %(error)s") % {"error": exc})
    try:
        replayed = replay(
            engine.slug,
            seed=seed,
            num_players=len(players),
            options=data.get("options") or {},
            moves=_pairs(moves, len(players)),
        )
    except _BadMove as exc:
        return verdict._fail("moves", str(exc))
    except MoveRefused as exc:
        return verdict._fail(
            "moves",
            _("move %(n)s by seat %(seat)s is illegal (%(code)s): %(message)s")
            % {"n": exc.index + 1, "seat": exc.seat, "code": exc.code, "message": exc.reason},
        )
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return verdict._fail("moves", _("a move cannot be read: %(error)s") % {"error": exc})
    state = replayed.state
    verdict.moves_replayed = replayed.moves
    verdict._pass("moves", _("all %(n)s moves are legal.") % {"n": len(moves)})

    if not engine.is_over(state):
        return verdict._fail("result", _("the replayed game is not over after the last move."))
    scores = list(engine.result(state))
    verdict.scores = scores
    if list(result["scores"]) != scores:
        return verdict._fail(
            "result",
            _("the replay scores %(replayed)s, the published result says %(published)s.")
            % {"replayed": scores, "published": list(result["scores"])},
        )
    ranks = result.get("ranks")
    if ranks is not None and list(ranks) != final_ranks(engine, state):
        return verdict._fail(
            "result",
            _("the published ranks %(ranks)s do not follow from the scores %(scores)s.")
            % {"ranks": list(ranks), "scores": scores},
        )
    verdict._pass(
        "result",
        _("the replay ends with the published scores %(scores)s.") % {"scores": scores},
    )
    if "sealed" in data:  # exports from before the commitments have none
        _check_sealed(verdict, data["sealed"], moves, engine.sealed_steps)
    return verdict


def _check_sealed(
    verdict: Verdict, entries: Any, moves: list[Any], sealed_steps: Mapping[str, str]
) -> None:
    verdict.sealed = check_sealed(entries, moves, sealed_steps)
    failed = [row for row in verdict.sealed if not row.ok]
    if failed:
        verdict._fail(
            "sealed",
            _("the sealed move at move %(n)s of seat %(seat)s fails: %(detail)s")
            % {"n": failed[0].version, "seat": failed[0].seat, "detail": failed[0].detail},
        )
        return
    verdict._pass(
        "sealed",
        _(
            "all %(n)s sealed moves match the commitments shown to the other seats when "
            "they were made."
        )
        % {"n": len(verdict.sealed)},
    )
