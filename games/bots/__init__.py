"""The bots, by job: ``players`` (their accounts, their levels, how a bot picks its action,
when one is due), ``play`` (one bot move), ``tasks`` (the Celery task that plays them),
``wakeup`` (queueing that task by its name), ``fair_queue`` (which bot work is served
first), ``search_process`` (where a searching bot thinks in embedded mode), ``stalled``
(bots that should have moved, queued again by the sweep) and ``bot_only_tables`` (tables
with no person left)."""
