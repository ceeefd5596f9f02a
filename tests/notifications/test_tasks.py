"""The mail tasks as a worker finds them: ``notifications.tasks`` (autodiscovered), under the
names they were first registered with (``games.tasks_mail.*``), so messages queued before the
move still run; and every entry of the beat schedule names a task a worker knows."""

from __future__ import annotations

from django.conf import settings

from colorado.celery import app
from notifications import tasks

OLD_NAMES = {
    "games.tasks_mail.send_turn_email": tasks.send_turn_email,
    "games.tasks_mail.send_reminder": tasks.send_reminder,
    "games.tasks_mail.send_finished_email": tasks.send_finished_email,
    "games.tasks_mail.send_missed_email": tasks.send_missed_email,
    "games.tasks_mail.send_digest": tasks.send_digest,
    "games.tasks_mail.send_digests": tasks.send_digests,
    "games.tasks_mail.send_vacation_email": tasks.send_vacation_email,
    "games.tasks_mail.send_outbox_mail": tasks.send_outbox_mail,
}


def _worker_tasks() -> dict[str, object]:
    """The registry once the task modules are imported as a worker imports them."""
    app.loader.import_default_modules()
    app.autodiscover_tasks(force=True)
    return dict(app.tasks)


def test_queued_mails_under_the_old_names_reach_the_moved_tasks() -> None:
    registered = _worker_tasks()
    for name, task in OLD_NAMES.items():
        assert registered.get(name) is task._get_current_object(), name
        assert registered[name].run.__module__ == "notifications.tasks"


def test_every_beat_entry_names_a_task_the_worker_runs() -> None:
    registered = _worker_tasks()
    for entry, schedule in settings.CELERY_BEAT_SCHEDULE.items():
        assert schedule["task"] in registered, entry
    assert settings.CELERY_BEAT_SCHEDULE["send-digests"]["task"] == tasks.send_digests.name
    assert "games.tasks_mail" not in settings.CELERY_IMPORTS
