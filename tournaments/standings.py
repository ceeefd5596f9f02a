"""Reading a tournament: its tables' results, its standings and its document (the API's
and the page's), from the rows (docs/tournaments.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.records.ratings import rated_ranks
from tournaments.models import Entrant, Pairing, Round, Tournament
from tournaments.scoring import Line, TableResult, as_number, standings


@dataclass
class Results:
    entrants: list[Entrant]  # seed order
    tables: list[TableResult]  # finished (or aborted) tables, keyed by entrant id
    byes: list[int]  # entrant ids, once per bye
    by_game: dict[int, TableResult]


def results_of(t: Tournament) -> Results:
    entrants = list(
        Entrant.objects.filter(tournament=t)
        .select_related("user")
        .order_by("seed", "joined_at", "id")
    )
    of_user = {e.user_id: e.pk for e in entrants}
    pairings = list(
        Pairing.objects.filter(round__tournament=t)
        .select_related("game")
        .order_by("round__number", "slot")
    )
    done = [
        p.game
        for p in pairings
        if p.game is not None and p.game.status in (Game.Status.FINISHED, Game.Status.ABORTED)
    ]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game__in=done).select_related("user"):
        seats.setdefault(seat.game_id, []).append(seat)
    by_game: dict[int, TableResult] = {}
    for game in done:
        at_table = [seat for seat in seats.get(game.pk, []) if seat.user_id in of_user]
        if game.status == Game.Status.FINISHED:
            # TR-S-6: a player who resigned or withdrew ranks after all who finished.
            ranks = rated_ranks(
                ranks=[seat.final_rank or len(at_table) for seat in at_table],
                forfeited=[seat.is_out for seat in at_table],
            )
        else:
            ranks = [1] * len(at_table)  # TR-S-6: an aborted table is a tie for everyone
        by_game[game.pk] = TableResult(
            {of_user[seat.user_id]: rank for seat, rank in zip(at_table, ranks, strict=True)}
        )
    byes = [p.bye_id for p in pairings if p.bye_id is not None]
    return Results(entrants, list(by_game.values()), byes, by_game)


def lines_of(t: Tournament, res: Results | None = None) -> list[Line]:
    res = res or results_of(t)
    order = "round_robin" if t.format == Tournament.Format.ROUND_ROBIN else "swiss"
    return standings([e.pk for e in res.entrants], res.tables, res.byes, seats=t.seats, order=order)


def knockout_order(t: Tournament, res: Results) -> list[tuple[int, int | None]]:
    """(entrant id, round lost in or None) for a knockout, best first (TR-S-7)."""
    lost: dict[int, int] = {}
    for p in Pairing.objects.filter(round__tournament=t).select_related("round"):
        if p.game_id is None or p.game_id not in res.by_game:
            continue
        loser = knockout_loser(res.by_game[p.game_id], res)
        if loser is not None:
            lost[loser] = p.round.number
    seed = {e.pk: i for i, e in enumerate(res.entrants)}
    ids = [e.pk for e in res.entrants]
    return sorted(((e, lost.get(e)) for e in ids), key=lambda x: (-(x[1] or 999), seed[x[0]]))


def knockout_winner(table: TableResult, res: Results) -> int:
    """The better rank goes on; a tie, the higher seed (TR-P-7)."""
    seed = {e.pk: i for i, e in enumerate(res.entrants)}
    return min(table.ranks, key=lambda e: (table.ranks[e], seed.get(e, 999)))


def knockout_loser(table: TableResult, res: Results) -> int | None:
    winner = knockout_winner(table, res)
    others = [e for e in table.ranks if e != winner]
    return others[0] if others else None


def standing_rows(t: Tournament) -> list[dict[str, Any]]:
    res = results_of(t)
    by_id = {e.pk: e for e in res.entrants}
    rows = []
    if t.format == Tournament.Format.KNOCKOUT:
        wins: dict[int, int] = {}
        for table in res.tables:
            w = knockout_winner(table, res)
            wins[w] = wins.get(w, 0) + 1
        for bye in res.byes:
            wins[bye] = wins.get(bye, 0) + 1
        for rank, (entrant_id, lost_in) in enumerate(knockout_order(t, res), start=1):
            e = by_id[entrant_id]
            rows.append(_row(rank, e, wins.get(entrant_id, 0), {"lost_in_round": lost_in}))
        return rows
    for rank, line in enumerate(lines_of(t, res), start=1):
        tiebreaks: dict[str, Any]
        if t.format == Tournament.Format.ROUND_ROBIN:
            tiebreaks = {
                "head_to_head": as_number(line.head_to_head),
                "sonneborn_berger": as_number(line.sonneborn_berger),
            }
        else:
            tiebreaks = {
                "buchholz": as_number(line.buchholz),
                "sonneborn_berger": as_number(line.sonneborn_berger),
            }
        row = _row(rank, by_id[line.entrant], as_number(line.points), tiebreaks)
        row.update(games=line.games, byes=line.byes)
        rows.append(row)
    return rows


def _row(rank: int, e: Entrant, points: Any, tiebreaks: dict[str, Any]) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": e.user.username,
        "display_name": e.user.shown_name,
        "is_bot": e.user.is_bot,
        "points": points,
        "tiebreaks": tiebreaks,
        "withdrawn": e.withdrawn_at is not None,
    }


def tournament_summary(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "title": t.title,
        "format": t.format,
        "seats": t.seats,
        "status": t.status,
        "round": t.current_round,
        "rounds": t.rounds,
        "entrants": Entrant.objects.filter(tournament=t).count(),
        "max_entrants": t.max_entrants,
        "starts": t.starts_at.isoformat() if t.starts_at else "when_full",
    }


def tournament_document(t: Tournament) -> dict[str, Any]:
    entrants = Entrant.objects.filter(tournament=t).select_related("user")
    rounds = []
    for r in Round.objects.filter(tournament=t).prefetch_related("pairings__bye__user"):
        pairings = list(r.pairings.all())
        rounds.append(
            {
                "number": r.number,
                "started_at": r.started_at.isoformat(),
                "deadline": r.deadline.isoformat(),
                "finished_at": r.finished_at.isoformat() if r.finished_at else None,
                "games": [p.game_id for p in pairings if p.game_id is not None],
                "byes": [p.bye.user.username for p in pairings if p.bye is not None],
            }
        )
    return {
        **tournament_summary(t),
        "entrants": [
            {
                "username": e.user.username,
                "display_name": e.user.shown_name,
                "is_bot": e.user.is_bot,
                "seed": e.seed,
                "withdrawn": e.withdrawn_at is not None,
            }
            for e in entrants
        ],
        "entrant_count": len(entrants),
        "min_entrants": t.min_entrants,
        "options": t.options,
        "clock": t.clock,
        "rated": t.rated,
        "bots_allowed": t.bots_allowed,
        "round_days": t.round_days,
        "created_by": t.created_by.username if t.created_by else None,
        "standings": standing_rows(t) if t.status != Tournament.Status.OPEN else [],
        "rounds": rounds,
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
    }


def format_label(fmt: str) -> str:
    return str(dict(Tournament.Format.choices).get(fmt, fmt)) or _("tournament")
