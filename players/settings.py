"""A player's settings saved: the account's own fields (``accounts.services``) and vacation
taken in advance (``away_until``), which goes through the clock rules
(``games.clocks.vacation.vacation_take`` / ``vacation_cancel``): they charge vacation days and
pause the player's clocks in every game, in the same transaction as the other fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.models import User
from accounts.services import SettingsError, user_settings_check, user_settings_save
from games.clocks.vacation import VacationError, vacation_cancel, vacation_take


def settings_update(*, user: User, changes: Mapping[str, Any]) -> User:
    """Check ``changes`` (``accounts.services.user_settings_check``), then save them all, or
    nothing; raises ``SettingsError`` for the first bad one."""
    cleaned = user_settings_check(user=user, changes=changes)
    away_changed = "away_until" in cleaned and cleaned["away_until"] != user.away_until
    away = cleaned.pop("away_until", None)
    with transaction.atomic():
        if away_changed:
            try:
                if away is None:
                    updated = vacation_cancel(user=user)
                else:
                    updated = vacation_take(user=user, until=away)
            except VacationError as exc:
                raise SettingsError("away_until", exc.message) from None
            user.away_until = updated.away_until
            user.vacation_days = updated.vacation_days
        user_settings_save(user=user, cleaned=cleaned)
    return user
