from django.db import migrations, models


class Migration(migrations.Migration):
    """``Game.game`` held the title's slug; it is called ``title`` now (the API keeps the
    ``game`` key of its documents)."""

    dependencies = [("games", "0006_game_running_updated")]

    operations = [
        migrations.RenameField(model_name="game", old_name="game", new_name="title"),
        migrations.AlterField(
            model_name="game",
            name="title",
            field=models.CharField(max_length=40, verbose_name="title"),
        ),
    ]
