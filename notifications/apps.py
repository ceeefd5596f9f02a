from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from games.signals import game_advanced, game_finished
        from notifications import receivers

        game_advanced.connect(receivers.on_game_advanced, dispatch_uid="notifications.turn")
        game_finished.connect(receivers.on_game_finished, dispatch_uid="notifications.finished")
