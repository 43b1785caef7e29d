"""The speed work serialises frozen JSON values directly (no thawed copy first): the bytes
must be those of `json.dumps(thaw(value), ...)`, which is what the code did before."""

from __future__ import annotations

import json

from normalizer.model import JsonMap, thaw
from normalizer.passes.ids import _CANONICAL
from normalizer.wire._openai_common import arguments_to_wire

VALUE = JsonMap({"z": 1.5, "a": [1, {"y": "é", "b": None, "c": [True, 2e300, -0.0]}],
                 "m": {"k": ("x", {"q": 1})}, "\u2603": "snow", "": {}, "l": []})


def test_arguments_render_as_dumping_the_thawed_value() -> None:
    assert arguments_to_wire(VALUE) == json.dumps(thaw(VALUE), ensure_ascii=False,
                                                  separators=(",", ":"))
    assert arguments_to_wire("not json") == "not json"


def test_call_keys_serialise_as_dumping_the_thawed_value_sorted() -> None:
    assert _CANONICAL.encode(VALUE) == json.dumps(thaw(VALUE), sort_keys=True,
                                                  ensure_ascii=False, separators=(",", ":"))
