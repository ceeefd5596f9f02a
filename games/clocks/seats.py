"""A person's seat handed to the bot for good: by resigning, or by a replace vote of the other
players once the person has missed ``MISSES_BEFORE_VOTE`` deadlines at a table that waits.
The hand-over itself is ``games.tables.handover.seat_hand_to_bot``. Rules: ``docs/clocks.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.bots.players import stand_in_kind
from games.clocks.seat_clock import counts_as_person
from games.errors import BadRequest, Conflict, NotAllowed, NotFound
from games.live.broadcast import announce_update
from games.models import Game, ReplaceVote, Seat
from games.tables.handover import seat_hand_to_bot

#: Misses after which the other players of a waiting table may vote to replace the player.
MISSES_BEFORE_VOTE = 2


def _valid_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**62


@dataclass(frozen=True)
class VoteCount:
    votes: int
    needed: int
    replaced: bool


def seat_resign(*, game_id: int, user: User) -> Seat:
    """Resign: the bot plays the seat from now on (``seat_hand_to_bot``, reason ``resign``);
    the person is ranked last for rating. Errors are ``games.errors.GameError``."""
    if not _valid_id(game_id):
        raise NotFound()
    seat = Seat.objects.filter(game_id=game_id, user=user).select_related("game", "user").first()
    if seat is None or seat.seat is None:
        raise NotAllowed(_("You are not a player at this table."), code="not_a_player")
    if seat.resigned:
        raise Conflict(_("You have already resigned."), code="already_resigned")
    if seat.is_out:
        raise Conflict(
            _("The other players replaced you by the bot; there is nothing to resign."),
            code="replaced",
        )
    if seat.game.status != Game.Status.RUNNING:
        raise Conflict(_("Only a running game can be resigned."), code="not_running")
    return seat_hand_to_bot(
        game_id=game_id, seat=seat.seat, bot_kind=stand_in_kind(seat.game), reason="resign"
    )


def _vote_refusal(game: Game, seats: list[Seat], voter: Any, target: Seat | None) -> Any:
    """Why ``voter`` may not vote to replace ``target`` now (a ``GameError``), or None.
    The one rule shared by casting a vote and by the page offering the button."""
    voter_id = getattr(voter, "pk", None) if getattr(voter, "is_authenticated", False) else None
    mine = next((s for s in seats if voter_id is not None and s.user_id == voter_id), None)
    if mine is None or mine.seat is None or not counts_as_person(mine):
        return NotAllowed(_("Only the players at this table can vote."), code="not_a_player")
    if target is None:
        return NotFound(_("There is no such seat."), code="no_such_seat")
    if target.pk == mine.pk:
        return BadRequest(_("You cannot vote to replace yourself."), code="own_seat")
    if game.status != Game.Status.RUNNING:
        return Conflict(_("This game is not running."), code="not_running")
    if not counts_as_person(target):
        return Conflict(_("A bot already plays that seat."), code="already_bot")
    if game.on_timeout != Game.OnTimeout.WAIT:
        return Conflict(
            _("At this table the bot moves for a late player; there is no vote."),
            code="not_replaceable",
        )
    if target.missed_deadlines < MISSES_BEFORE_VOTE:
        return Conflict(
            _("A player can be replaced only after missing two deadlines."),
            code="not_replaceable",
        )
    return None


def _electorate(seats: list[Seat], target: Seat) -> set[int]:
    """The people still playing at the table, the late player left out."""
    return {s.user_id for s in seats if s.pk != target.pk and counts_as_person(s)}


def replace_vote_cast(*, game_id: int, voter: User, seat: Any) -> VoteCount:
    """``voter`` (a person playing at the table) votes to hand ``seat`` to the bot once its
    player has missed ``MISSES_BEFORE_VOTE`` deadlines at a table that waits
    (``on_timeout="wait"``). A strict majority of the other people still playing replaces
    the player (``seat_hand_to_bot``, reason ``vote``): they are out, like a player who
    resigned. Voting twice counts once. ONE transaction holding the game row lock."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise BadRequest(_("The seat is a number."), code="bad_seat")
    if not _valid_id(game_id):
        raise NotFound()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise NotFound()
        seats = list(Seat.objects.filter(game=game).select_related("user"))
        target = next((s for s in seats if s.seat == seat), None)
        refusal = _vote_refusal(game, seats, voter, target)
        if refusal is not None or target is None:
            raise refusal or NotFound()
        ReplaceVote.objects.get_or_create(seat=target, voter=voter)
        electorate = _electorate(seats, target)
        votes = ReplaceVote.objects.filter(seat=target, voter_id__in=electorate).count()
        needed = len(electorate) // 2 + 1
        replaced = votes >= needed
        if replaced:
            seat_hand_to_bot(
                game_id=game.pk, seat=seat, bot_kind=stand_in_kind(game), reason="vote"
            )
        else:  # the other players' pages show the new count
            announce_update(game_id=game.pk, version=int(game.version), refresh=True)
    return VoteCount(votes=votes, needed=needed, replaced=replaced)


@dataclass(frozen=True)
class OpenVote:
    """A vote ``viewer`` may take part in: replace the player of ``seat``."""

    seat: int
    username: str
    name: str
    voters: list[str]  # names of the players who voted so far
    needed: int
    i_voted: bool


def replace_votes_open(*, game: Game, viewer: Any) -> list[OpenVote]:
    """The replace votes ``viewer`` may cast at ``game`` now (same rule as
    ``replace_vote_cast``), with who voted so far and how many votes are needed. Empty for
    spectators, for the late player, for bots and when no vote is open. Names only: nothing
    hidden."""
    if game.status != Game.Status.RUNNING or game.on_timeout != Game.OnTimeout.WAIT:
        return []
    if not getattr(viewer, "is_authenticated", False):
        return []
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("seat", "pk"))
    out = []
    for target in seats:
        if target.seat is None or _vote_refusal(game, seats, viewer, target) is not None:
            continue
        electorate = _electorate(seats, target)
        voter_ids = set(
            ReplaceVote.objects.filter(seat=target, voter_id__in=electorate).values_list(
                "voter_id", flat=True
            )
        )
        out.append(
            OpenVote(
                seat=int(target.seat),
                username=target.user.username,
                name=target.user.shown_name,
                voters=[s.user.shown_name for s in seats if s.user_id in voter_ids],
                needed=len(electorate) // 2 + 1,
                i_voted=viewer.pk in voter_ids,
            )
        )
    return out
