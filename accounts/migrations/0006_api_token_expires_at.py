"""API tokens expire: existing tokens get ``created_at + API_TOKEN_DAYS`` (a token older
than that stops working when this runs; its owner makes a new one)."""

import datetime

from django.conf import settings
from django.db import migrations, models


def expires_from_created(apps, schema_editor):
    ApiToken = apps.get_model("accounts", "ApiToken")
    days = datetime.timedelta(days=getattr(settings, "API_TOKEN_DAYS", 90))
    for token in ApiToken.objects.filter(expires_at__isnull=True).only("pk", "created_at"):
        ApiToken.objects.filter(pk=token.pk).update(expires_at=token.created_at + days)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_vacation_accrued_on"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(null=True, verbose_name="expires"),
        ),
        migrations.RunPython(expires_from_created, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(verbose_name="expires"),
        ),
        migrations.AlterModelOptions(
            name="apitoken",
            options={"verbose_name": "API token", "verbose_name_plural": "API tokens"},
        ),
        migrations.AlterField(
            model_name="apitoken",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, verbose_name="created"),
        ),
        migrations.AlterField(
            model_name="apitoken",
            name="last_used_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="last used"),
        ),
        migrations.AlterField(
            model_name="apitoken",
            name="name",
            field=models.CharField(blank=True, max_length=60, verbose_name="name"),
        ),
    ]
