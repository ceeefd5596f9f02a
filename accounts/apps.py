from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from accounts.models import ApiToken, User
        from accounts.ratings import on_game_finished
        from accounts.services import token_cache_clear
        from games.signals import game_finished

        game_finished.connect(on_game_finished, dispatch_uid="accounts.ratings")
        for signal in (post_save, post_delete):
            for model in (User, ApiToken):
                signal.connect(
                    token_cache_clear,
                    sender=model,
                    dispatch_uid=f"accounts.tokens.{model.__name__}",
                )
