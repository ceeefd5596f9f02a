from django.apps import AppConfig


class Colorado2023Config(AppConfig):
    """Colorado' web side: registers its ``WebTitle`` (``web.py``); its templates and
    translations are found as any app's."""

    name = "titles.colorado_2023"
    label = "title_colorado_2023"
    verbose_name = "Colorado"

    def ready(self) -> None:
        from games.titles import register

        from .web import TITLE

        register(TITLE)
