"""A real SMTP server for the mail tests (aiosmtpd on a free local port), and the settings
that point the site at it through the production path: EMAIL_URL → colorado.env.email_config
→ Django's SMTP backend. A port nobody listens on is a mail server that is down."""

from __future__ import annotations

import email
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from colorado import env
from tests.servers import free_port


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), parsed))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Message]:
        return [message for _, recipients, message in self.messages if address in recipients]


def use_email_url(
    monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path, port: int
) -> None:
    monkeypatch.setenv("EMAIL_URL", f"smtp://127.0.0.1:{port}")
    config = env.email_config("EMAIL_URL", "console:", tmp_path)
    settings.EMAIL_BACKEND = config.backend
    settings.EMAIL_HOST = config.host
    settings.EMAIL_PORT = config.port
    settings.EMAIL_USE_TLS = config.use_tls
    settings.EMAIL_USE_SSL = config.use_ssl
    settings.EMAIL_TIMEOUT = 5


@contextmanager
def smtp_server(port: int | None = None) -> Iterator[tuple[Controller, Inbox]]:
    """A mail server listening on ``port`` (a free one if not given) until the block ends."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    try:
        yield controller, inbox
    finally:
        controller.stop()


def text_of(message: Message) -> str:
    """The text/plain part of a parsed mail."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode()
    raise AssertionError("no text/plain part")
