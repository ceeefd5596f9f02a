"""Users. Bots are users too (``is_bot``), so they can hold seats and ratings."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    class EmailNotifications(models.TextChoices):
        EACH_TURN = "each_turn", _("each turn")
        DIGEST = "digest", _("daily digest")
        OFF = "off", _("off")

    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=16, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_kind = models.CharField(_("bot kind"), max_length=32, blank=True)

    # Playing over days: notification preferences and vacation (docs/clocks.md).
    email_notifications = models.CharField(
        _("e-mail notifications"),
        max_length=10,
        choices=EmailNotifications.choices,
        default=EmailNotifications.EACH_TURN,
    )
    reminder_hours = models.PositiveSmallIntegerField(
        _("reminder before a deadline (hours, 0 for none)"), default=12
    )
    vacation_days = models.FloatField(_("vacation days left"), default=10.0)
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)
    #: The last day (in the player's time zone) that earned vacation: one statement decides
    #: whether a move is the first of its day (see games.clocks.advance._accrue_vacation).
    vacation_accrued_on = models.DateField(_("vacation last earned on"), null=True, blank=True)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.shown_name

    @property
    def shown_name(self) -> str:
        """The name every page, mail, list and table shows: the display name, else the
        username. A bot still under the name the site gave it is named in the reader's
        language ("Bot glouton"), and the second, third… account of one kind (two bots of
        one level at a table are two accounts, ``games.bots.players.bot_account``) carries a letter,
        "Search bot B": a name of its own, the same on the lobby, in mails, the replay, the
        rating table, the profile and the leaderboard (a letter, not a number, which would
        read as a seat). See ``bot_letter``."""
        if self.wears_bot_name:
            # The names are marked for the catalogues where the bots are offered (the
            # generic ones in games.bots.players, a title's own in its web app).
            name = gettext(self.display_name)
            letter = bot_letter(self.username, self.bot_kind)
            if letter:
                return gettext("%(name)s %(letter)s") % {"name": name, "letter": letter}
            return name
        return self.display_name or self.username

    @property
    def wears_bot_name(self) -> bool:
        """A bot under the name the site gave it, which says "bot" already (pages add no
        "bot" badge to it: "Search bot bot")."""
        return self.is_bot and self.display_name == f"{self.bot_kind.capitalize()} bot"


def bot_letter(username: str, kind: str) -> str:
    """The letter telling a bot account from the others of its kind: none for the first
    (``bot-search``), "B" for ``bot-search-2``, "C" for ``bot-search-3``…"""
    prefix = f"bot-{kind}-"
    if not kind or not username.startswith(prefix) or not username[len(prefix) :].isdigit():
        return ""
    n = int(username[len(prefix) :])
    if n < 2:
        return ""
    return chr(ord("A") + n - 1) if n <= 26 else str(n)


class ApiToken(models.Model):
    """A bearer token for scripts and third-party bots; only its SHA-256 digest is kept.

    It stops working at ``expires_at`` (``API_TOKEN_DAYS`` after it was made), so a token
    copied into a forgotten script does not stay a key to the account for ever; its owner
    can revoke it sooner (deleting the row) on the settings page or through the API."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60, blank=True)
    key_digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"))

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"token {self.name or self.pk} of {self.user_id}"


class Rating(models.Model):
    """A player's OpenSkill rating for one game (``game`` is the engine slug).

    Shown as ``mu - 3 * sigma`` (a conservative estimate: the player is very probably at least
    this good); provisional until ``PROVISIONAL_GAMES`` rated games. Written only by
    ``games.records.ratings.ratings_apply``.
    """

    PROVISIONAL_GAMES = 5

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game"),
        ]
        indexes = [models.Index(fields=["game"], name="rating_game")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.display:.1f}"

    @property
    def display(self) -> float:
        return display_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < self.PROVISIONAL_GAMES


#: The shown rating's scale (docs/accounts.md, ruled for issue 15): OpenSkill's
#: conservative estimate ``mu - 3 sigma`` (0 for a newcomer) mapped onto the scale players
#: know from chess sites, a newcomer at 1500 and 40 points per OpenSkill unit.
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 40.0


def display_rating(mu: float, sigma: float) -> float:
    """The number players see: ``1500 + 40 (mu - 3 sigma)``, rounded to a whole point (a
    newcomer shows 1500; one loss against one opponent about 1430)."""
    return float(round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)))


class RatingChange(models.Model):
    """One rated result of one player in one game; the history behind a ``Rating``.

    Unique per (user, game): a finished game rated a second time changes nothing.
    ``rank`` is the rank used for rating (1 best; resigned or replaced players last).
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(_("game"), max_length=40)
    game_obj = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rating_changes"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rank = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game_obj"], name="ratingchange_unique_user_game"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "game", "created_at"], name="ratingchange_history"),
        ]

    def __str__(self) -> str:
        return f"rating change of {self.user_id} in game {self.game_obj_id}"

    @property
    def display_before(self) -> float:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def display_after(self) -> float:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def display_delta(self) -> float:
        return self.display_after - self.display_before
