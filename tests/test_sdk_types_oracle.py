"""The SDKs' own request types as the oracle (issue 17): requests generated from the
official types (tests/strategies_sdk.py) must parse, and a same-protocol render must give
them back as JSON values, `arguments` strings byte for byte.

openai `ChatCompletionMessageParam` and `ResponseInputItemParam` and anthropic
`ContentBlockParam` (the blocks of a `MessageParam`) come from `st.from_type`; google-genai
`Content` is a pydantic model, so its parts are written by hand and passed through
`types.Content` the way the SDK sends them. 300 examples per protocol by default;
`SDK_EXAMPLES=5000 pytest tests/test_sdk_types_oracle.py` for a longer local run.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from anthropic.types import ContentBlockParam
from google.genai import types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam
from strategies_sdk import GEMINI_CONTENT, as_sent, union_members

from normalizer import check
from normalizer.protocols import FACTS
from normalizer.wire import parse, render

EXAMPLES = int(os.environ.get("SDK_EXAMPLES", "300"))
# derandomize: CI sees the same examples every run (a flaky oracle helps nobody);
# SDK_EXAMPLES=N with more examples explores further.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
ANTHROPIC_MESSAGE = st.fixed_dictionaries({
    "role": st.sampled_from(["user", "assistant"]),
    "content": st.text(max_size=3) | st.lists(union_members(ContentBlockParam), max_size=2)})


def _arguments(body: Any) -> list[str]:
    """Every `arguments` string in a body (sorted: render may order an object's keys anew,
    never the bytes of a string)."""
    if isinstance(body, dict):
        own = [body["arguments"]] if isinstance(body.get("arguments"), str) else []
        return sorted(own + [a for v in body.values() for a in _arguments(v)])
    if isinstance(body, list):
        return sorted(a for v in body for a in _arguments(v))
    return []


def _round_trip(body: dict[str, Any], protocol: str, **options: Any) -> None:
    # A body the SDK's types allow is never unreadable to check(): it may break rules,
    # never raise (check's request skeleton is as loose as the types).
    check(body, FACTS[protocol].reference_provider)
    out = render(parse(body, protocol), protocol, model="m", options=options or None)
    if protocol == "gemini":
        out.pop("model", None)
    assert out == body
    assert _arguments(out) == _arguments(body)


@SETTINGS
@given(st.lists(st.from_type(ChatCompletionMessageParam), max_size=3))
def test_chat_messages_from_sdk_types(messages: list[Any]) -> None:
    _round_trip({"model": "m", "messages": as_sent(messages)}, "openai_chat")


@SETTINGS
@given(st.lists(union_members(ResponseInputItemParam), max_size=3))
def test_responses_items_from_sdk_types(items: list[Any]) -> None:
    _round_trip({"model": "m", "input": as_sent(items)}, "openai_responses")


@SETTINGS
@given(st.lists(ANTHROPIC_MESSAGE, max_size=3))
def test_anthropic_messages_from_sdk_types(messages: list[Any]) -> None:
    _round_trip({"model": "m", "max_tokens": 5, "messages": as_sent(messages)}, "anthropic",
                max_tokens=5)


@SETTINGS
@given(st.lists(GEMINI_CONTENT, max_size=3))
def test_gemini_contents_from_sdk_types(contents: list[dict[str, Any]]) -> None:
    sent = [types.Content.model_validate(c).model_dump(by_alias=True, exclude_none=True,
                                                       mode="json") for c in contents]
    _round_trip({"contents": sent}, "gemini")


# Two shapes this oracle found, fixed since: an assistant item holding `input_*` parts
# (which vendors refuse there) lost its item fields, and consecutive assistant message
# items came back merged into one.
def test_a_null_phase_is_kept() -> None:
    body = {"input": [{"role": "assistant", "content": [{"type": "input_file"}], "phase": None}]}
    assert render(parse(body, "openai_responses"), "openai_responses")["input"] == body["input"]


@pytest.mark.parametrize("contents", [("", ""), ("", "0"), ("a", "b")])
def test_consecutive_assistant_items_stay_apart(contents: tuple[str, str]) -> None:
    body = {"input": [{"role": "assistant", "content": c} for c in contents]}
    assert render(parse(body, "openai_responses"), "openai_responses")["input"] == body["input"]
