from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from accounts.ratings import on_game_finished
        from games.signals import game_finished

        game_finished.connect(on_game_finished, dispatch_uid="accounts.ratings")
