"""The server's JSON text (games/store/jsontext.py): compact, and what the standard library would
decode to, also for the values orjson refuses."""

from __future__ import annotations

import json

from games.store import jsontext


def test_a_value_orjson_refuses_is_still_compact_json() -> None:
    value = {1: "a", "big": 2**70, "list": [1, 2]}  # a non-string key, an integer past 64 bits
    text = jsontext.dumps(value)
    assert text == '{"1":"a","big":1180591620717411303424,"list":[1,2]}'
    assert json.loads(text) == json.loads(json.dumps(value))
    assert jsontext.dumpb(value) == text.encode()


def test_a_document_is_compact_json() -> None:
    assert jsontext.dumps({"a": [1, {"b": None}]}) == '{"a":[1,{"b":null}]}'
