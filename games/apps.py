from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import checks  # noqa: F401 (registers the system checks)
        from games.clocks import advance
        from games.signals import game_advanced

        # Clocks start and stop inside the move's transaction (docs/clocks.md).
        game_advanced.connect(advance.on_game_advanced, dispatch_uid="games.clocks")
