"""The registered names of the tasks one app queues in another, so that a lower layer
(``games``: the deadline sweep's missed-turn and vacation mails) can queue a higher one's task
(``notifications.tasks``) by name, with ``colorado.task_queue.queue_task``, without importing it.

Most keep the names they were registered under when they lived in ``games.tasks_mail``, so
messages already queued under those names still run and the beat schedule is unchanged.
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
