"""Bots wear their level as display name, without a number ("Greedy bot", not "Greedy bot 3",
which read as a seat number); the table tells two bots of a level apart by their seat."""

from django.db import migrations


def rename_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.filter(is_bot=True).exclude(bot_kind=""):
        name = f"{user.bot_kind.capitalize()} bot"
        if user.display_name != name:
            user.display_name = name
            user.save(update_fields=["display_name"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_api_token_expires_at")]
    operations = [migrations.RunPython(rename_bots, migrations.RunPython.noop)]
