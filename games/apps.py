from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from accounts.names import bot_kinds_register
        from games import checks  # noqa: F401 (registers the system checks)
        from games.bots.players import every_bot_kind
        from games.moves import effects

        bot_kinds_register(every_bot_kind)

        # Every named effect imported now, as the apps' receivers were: otherwise the first
        # move to need one pays its module's import (games.records.ratings loads openskill, tens
        # of milliseconds, in the first move that ends a game in each process).
        effects.resolve_named()
