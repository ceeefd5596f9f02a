"""The OpenAPI schema lists the error answers, with their shape, beside the successes."""

from __future__ import annotations

from django.test import Client


def test_the_schema_lists_the_error_responses() -> None:
    schema = Client().get("/api/openapi.json").json()
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "message"}
    assert set(error["properties"]) == {"code", "message"}
    ref = "#/components/schemas/Error"
    actions = schema["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]
    for status in ("400", "401", "403", "404", "409", "413", "422", "429", "503"):
        assert actions[status]["content"]["application/json"]["schema"]["$ref"] == ref, status
    assert "200" in actions
    listing = schema["paths"]["/api/games"]["get"]["responses"]
    assert {"400", "429", "503"} <= set(listing)
    assert not {"401", "404", "413"} & set(listing)  # anyone may list tables; no body
    table = schema["paths"]["/api/games/{game_id}"]["get"]["responses"]
    assert {"401", "404"} <= set(table)  # a private table, signed out
    token = schema["paths"]["/api/auth/token"]["post"]["responses"]
    assert {"400", "401", "413", "429"} <= set(token)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert {"400", "429", "503"} <= set(operation["responses"]), (method, path)
