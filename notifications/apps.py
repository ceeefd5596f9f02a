from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from games.models import ChatMessage, Game, Seat
        from games.signals import game_advanced, game_finished
        from notifications import live, push_events, receivers

        game_advanced.connect(receivers.on_game_advanced, dispatch_uid="notifications.turn")
        game_finished.connect(receivers.on_game_finished, dispatch_uid="notifications.finished")
        post_save.connect(receivers.on_game_created, sender=Game, dispatch_uid="mail.invite")
        # Chat that names a player pushes to their devices (notifications.push_events).
        post_save.connect(push_events.on_chat_saved, sender=ChatMessage, dispatch_uid="push.chat")
        # The live lobby and the header's inbox count (notifications.consumers).
        post_save.connect(live.on_game_saved, sender=Game, dispatch_uid="live.game")
        post_save.connect(live.on_seat_changed, sender=Seat, dispatch_uid="live.seat")
        post_delete.connect(live.on_seat_changed, sender=Seat, dispatch_uid="live.seat_gone")
        game_advanced.connect(live.on_game_advanced, dispatch_uid="live.advanced")
        game_finished.connect(live.on_game_finished, dispatch_uid="live.finished")
