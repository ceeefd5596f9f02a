"""``manage.py serve``: the embedded run mode — web server, task worker and scheduler in one
process, for a machine without Redis. Ctrl-C stops all three."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from colorado import realtime
from colorado.celery import app as celery_app
from colorado.embedded import worker_and_scheduler
from colorado.server_options import UVICORN_CONFIG


class Command(BaseCommand):
    help = "Serve the site with an embedded Celery worker and beat scheduler (no Redis needed)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=settings.PORT)
        parser.add_argument("--no-worker", action="store_true", help="Serve only the web site.")

    def handle(self, *args: Any, host: str, port: int, no_worker: bool, **options: Any) -> None:
        if not settings.EMBEDDED and not no_worker:
            raise CommandError(
                "REDIS_URL is set: run the worker and scheduler as their own processes "
                "(python3 dev.py run does this), or pass --no-worker."
            )
        config = uvicorn.Config(
            "colorado.asgi:application",
            host=host,
            port=port,
            lifespan="off",
            log_level="info",
            # As dev.py run and the README: colorado/server_options.py.
            **UVICORN_CONFIG,
        )
        server = uvicorn.Server(config)

        async def serve() -> None:
            realtime.set_server_loop(asyncio.get_running_loop())
            try:
                await server.serve()
            finally:
                realtime.set_server_loop(None)

        try:
            if no_worker:
                asyncio.run(serve())
                return
            with worker_and_scheduler(
                celery_app, schedule_filename=settings.CELERY_BEAT_SCHEDULE_FILENAME
            ):
                self.stdout.write("Task worker and periodic scheduler running in this process.")
                asyncio.run(serve())
        except KeyboardInterrupt:
            pass
        self.stdout.write("Stopped the web server, the task worker and the scheduler.")
