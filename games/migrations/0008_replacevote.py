"""``ReplaceVote`` comes from the notifications app with its rows: notifications' 0004
renamed the table to ``games_replacevote`` and dropped the model from its state; here the
model enters this app's state only (no SQL), and its content type (the admin's permissions
point at it) follows it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def content_type_to_games(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    db = schema_editor.connection.alias
    if ContentType.objects.using(db).filter(app_label='games', model='replacevote').exists():
        return
    ContentType.objects.using(db).filter(app_label='notifications', model='replacevote').update(
        app_label='games'
    )


def content_type_to_notifications(apps, schema_editor):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    db = schema_editor.connection.alias
    if ContentType.objects.using(db).filter(app_label='notifications', model='replacevote').exists():
        return
    ContentType.objects.using(db).filter(app_label='games', model='replacevote').update(
        app_label='notifications'
    )


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0007_game_title'),
        ('notifications', '0004_replacevote_to_games'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ReplaceVote',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('seat', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.seat')),
                        ('voter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'constraints': [models.UniqueConstraint(fields=('seat', 'voter'), name='replacevote_unique_voter')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_games, content_type_to_notifications),
    ]
