"""Game endpoints of the JSON API (paths and shapes: ../shared/spec/api.md)."""

from ninja import Router

router = Router(tags=["games"])
