"""A standing challenge ladder per title (docs/tournaments.md, "Ladders", LAD-…).

- LAD-1 A player joins at the bottom and may leave at any time (those below move up).
- LAD-2 A player may challenge anyone up to ``LADDER_REACH`` places above them; a player
  is in one challenge at a time, as challenger or defender.
- LAD-3 A challenge is a rated two-seat table of the title with its default options and
  clock, on which the bot moves for a late player (as in tournaments).
- LAD-4 If the challenger finishes above the defender they take the defender's place, and
  the defender and everyone between move down one; a draw or a loss changes nothing.
- LAD-5 The table's end settles the challenge at once; the tournaments' sweep settles any
  whose settling was lost.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import get_rules, title_slugs
from games.errors import BadRequest, Conflict, NotAllowed, NotFound
from games.models import Game, Seat
from games.tables.seated import seated_table_open
from tournaments.models import LadderChallenge, LadderRung

LADDER_REACH = 3


def check_title(title: Any) -> str:
    if title not in title_slugs():
        raise NotFound(_("Unknown game."), code="unknown_game")
    rules = get_rules(title)
    if not rules.min_players <= 2 <= rules.max_players:
        raise BadRequest(_("This game has no ladder: it is not played by two."), code="no_ladder")
    return str(title)


def ladder_titles() -> list[str]:
    """The titles played by two, each with a ladder."""
    out = []
    for slug in title_slugs():
        rules = get_rules(slug)
        if rules.min_players <= 2 <= rules.max_players:
            out.append(slug)
    return out


def _lock(title: str) -> list[LadderRung]:
    return list(LadderRung.objects.select_for_update().filter(title=title).order_by("position"))


def ladder_join(*, title: Any, user: User) -> LadderRung:
    slug = check_title(title)
    if user.is_bot:
        raise NotAllowed(_("Bots do not climb ladders."), code="bot")
    with transaction.atomic():
        rungs = _lock(slug)
        if any(r.user_id == user.pk for r in rungs):
            raise Conflict(_("You are on this ladder already."), code="already_on_ladder")
        return LadderRung.objects.create(title=slug, user=user, position=len(rungs) + 1)


def ladder_leave(*, title: Any, user: User) -> None:
    slug = check_title(title)
    with transaction.atomic():
        rungs = _lock(slug)
        mine = next((r for r in rungs if r.user_id == user.pk), None)
        if mine is None:
            raise Conflict(_("You are not on this ladder."), code="not_on_ladder")
        LadderChallenge.objects.filter(title=slug, status=LadderChallenge.Status.PLAYING).filter(
            challenger=user
        ).update(status=LadderChallenge.Status.CANCELLED)
        mine.delete()
        LadderRung.objects.filter(title=slug, position__gt=mine.position).update(
            position=F("position") - 1
        )


def _busy(slug: str, user_ids: list[int]) -> bool:
    playing = LadderChallenge.objects.filter(title=slug, status=LadderChallenge.Status.PLAYING)
    return (
        playing.filter(challenger_id__in=user_ids).exists()
        or playing.filter(defender_id__in=user_ids).exists()
    )


def ladder_challenge(*, title: Any, user: User, username: Any) -> LadderChallenge:
    slug = check_title(title)
    with transaction.atomic():
        rungs = _lock(slug)
        mine = next((r for r in rungs if r.user_id == user.pk), None)
        if mine is None:
            raise Conflict(_("Join the ladder first."), code="not_on_ladder")
        theirs = (
            next((r for r in rungs if r.user.username == username), None)
            if isinstance(username, str)
            else None
        )
        if theirs is None:
            raise NotFound(_("That player is not on this ladder."), code="not_on_ladder")
        if not mine.position - LADDER_REACH <= theirs.position < mine.position:
            raise BadRequest(
                _("You may challenge a player up to %(n)d places above you.") % {"n": LADDER_REACH},
                code="out_of_reach",
            )
        if _busy(slug, [mine.user_id, theirs.user_id]):
            raise Conflict(_("One of you is in a challenge already."), code="challenge_under_way")
        game = seated_table_open(
            created_by=user,
            title=slug,
            users=[user, theirs.user],
            options={},
            clock=None,
            rated=True,
        )
        return LadderChallenge.objects.create(
            title=slug,
            challenger=user,
            defender=theirs.user,
            challenger_position=mine.position,
            defender_position=theirs.position,
            game=game,
        )


def challenge_settle(*, game_id: int) -> str | None:
    """LAD-4: settle the challenge played at ``game_id`` if its table has ended."""
    with transaction.atomic():
        challenge = (
            LadderChallenge.objects.select_for_update()
            .filter(game_id=game_id, status=LadderChallenge.Status.PLAYING)
            .first()
        )
        if challenge is None:
            return None
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.ABORTED:
            challenge.status = LadderChallenge.Status.CANCELLED
        elif game.status != Game.Status.FINISHED:
            return None
        else:
            rungs = {r.user_id: r for r in _lock(challenge.title)}
            ranks = {
                s.user_id: (s.final_rank or 99, s.is_out)
                for s in Seat.objects.filter(game=game).select_related("user")
            }
            mine, theirs = ranks.get(challenge.challenger_id), ranks.get(challenge.defender_id)
            won = (
                mine is not None
                and theirs is not None
                and (mine[1], mine[0]) < (theirs[1], theirs[0])
            )
            up, down = rungs.get(challenge.challenger_id), rungs.get(challenge.defender_id)
            if won and up is not None and down is not None and down.position < up.position:
                LadderRung.objects.filter(
                    title=challenge.title, position__gte=down.position, position__lt=up.position
                ).update(position=F("position") + 1)
                LadderRung.objects.filter(pk=up.pk).update(position=down.position)
            challenge.status = LadderChallenge.Status.WON if won else LadderChallenge.Status.HELD
        challenge.resolved_at = timezone.now()
        challenge.save(update_fields=["status", "resolved_at"])
        return str(challenge.status)


def challenges_settle_lost() -> int:
    """LAD-5: settle every challenge whose table ended without it being settled."""
    ids = LadderChallenge.objects.filter(
        status=LadderChallenge.Status.PLAYING,
        game__status__in=(Game.Status.FINISHED, Game.Status.ABORTED),
    ).values_list("game_id", flat=True)
    return sum(1 for game_id in list(ids) if game_id and challenge_settle(game_id=game_id))


def ladder_document(title: Any) -> dict[str, Any]:
    slug = check_title(title)
    rungs = LadderRung.objects.filter(title=slug).select_related("user").order_by("position")
    history = LadderChallenge.objects.filter(title=slug).select_related("challenger", "defender")[
        :50
    ]
    return {
        "title": slug,
        "reach": LADDER_REACH,
        "rungs": [
            {"position": r.position, "username": r.user.username, "display_name": r.user.shown_name}
            for r in rungs
        ],
        "challenges": [
            {
                "id": c.pk,
                "challenger": c.challenger.username,
                "defender": c.defender.username,
                "challenger_position": c.challenger_position,
                "defender_position": c.defender_position,
                "game": c.game_id,
                "status": c.status,
                "created_at": c.created_at.isoformat(),
                "resolved_at": c.resolved_at.isoformat() if c.resolved_at else None,
            }
            for c in history
        ],
    }
