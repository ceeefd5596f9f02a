from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from django.db.models.signals import post_delete, post_save

        from accounts.models import ApiToken, User
        from accounts.services import token_cache_clear

        # Ratings follow a finished game: named in games.moves.effects.DURABLE_FINISH.
        for signal in (post_save, post_delete):
            for model in (User, ApiToken):
                signal.connect(
                    token_cache_clear,
                    sender=model,
                    dispatch_uid=f"accounts.tokens.{model.__name__}",
                )
