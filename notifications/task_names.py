"""The mail tasks' registered names and retry timing (the tasks: ``notifications.tasks``).

The services, the outbox and the sweeps queue a mail by its name
(``colorado.task_queue.queue_task``), since the tasks call those modules back.

Most keep the names they were registered under when they lived in ``games.tasks_mail``,
so messages already queued under those names still run and the beat schedule's
``send-digests`` entry is unchanged.
"""

TURN_MAIL = "games.tasks_mail.send_turn_email"
REMINDER_MAIL = "games.tasks_mail.send_reminder"
FINISHED_MAIL = "games.tasks_mail.send_finished_email"
MISSED_MAIL = "games.tasks_mail.send_missed_email"
DIGEST_MAIL = "games.tasks_mail.send_digest"
DIGESTS = "games.tasks_mail.send_digests"
INVITATION_MAIL = "notifications.tasks.send_invitation_email"
VACATION_MAIL = "games.tasks_mail.send_vacation_email"
OUTBOX_MAIL = "games.tasks_mail.send_outbox_mail"
PUSH = "notifications.tasks.send_push"

RETRY_BACKOFF = 30  # seconds before the first retry (then doubling, with full jitter) …
RETRY_BACKOFF_MAX = 3600  # … up to an hour between tries
