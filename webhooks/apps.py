from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from webhooks import events

        events.connect()
