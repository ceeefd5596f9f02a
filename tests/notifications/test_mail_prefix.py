"""Issue 43, trial item 4: account mails said "[Colorado County]" and game mails had no
prefix. Every mail now comes from the site's name and carries it as the subject's prefix:
the site hosts several titles, and its name is not one of theirs."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.tables import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)


def test_account_and_game_mails_share_the_site_s_name_as_prefix(person, mailoutbox):
    alice, bob = person("alice"), person("bob")
    lifecycle.game_create(creator=alice, title="la-conquista-del-oeste", players=2, invite=["bob"])
    Client().post("/accounts/password/reset/", {"email": alice.email})
    invitation = next(m for m in mailoutbox if m.to == [bob.email])
    reset = next(m for m in mailoutbox if m.to == [alice.email] and "Password" in m.subject)
    prefix = f"[{settings.SITE_NAME}] "
    assert settings.SITE_NAME == "Colorado County online"
    for message in (invitation, reset):
        assert message.subject.startswith(prefix), message.subject
        assert message.from_email.startswith(f"{settings.SITE_NAME} <"), message.from_email
    assert invitation.subject == (
        f"{prefix}“@alice” invites you to La Conquista del Oeste, table "
        f"{invitation.subject.rsplit(' ', 1)[1]}"
    )
    assert "[Colorado County]" not in invitation.subject + reset.subject
