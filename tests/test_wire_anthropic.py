"""normalizer.wire.anthropic: round trip, faithful rendering of broken histories, and
bodies as the unmodified anthropic SDK sends them (captured on a loopback server)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anthropic
import pytest
from anthropic.types import ContentBlockParam, MessageParam, TextBlockParam, ToolParam
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from hypothesis import given, settings
from loopback import Answer, Loopback
from pydantic import BaseModel, TypeAdapter
from sizing import examples
from strategies_anthropic_gemini import anthropic_histories, wire_soup

from normalizer.errors import WireFormatError
from normalizer.model import History, Message, Text, Thinking, ToolCall, ToolResult, ToolSpec
from normalizer.tools import parse_declarations
from normalizer.wire import anthropic as wire

ANSWER = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
          "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
          "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
BODY_TYPE: TypeAdapter[Any] = TypeAdapter(MessageCreateParamsNonStreaming)
BLOCK_TYPE: TypeAdapter[Any] = TypeAdapter(ContentBlockParam)
WEATHER = ToolSpec("get_weather", "Current weather.",
                   {"type": "object", "properties": {"city": {"type": "string"}}})


@pytest.fixture(scope="module")
def sdk() -> Iterator[tuple[anthropic.Anthropic, Loopback]]:
    with Loopback(Answer.json(ANSWER)) as recorder:
        client = anthropic.Anthropic(base_url=recorder.url, api_key="test", max_retries=0)
        yield client, recorder
        client.close()


def _materialize(value: Any) -> Any:
    """pydantic validates TypedDict Iterables lazily; walking them runs the validation.
    A response model (which keeps unknown keys as `model_extra`) becomes a marker that
    never compares equal to a request block."""
    if isinstance(value, BaseModel):
        if value.model_extra:
            return {"unknown fields": sorted(value.model_extra)}
        return _materialize(value.model_dump(exclude_unset=True))
    if isinstance(value, dict):
        return {k: _materialize(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return [_materialize(v) for v in value]


def _fits(adapter: TypeAdapter[Any], value: Any) -> bool:
    """pydantic drops unknown TypedDict keys, so a lossless round trip means none were."""
    return bool(_materialize(adapter.validate_python(value)) == value)


def _sdk_accepts(body: dict[str, Any]) -> bool:
    """The SDK's own request TypedDicts accept `body` and know every field in it. Blocks
    are checked against the request block types alone: MessageParam's union also admits
    response models, which keep unknown keys."""
    if not _fits(BODY_TYPE, {**body, "messages": []}):
        return False
    for message in body["messages"]:
        content = message["content"]
        blocks = [] if isinstance(content, str) else content
        if set(message) != {"role", "content"} or message["role"] not in ("user", "assistant"):
            return False
        if not all(_fits(BLOCK_TYPE, block) for block in blocks):
            return False
    return True


# CI depth 150: the lines and branches of normalizer/wire that 300 reached (coverage,
# 2026-11-23); the thorough depth draws 1000 anew (tests/sizing.py).
@settings(max_examples=examples(150, 1000), deadline=None)
@given(anthropic_histories())
def test_round_trip(history: History) -> None:
    assert wire.parse(wire.render(history, model="m")) == history


@settings(max_examples=100, deadline=None)
@given(anthropic_histories(sdk_valid=True))
def test_rendered_bodies_fit_the_sdk_types(history: History) -> None:
    assert _sdk_accepts(wire.render(history, tools=[WEATHER], model="m"))


@pytest.mark.parametrize("block", [
    {"type": "tool_use", "id": "t", "name": "f", "input": {}, "thought_signature": "x"},
    {"type": "text", "text": "a", "thought_signature": "x"},
    {"type": "tool_result", "tool_use_id": "t", "content": "r", "name": "f"},
])
def test_the_sdk_type_check_catches_unknown_fields(block: dict[str, Any]) -> None:
    body = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [block]}]}
    assert not _sdk_accepts(body)


def _typed_request() -> dict[str, Any]:
    """A request spelled with the SDK's own TypedDicts: every block kind we map."""
    system: list[TextBlockParam] = [
        {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}]
    messages: list[MessageParam] = [
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Two cities.", "signature": "sig1"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
             "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_2", "name": "get_weather",
             "input": {"city": "Rome"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": True,
             "content": [{"type": "text", "text": "timeout"}]},
            {"type": "text", "text": "Summarize.", "cache_control": {"type": "ephemeral"}}]},
    ]
    tools: list[ToolParam] = [{"name": WEATHER.name, "description": WEATHER.description,
                               "input_schema": WEATHER.input_schema.thaw()}]
    return {"model": "claude-test", "max_tokens": 64, "system": system,
            "messages": messages, "tools": tools}


EXPECTED = History((
    Message("system", (Text("Be brief.", {"cache_control": {"type": "ephemeral"}}),)),
    Message("user", (Text("Weather in Paris and Rome?"),)),
    Message("assistant", (
        Thinking("Two cities.", signature="sig1", vendor="anthropic"),
        Thinking("", signature="opaque", vendor="anthropic", redacted=True),
        Text("Checking."),
        ToolCall("get_weather", {"city": "Paris"}, id="toolu_1"),
        ToolCall("get_weather", {"city": "Rome"}, id="toolu_2"))),
    Message("tool", (
        ToolResult("toolu_1", "18C"),
        ToolResult("toolu_2", (Text("timeout"),), is_error=True),
        Text("Summarize.", {"cache_control": {"type": "ephemeral"}}))),
))


