"""The mail tasks' retry timing (the tasks: ``notifications.tasks``; their names:
``colorado.task_names``, since the services, the outbox and the sweeps queue a mail by its
name, and the tasks call those modules back).
"""

RETRY_BACKOFF = 30  # seconds before the first retry (then doubling, with full jitter) …
RETRY_BACKOFF_MAX = 3600  # … up to an hour between tries
