from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
    # A finished table steps its tournament: tournaments.receivers.table_over, named in
    # games.moves.effects.AFTER_COMMIT.
