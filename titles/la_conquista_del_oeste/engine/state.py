"""The game state: plain records with a cheap, complete ``copy`` (``apply`` works on one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .data import ITEMS

PHASES = ("town", "move", "after", "discard", "over")
JAILS = ("", "prison", "indian", "roy_bean")


@dataclass(slots=True)
class Player:
    pos: str
    money: int
    jail: str = ""  # "", "prison" (the prison of ``pos``), "indian", "roy_bean"
    outfit: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ITEMS, 0))
    hand: list[str] = field(default_factory=list)  # Opportunity card ids (secret)
    reward: int = 0  # the sum of this player's Wanted posters
    skip: int = 0  # turns still to miss
    family: str = ""  # the city where the family piece waits, "" if with the pawn
    worked_at: str = ""  # the city worked in since the pawn last arrived there

    def copy(self) -> Player:
        return Player(
            self.pos,
            self.money,
            self.jail,
            dict(self.outfit),
            list(self.hand),
            self.reward,
            self.skip,
            self.family,
            self.worked_at,
        )

    def complete(self) -> bool:
        return all(self.outfit[i] > 0 for i in ITEMS)


@dataclass(slots=True)
class State:
    n: int
    rng: int
    players: list[Player]
    seat: int  # whose turn it is
    first: int  # the seat that opened the game (a round ends before it plays again)
    round: int
    round_limit: int
    phase: str = "town"
    steps: int = 0  # spaces the current move may cover
    roll: tuple[int, ...] = ()  # the last dice rolled by anyone (public)
    did: tuple[str, ...] = ()  # once-per-turn actions already taken this turn
    forced: str = ""  # "rob": after a robbery the only move is the escape roll
    resume: str = ""  # after a discard: "move", "after" or "end"
    opp_deck: list[str] = field(default_factory=list)
    inc_deck: list[str] = field(default_factory=list)
    winner: int = -1
    poker_host: int = -1  # LC-23: the seat whose poker game waits for its invited seats
    poker_bet: int = 0
    poker_wait: tuple[int, ...] = ()  # invited seats that have not answered yet
    poker_in: tuple[int, ...] = ()  # invited seats that joined
    offers: list[dict[str, Any]] = field(default_factory=list)  # LC-24, never changed in place
    next_offer: int = 1

    def copy(self) -> State:
        return State(
            self.n,
            self.rng,
            [p.copy() for p in self.players],
            self.seat,
            self.first,
            self.round,
            self.round_limit,
            self.phase,
            self.steps,
            self.roll,
            self.did,
            self.forced,
            self.resume,
            list(self.opp_deck),
            list(self.inc_deck),
            self.winner,
            self.poker_host,
            self.poker_bet,
            self.poker_wait,
            self.poker_in,
            list(self.offers),
            self.next_offer,
        )


def offer_copy(offer: dict[str, Any]) -> dict[str, Any]:
    """A trade offer that shares nothing mutable with ``offer``: events, views and dumps
    get their own, so a caller that changes one never changes the game."""
    return {
        k: {
            n: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
            for n, v in b.items()
        }
        if isinstance(b, dict)
        else b
        for k, b in offer.items()
    }
