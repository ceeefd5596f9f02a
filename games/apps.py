from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import checks  # noqa: F401 (registers the system checks)
        from games.moves import effects

        # Every named effect imported now, as the apps' receivers were: otherwise the first
        # move to need one pays its module's import (accounts.ratings loads openskill, tens
        # of milliseconds, in the first move that ends a game in each process).
        effects.resolve_named()
