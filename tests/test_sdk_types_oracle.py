"""The SDKs' own request types as the oracle (issue 17): requests generated from the
official types must parse, and a same-protocol render must give them back as JSON values,
`arguments` strings byte for byte.

Done: openai `ChatCompletionMessageParam` with `st.from_type` (it resolves the TypedDicts).
Not yet: `ResponseInputItemParam` (from_type fails inside hypothesis on one of its
members), anthropic `MessageParam` (resolves the response block classes, not params) and
`google.genai.types.Content` need strategies written by hand. `SDK_EXAMPLES` (env) sets the
number of examples for a longer local run.
"""

from __future__ import annotations

import collections.abc
import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionMessageParam

from normalizer.wire import parse, render

EXAMPLES = int(os.environ.get("SDK_EXAMPLES", "300"))
# The SDK types say Iterable[X] where the wire has an array: generate small lists (left to
# itself, hypothesis also picks dicts and sets, which the SDK would not send as arrays).
st.register_type_strategy(
    collections.abc.Iterable,  # type: ignore[type-abstract]
    lambda thing: st.lists(st.from_type(thing.__args__[0]), max_size=3))


def _json(value: Any) -> Any:
    """The JSON the SDK would send: its Iterable fields become arrays."""
    return json.loads(json.dumps(value, default=list))


def _arguments(body: Any) -> list[str]:
    if isinstance(body, dict):
        own = [body["arguments"]] if isinstance(body.get("arguments"), str) else []
        return own + [a for v in body.values() for a in _arguments(v)]
    if isinstance(body, list):
        return [a for v in body for a in _arguments(v)]
    return []


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.from_type(ChatCompletionMessageParam), max_size=3))
def test_chat_messages_from_sdk_types_round_trip(messages: list[Any]) -> None:
    body = {"model": "m", "messages": _json(messages)}
    out = render(parse(body, "openai_chat"), "openai_chat", model="m")
    assert out == body
    assert sorted(_arguments(out)) == sorted(_arguments(body))
