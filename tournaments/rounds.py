"""Running a tournament: the start, each round's tables, the end (docs/tournaments.md,
"Rounds", TR-R-…). ``tournament_step`` is the one entry: the sweep calls it for every live
tournament each minute, and a table's end queues it at once, so a lost task delays a round
by a minute at most. Each step locks the tournament's row: two steps never pair a round
twice."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Rating
from games.bots.play import bot_play
from games.bots.players import stand_in_kind
from games.clocks.seat_clock import counts_as_person
from games.models import Game, Seat
from games.tables.seated import seated_table_open
from notifications import push
from tournaments import pairing
from tournaments.models import Entrant, Pairing, Round, Tournament
from tournaments.round_mail import round_mails
from tournaments.scoring import met_counts
from tournaments.standings import Results, knockout_winner, lines_of, results_of
from tournaments.task_names import step_queue
from webhooks.events import emit, site_link

log = logging.getLogger(__name__)

#: Seconds a step may spend playing out late tables after a round's deadline (TR-R-3).
ADJUDICATE_SECONDS = 20.0
NEWCOMER = 1500.0


def tournament_step(tournament_id: int, *, now: datetime | None = None) -> str:
    """Move the tournament on if it can: ``waiting``, ``cancelled``, ``started``,
    ``playing``, ``adjudicating``, ``round_started``, ``finished`` or ``done``."""
    now = now or timezone.now()
    late: list[int] = []
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return "done"
        if t.status == Tournament.Status.OPEN:
            return _maybe_start(t, now)
        current = Round.objects.filter(tournament=t, number=t.current_round).first()
        if current is None:
            return _round_begin(t, 1, now)
        running = list(
            Pairing.objects.filter(round=current, game__status=Game.Status.RUNNING).values_list(
                "game_id", flat=True
            )
        )
        if running:
            if now < current.deadline:
                return "playing"
            late = [g for g in running if g is not None]
        else:
            current.finished_at = now
            current.save(update_fields=["finished_at"])
            if _is_last(t, current):
                t.status = Tournament.Status.FINISHED
                t.finished_at = now
                t.save(update_fields=["status", "finished_at"])
                return "finished"
            return _round_begin(t, current.number + 1, now)
    _adjudicate(late)
    return "adjudicating"


def _maybe_start(t: Tournament, now: datetime) -> str:
    count = Entrant.objects.filter(tournament=t).count()
    if t.starts_at is None:
        if count < t.max_entrants:
            return "waiting"
    elif t.starts_at > now:
        return "waiting"
    if count < t.min_entrants:
        t.status = Tournament.Status.CANCELLED  # TR-R-1
        t.finished_at = now
        t.save(update_fields=["status", "finished_at"])
        return "cancelled"
    entrants = list(Entrant.objects.filter(tournament=t))
    shown = {
        r.user_id: r.display
        for r in Rating.objects.filter(game=t.title, user_id__in=[e.user_id for e in entrants])
    }
    # TR-R-2: seeded by rating (newcomers at 1500), then by who entered first.
    entrants.sort(key=lambda e: (-shown.get(e.user_id, NEWCOMER), e.joined_at, e.pk))
    for i, e in enumerate(entrants):
        e.seed = i + 1
        e.rating = shown.get(e.user_id, NEWCOMER)
    Entrant.objects.bulk_update(entrants, ["seed", "rating"])
    n = len(entrants)
    if t.format == Tournament.Format.ROUND_ROBIN:
        t.rounds = len(pairing.round_robin(n, t.seats))
    elif t.format == Tournament.Format.KNOCKOUT:
        t.rounds = pairing.knockout_rounds(n)
    t.status = Tournament.Status.RUNNING
    t.started_at = now
    t.save(update_fields=["rounds", "status", "started_at"])
    _round_begin(t, 1, now)
    return "started"


def _is_last(t: Tournament, current: Round) -> bool:
    if current.number >= t.rounds:
        return True
    if t.format == Tournament.Format.KNOCKOUT:
        return Pairing.objects.filter(round=current).count() <= 1
    return False


def _plan(t: Tournament, number: int, res: Results) -> list[list[int]]:
    """The round's slots: tables of entrant ids, and byes as slots of one."""
    seeded = [e.pk for e in res.entrants]
    active = {e.pk for e in res.entrants if e.withdrawn_at is None}
    if t.format == Tournament.Format.ROUND_ROBIN:
        plan = pairing.round_robin(len(seeded), t.seats)[number - 1]
        slots = [[seeded[i] for i in table] for table in plan.tables]
        slots += [[seeded[i]] for i in plan.byes]
    elif t.format == Tournament.Format.SWISS:
        order = [line.entrant for line in lines_of(t, res) if line.entrant in active]
        index = {e: i for i, e in enumerate(order)}
        met = {
            pairing.pair(index[a], index[b]): c
            for (a, b), c in met_counts(res.tables).items()
            if a in index and b in index
        }
        byes = [index[e] for e in res.byes if e in index]
        plan = pairing.swiss(list(range(len(order))), t.seats, met=met, byes=byes)
        slots = [[order[i] for i in table] for table in plan.tables]
        slots += [[order[i]] for i in plan.byes]
    else:
        if number == 1:
            slots = [[seeded[i] for i in s] for s in pairing.knockout_first(len(seeded))]
        else:
            slots = pairing.knockout_next(_knockout_winners(t, number - 1, res))
    # TR-R-4: a withdrawn entrant is seated no more; the others at that table get byes.
    out = []
    for slot in slots:
        left = [e for e in slot if e in active]
        if len(slot) > 1 and len(left) < len(slot):
            out += [[e] for e in left]
        else:
            out.append(left)
    return [s for s in out if s]


