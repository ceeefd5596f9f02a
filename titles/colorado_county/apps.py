from django.apps import AppConfig


class ColoradoCountyConfig(AppConfig):
    """Colorado County's web side: registers its ``WebTitle`` (``web.py``); its templates,
    static files and template tags are found as any app's."""

    name = "titles.colorado_county"
    label = "title_colorado_county"
    verbose_name = "Colorado County"

    def ready(self) -> None:
        # Imported here: models, and what imports them, load only once the app registry is
        # ready (Django's AppConfig.ready); importing them at the top would be too early.
        from games.titles import register

        from .web import TITLE

        register(TITLE)
