from django.apps import AppConfig


class Colorado2023Config(AppConfig):
    """Colorado' web side: registers its ``WebTitle`` (``web.py``); its templates and
    translations are found as any app's."""

    name = "titles.colorado_2023"
    label = "title_colorado_2023"
    verbose_name = "Colorado"

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from games.titles import register

        from .web import TITLE

        register(TITLE)