def _knockout_winners(t: Tournament, number: int, res: Results) -> list[int]:
    winners = []
    for p in Pairing.objects.filter(round__tournament=t, round__number=number).order_by("slot"):
        if p.bye_id is not None:
            winners.append(p.bye_id)
        elif p.game_id in res.by_game:
            winners.append(knockout_winner(res.by_game[p.game_id], res))
    return winners


def _round_begin(t: Tournament, number: int, now: datetime) -> str:
    res = results_of(t)
    slots = _plan(t, number, res)
    by_id = {e.pk: e for e in res.entrants}
    current = Round.objects.create(
        tournament=t, number=number, deadline=now + timedelta(days=t.round_days)
    )
    tables: dict[int, int | None] = {}
    for i, slot in enumerate(slots):
        if len(slot) == 1:
            Pairing.objects.create(round=current, slot=i, bye_id=slot[0])
            tables[by_id[slot[0]].user_id] = None
            continue
        game = seated_table_open(
            created_by=t.created_by,
            title=t.title,
            users=[by_id[e].user for e in slot],
            options=t.options,
            clock=t.clock,
            rated=t.rated,
        )
        Pairing.objects.create(round=current, slot=i, game=game)
        tables.update({by_id[e].user_id: game.pk for e in slot})
        push.table_pushes_record(game=game, users=[by_id[e].user_id for e in slot])
    t.current_round = number
    t.save(update_fields=["current_round"])
    _tell_round(t, number, [by_id[e].user_id for slot in slots for e in slot])
    round_mails(t, number, tables)
    if not Pairing.objects.filter(round=current, game__isnull=False).exists():
        _again(t.pk)  # a round of byes only: the next step closes it at once
    return "round_started"


def _again(tournament_id: int) -> None:
    def queue() -> None:
        step_queue(tournament_id)

    transaction.on_commit(queue, robust=True)


def _tell_round(t: Tournament, number: int, user_ids: list[int]) -> None:
    """``tournament_round`` to the entrants' webhooks (docs/webhooks.md)."""

    def body() -> dict[str, object]:
        return {
            "text": _("Round %(round)s of %(name)s has started.")
            % {"round": number, "name": t.name},
            "url": site_link(reverse("tournaments:detail", args=[t.pk])),
            "tournament": {"id": t.pk, "name": t.name, "round": number},
        }

    emit(
        event="tournament_round",
        key=f"tournament_round:{t.pk}:{number}",
        user_ids=user_ids,
        body=body,
    )


def _adjudicate(game_ids: list[int]) -> None:
    """TR-R-3: after a round's deadline, the late tables are played out by the stand-in bot
    for each seat to act whose player is not away (as at a missed deadline); a player on
    vacation keeps their paused clock, and the round waits for them."""
    until = time.monotonic() + float(
        getattr(settings, "TOURNAMENT_ADJUDICATE_SECONDS", ADJUDICATE_SECONDS)
    )
    for game_id in game_ids:
        while time.monotonic() < until:
            game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
            if game is None:
                break
            moved = False
            seats = Seat.objects.filter(game=game, seat__in=game.to_act or []).select_related(
                "user"
            )
            for seat in seats:
                now = timezone.now()
                if counts_as_person(seat) and seat.user.away_until and seat.user.away_until > now:
                    continue
                played = bot_play(
                    game=game,
                    seat=int(seat.seat or 0),
                    kind=seat.bot_kind or stand_in_kind(game),
                    actor="timeout" if counts_as_person(seat) else "bot",
                    client_id=f"round-deadline:{game.version}:{seat.seat}",
                )
                moved = moved or played == "moved"
                break  # the game moved on: read it again
            if not moved:
                break


def live_ids() -> list[int]:
    return list(
        Tournament.objects.filter(
            status__in=(Tournament.Status.OPEN, Tournament.Status.RUNNING)
        ).values_list("pk", flat=True)
    )
