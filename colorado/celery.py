"""The Celery app. Tasks live in each Django app's ``tasks.py`` and take ids, not objects."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")

app = Celery("colorado")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["colorado"])
