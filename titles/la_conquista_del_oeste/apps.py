from django.apps import AppConfig


class LaConquistaConfig(AppConfig):
    """La Conquista del Oeste's web side: registers its ``WebTitle`` (``web.py``); its
    templates, static files and template tags are found as any app's."""

    name = "titles.la_conquista_del_oeste"
    label = "title_la_conquista_del_oeste"
    verbose_name = "La Conquista del Oeste"

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from games.titles import register

        from .web import TITLE

        register(TITLE)
