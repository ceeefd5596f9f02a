from django.db import migrations, models


class Migration(migrations.Migration):
    """The bot level a table chose (``Game.bot_kind``): it plays the bot seats and stands in
    for a late player. Existing tables keep the title's stand-in (blank)."""

    dependencies = [("games", "0009_drop_sealed_bid")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bot_kind",
            field=models.CharField(blank=True, max_length=32, verbose_name="bot level"),
        )
    ]
