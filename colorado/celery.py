"""The Celery app. Tasks live in each Django app's ``tasks.py`` and take ids, not objects."""

import logging
import os

from celery import Celery
from celery.signals import worker_process_init
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    """The worker's consumer (``CELERY_WORKER_CONSUMER``), made to outlive a broker restart.

    Celery 5.7 / kombu 5.7, on a lost Redis connection, first takes the connection apart
    (``collect``: the transport forgets its URL) and then closes it. Closing the channel
    puts the messages it holds unacknowledged (tasks running or reserved, with acks_late)
    back, for which it needs a client built from that URL: ``AttributeError: 'NoneType'
    object has no attribute 'hostname'``, which is not a connection error, so the consumer
    gave up and the worker exited ("Unrecoverable error"). It happened when a restart found
    the worker busy: one restart in two under load. Here that close is allowed to fail;
    the messages stay in Redis' unacked set and come back after the visibility timeout
    (if Redis lost them, the sweep queues the stalled bots again).

    Gossip and Mingle are left out (``--without-gossip --without-mingle`` for every
    worker): their broadcast queues fail the same way on every restart ("Error on
    restarting Gossip: AttributeError"), and we use neither; the workers share nothing but
    the task queue. Remote control (``celery inspect``) and heartbeats stay.
    """

    class Blueprint(CeleryConsumer.Blueprint):
        default_steps = [
            step
            for step in CeleryConsumer.Blueprint.default_steps
            if step
            not in ("celery.worker.consumer.mingle:Mingle", "celery.worker.consumer.gossip:Gossip")
        ]

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        connection = self.connection
        if connection is not None:
            close = connection.close

            def close_what_is_left() -> None:
                try:
                    close()
                except AttributeError as error:  # taken apart already: nothing to close
                    log.warning("broker connection closed uncleanly after loss: %r", error)

            connection.close = close_what_is_left
        super().on_connection_error_after_connected(exc)


app = Celery("colorado")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["colorado"])

#: How much lower a worker process runs than the web server (``nice``): the bots' searches
#: (seconds of CPU a move) give way to the pages on a busy machine; the search's budget is a
#: time, so a bot thinks a little less deeply then (docs/bots.md, "Fair bot capacity").
WORKER_NICENESS = 10


@worker_process_init.connect
def _lower_priority(**_kwargs: object) -> None:
    """Each worker process (prefork) runs at ``WORKER_NICENESS``."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError as exc:  # not permitted here: it keeps the web's priority
        log.info("worker process keeps its priority: %s", exc)
