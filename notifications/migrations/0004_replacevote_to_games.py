"""``ReplaceVote`` moves to the games app (``games.0008_replacevote``), its rows kept: the
table is renamed ``games_replacevote`` here and the model leaves this app's state; games'
0008 takes it into its state without touching the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0003_notification_tried_at'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name='replacevote', table='games_replacevote'),
            ],
            state_operations=[
                migrations.DeleteModel(name='ReplaceVote'),
            ],
        ),
    ]
