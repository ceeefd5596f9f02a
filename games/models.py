"""Tables, seats, the move log, invitations, chat and replace votes.

The move log is the truth (one ``Move`` per accepted action); ``Game.state`` is a snapshot of
the engine's full, secret state kept beside it for speed. Only ``games.tables.lifecycle``
writes these rows; game rules never live here (they are in ``games.engine``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class OnTimeout(models.TextChoices):
        BOT = "bot", _("the bot moves for the late player")
        WAIT = "wait", _("the table waits")

    title = models.CharField(_("title"), max_length=40)
    options = models.JSONField(_("options"), default=dict)
    num_players = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_games",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Fairness: the seed stays secret until the game ends; its SHA-256 is public from the start.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)

    state = models.JSONField(null=True, blank=True)  # engine dump: secret, never sent out
    # 0 while open; 1 once started (the setup); each accepted action adds one.
    version = models.PositiveIntegerField(default=0)
    # The engine's setup events (version 1), filtered per seat like move events.
    setup_events = models.JSONField(default=list, blank=True)
    # Seats whose action is required now (engine ``to_act``), kept for lists and sweeps.
    to_act = models.JSONField(default=list, blank=True)

    clock_initial_seconds = models.PositiveIntegerField(default=72 * 3600)
    clock_increment_seconds = models.PositiveIntegerField(default=24 * 3600)
    clock_max_seconds = models.PositiveIntegerField(default=7 * 24 * 3600)
    skip_weekends = models.BooleanField(_("weekends do not count"), default=False)
    on_timeout = models.CharField(max_length=8, choices=OnTimeout.choices, default=OnTimeout.BOT)
    rated = models.BooleanField(_("rated"), default=True)
    # The bot level the table chose, as the bot kind that plays it (games.bots.players.bot_levels):
    # it plays the bot seats and stands in for a late or departed person. Blank: the
    # title's own stand-in (``Rules.stand_in_bot``), as for tables opened before levels.
    bot_kind = models.CharField(_("bot level"), max_length=32, blank=True)
    open_seats = models.BooleanField(_("anyone may join"), default=True)
    # The finish rate (percent) a player needs to take a seat (games.records.reliability, REL-5).
    min_finish_rate = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)  # {"scores": [...], "ranks": [...]}
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            # The sweep's search for bots that should have moved (games.bots.stalled).
            models.Index(
                fields=["updated_at"],
                condition=Q(status="running"),
                name="game_running_updated",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk} ({self.status})"


class Seat(models.Model):
    """A player's place at a table. ``seat`` is drawn when the game starts (null before).

    ``bot_kind`` non-empty means a bot plays this seat now: a bot account's own seat, or a
    person's seat handed to the bot after resigning or missed deadlines.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    colour = models.CharField(max_length=16, blank=True)
    bot_kind = models.CharField(max_length=32, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    # Clock: remaining bank, and the deadline while the seat is due to act.
    clock_remaining_seconds = models.FloatField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    missed_deadlines = models.PositiveSmallIntegerField(default=0)
    resigned = models.BooleanField(default=False)

    # Versions: what the player has seen, and when their own decision last changed (409s).
    last_seen_version = models.PositiveIntegerField(default=0)
    decision_version = models.PositiveIntegerField(default=0)
    # A "your turn" mail waiting for its grace period: the version the seat became due at
    # and when the sweep may queue it (notifications.turn_mails.turn_mails_claim).
    turn_mail_version = models.PositiveIntegerField(null=True, blank=True)
    turn_mail_at = models.DateTimeField(null=True, blank=True)

    final_score = models.IntegerField(null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"], condition=Q(seat__isnull=False), name="seat_unique_number"
            ),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [
            models.Index(
                fields=["deadline"], condition=Q(deadline__isnull=False), name="seat_due_deadline"
            ),
            models.Index(fields=["user", "game"], name="seat_user_game"),
            models.Index(
                fields=["turn_mail_at"],
                condition=Q(turn_mail_at__isnull=False),
                name="seat_turn_mail_due",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    @property
    def is_out(self) -> bool:
        """The person no longer plays this seat: they resigned, or the other players voted
        to replace them (a bot plays it to the end; they are ranked last). A bot account's
        own seat is never out. Needs ``user`` (select it with the seat)."""
        return self.resigned or (bool(self.bot_kind) and not self.user.is_bot)


class SeatHandover(models.Model):
    """A person's seat handed to a bot for the rest of the game, written in the same
    transaction as the hand-over; the game log shows it. One per seat: a seat is handed over
    once. ``version`` is the game's version when it happened (after that move)."""

    class Reason(models.TextChoices):
        RESIGN = "resign", _("the player resigned")
        VOTE = "vote", _("the other players voted to replace the player")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="handovers")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    bot_kind = models.CharField(max_length=32)
    reason = models.CharField(max_length=8, choices=Reason.choices)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seathandover_unique_seat")
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id} to the bot ({self.reason})"


class ReplaceVote(models.Model):
    """A player's vote to hand ``seat`` (a player who missed two deadlines) to a bot
    (``games.clocks.seats``). Until migration 0008 it lived in ``notifications``; the rows
    were kept, the table renamed."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "voter"], name="replacevote_unique_voter")
        ]

    def __str__(self) -> str:
        return f"vote of {self.voter_id} to replace seat {self.seat_id}"


class Move(models.Model):
    """One accepted action, append-only. ``version`` is the game's version after it."""

    class Actor(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("bot standing in after a missed deadline")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    version = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(default=list)  # engine events with their visibility
    # NULL (not "") when absent, so the unique constraint ignores moves without one.
    client_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    actor = models.CharField(max_length=8, choices=Actor.choices, default=Actor.PLAYER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="move_unique_version"),
            # A client id is one seat's own: unique per game it let a player who sent the
            # bot's id (``bot:<version>:<seat>``) first swallow the bot's move.
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"],
                condition=Q(client_id__isnull=False),
                name="move_unique_seat_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.version} of game {self.game_id}"


class SealedMove(models.Model):
    """A sealed action (``Rules.sealed_steps``) with its salted commitment
    (``games.records.commitments``), written with its move. Other seats see only the commitment
    until the game is over; the export then publishes the salt and the payload, and the
    fairness check proves each revealed move matches what was committed before the
    reveal. ``replaced_*``: a later sealed action of the same seat at the same step took
    its place before the reveal; ``revealed_*``: the move whose events revealed it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sealed_moves")
    version = models.PositiveIntegerField()  # the move's
    seat = models.PositiveSmallIntegerField()
    step = models.CharField(max_length=40)  # the action type
    payload = models.JSONField()
    salt = models.CharField(max_length=32)
    commitment = models.CharField(max_length=64)
    committed_at = models.DateTimeField()
    replaced_version = models.PositiveIntegerField(null=True, blank=True)
    replaced_at = models.DateTimeField(null=True, blank=True)
    revealed_version = models.PositiveIntegerField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="sealedmove_unique_move")
        ]

    def __str__(self) -> str:
        return f"sealed {self.step} of seat {self.seat} at move {self.version} of {self.game_id}"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_unique_user"),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.user_id} to game {self.game_id}"


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    version = models.PositiveIntegerField()  # the game's version when it was said
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "id"]

    def __str__(self) -> str:
        return f"chat {self.pk} in game {self.game_id}"


class InvitationMute(models.Model):
    """``user`` takes no more invitations from ``muted`` (games.tables.invitations): a table that
    invites them is refused, and no mail is sent."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="invitationmute_unique_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class GameNote(models.Model):
    """A player's private notepad at one table (``games.tables.notes``): only its writer ever
    reads it. No document, frame, log, export, replay, mail, admin list or error message
    carries its text; it stays after the game ends."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="gamenote_unique_writer"),
        ]

    def __str__(self) -> str:
        # Never the text: a log line or an error that prints the row shows no note.
        return f"note of {self.user_id} at game {self.game_id}"