def test_sdk_captured_body_parses_and_renders_back(sdk: tuple[Any, Loopback]) -> None:
    client, recorder = sdk
    client.messages.create(**_typed_request())
    path, sent = recorder.last()
    assert path == "/v1/messages"
    assert wire.parse(sent) == EXPECTED
    tools = parse_declarations(sent["tools"], "anthropic")
    again = wire.render(wire.parse(sent), tools=tools, model=sent["model"],
                        options={"max_tokens": sent["max_tokens"]})
    assert again == sent


def test_sdk_sends_a_rendered_body_unchanged(sdk: tuple[Any, Loopback]) -> None:
    client, recorder = sdk
    body = wire.render(EXPECTED, tools=[WEATHER], model="claude-test",
                       options={"tool_choice": {"type": "auto"}})
    client.messages.create(**body)
    assert recorder.last()[1] == body


def test_max_tokens_default_options_and_no_tools_key() -> None:
    history = History((Message("user", (Text("hi"),)),))
    body = wire.render(history, model="m")
    assert body == {"model": "m", "max_tokens": wire.DEFAULT_MAX_TOKENS,
                    "messages": [{"role": "user", "content": "hi"}]}
    body = wire.render(history, model="m", options={"max_tokens": 9, "stream": True})
    assert (body["max_tokens"], body["stream"], "tools" in body) == (9, True, False)


def test_orphan_result_and_missing_result_stay_broken() -> None:
    history = History((
        Message("user", (Text("go"),)),
        Message("tool", (ToolResult("toolu_gone", "late"),)),
        Message("assistant", (ToolCall("f", {}, id="toolu_1"),)),
        Message("user", (Text("no result came"),)),
    ))
    body = wire.render(history, model="m")
    assert body["messages"] == [
        {"role": "user", "content": "go"},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_gone", "content": "late"}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": "no result came"},
    ]
    assert wire.parse(body) == history


def test_other_broken_shapes_render_as_sent() -> None:
    history = History((
        Message("user", (Text(""),)),
        Message("system", (Text("late system"),)),
        Message("assistant", (ToolCall("f", "not json", id=None),)),
        Message("tool", (ToolResult(None, "r1"),)),
        Message("tool", (ToolResult("x", "r2"),)),
    ))
    body = wire.render(history, model="m")
    assert body["messages"] == [
        {"role": "user", "content": ""},
        {"role": "system", "content": "late system"},
        {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": "not json"}]},
        {"role": "user", "content": [{"type": "tool_result", "content": "r1"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "r2"}]},
    ]
    assert "system" not in body
    assert wire.parse(body) == history


def test_foreign_extras_are_not_sent() -> None:
    history = History((
        Message("system", (Text("s"),), extras={"role": "developer"}),
        Message("assistant", (ToolCall("f", {}, id="c1", extras={
            "thought_signature": "x", "derived_id": True, "function": {"strict": True}}),)),
        Message("user", (Text("a", {"item": {"id": "msg_1"}, "citations": []}),),
                extras={"name": "bob"}),
    ))
    body = wire.render(history, model="m")
    assert body["system"] == "s"
    assert body["messages"][0]["content"][0] == {"type": "tool_use", "id": "c1", "name": "f",
                                                 "input": {}}
    assert body["messages"][1] == {"role": "user", "content": [
        {"type": "text", "text": "a", "citations": []}]}


@pytest.mark.parametrize(("body", "where"), [
    ([], "body"),
    ({"model": "m"}, "messages"),
    ({"messages": [{"role": "bot", "content": "x"}]}, "messages[0].role"),
    ({"messages": [{"role": "user"}]}, "messages[0]"),
    ({"messages": [{"role": "user", "content": 3}]}, "messages[0].content"),
    ({"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": [
        {"type": "text", "text": "a"}, {"type": 5}]}]},
     "messages[1].content[1].type"),
    ({"messages": [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "t", "name": "f", "input": [1]}]}]},
     "messages[0].content[0].input"),
    ({"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]}]},
     "messages[0].content[0].name"),
    ({"messages": [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "tool_use"}]}]}]},
     "messages[0].content[0].content[0].name"),
    ({"system": 5, "messages": []}, "system"),
])
def test_errors_name_the_path(body: Any, where: str) -> None:
    with pytest.raises(WireFormatError) as info:
        wire.parse(body)
    assert info.value.where == where
    assert str(info.value).startswith(f"{where}: ")


SOUP_KEYS = ["system", "role", "content", "type", "text", "id", "name", "input", "tool_use_id",
             "is_error", "thinking", "signature", "data", "user", "assistant", "tool_use",
             "tool_result", "redacted_thinking", "cache_control"]


@settings(max_examples=100, deadline=None)
@given(wire_soup(SOUP_KEYS, "messages"))
def test_any_body_parses_or_raises_wire_format_error(body: dict[str, Any]) -> None:
    try:
        history = wire.parse(body)
    except WireFormatError as error:
        assert error.where.split(".")[0].split("[")[0] in ("messages", "system")
    else:
        # Fields named like another protocol's extras are read but not written back (see
        # the docs), so the round trip is exact from the second pass on.
        once = wire.parse(wire.render(history, model="m"))
        assert wire.parse(wire.render(once, model="m")) == once
