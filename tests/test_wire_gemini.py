"""normalizer.wire.gemini: round trip, faithful rendering of broken histories, the SDK's
pydantic types accepting what we render, and bodies as the unmodified google-genai SDK
sends them (captured on a loopback server)."""

from __future__ import annotations

import base64
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from google import genai
from google.genai import types
from hypothesis import given, settings
from loopback import Answer, Loopback
from sizing import examples
from strategies_anthropic_gemini import gemini_histories, wire_soup

from normalizer.errors import WireFormatError
from normalizer.model import History, Message, Text, Thinking, ToolCall, ToolResult, ToolSpec
from normalizer.wire import gemini as wire

ANSWER = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]},
                          "finishReason": "STOP"}]}
SIG = base64.urlsafe_b64encode(b"\xfb\xffsignature-1").decode()
WEATHER = ToolSpec("get_weather", "Current weather.",
                   {"type": "object", "properties": {"city": {"type": "string"}}})


@pytest.fixture(scope="module")
def sdk() -> Iterator[tuple[genai.Client, Loopback]]:
    with Loopback(Answer.json(ANSWER)) as recorder:
        options = types.HttpOptions(base_url=recorder.url,
                                    retry_options=types.HttpRetryOptions(attempts=1))
        client = genai.Client(api_key="test", http_options=options)
        yield client, recorder
        client.close()


def _as_sent(model: type[types.BaseModel], value: dict[str, Any]) -> dict[str, Any]:
    """What the SDK would send for `value`: validated by its pydantic type (extra fields are
    forbidden there), then dumped the way it serializes request bodies."""
    dumped: dict[str, Any] = model.model_validate(value).model_dump(
        by_alias=True, exclude_none=True, mode="json")
    return dumped


# CI depth 150: the lines and branches of normalizer/wire that 300 reached (coverage,
# 2026-11-23); the thorough depth draws 1000 anew (tests/sizing.py).
@settings(max_examples=examples(150, 1000), deadline=None)
@given(gemini_histories())
def test_round_trip(history: History) -> None:
    """Round trip, except that a result without a name comes back with its call's name
    (the renderer fills it in where the history knows it, as Gemini requires)."""
    back = wire.parse(wire.render(history, model="ignored"))
    names = {c.name for m in history for c in m.tool_calls}
    assert len(back) == len(history)
    for before, after in zip(history, back, strict=True):
        assert len(before.parts) == len(after.parts)
        parts = []
        for was, now in zip(before.parts, after.parts, strict=True):
            if isinstance(was, ToolResult) and was.name is None and isinstance(now, ToolResult):
                assert now.name is None or now.name in names
                now = dataclasses.replace(now, name=None)
            parts.append(now)
        assert dataclasses.replace(after, parts=tuple(parts)) == before


@settings(max_examples=100, deadline=None)
@given(gemini_histories(sdk_valid=True))
def test_sdk_types_accept_what_we_render(history: History) -> None:
    body = wire.render(history, tools=[WEATHER], model="ignored")
    for content in body["contents"]:
        assert _as_sent(types.Content, content) == content
    config = {k: body[k] for k in ("systemInstruction", "tools") if k in body}
    types.GenerateContentConfig.model_validate(config)
    if "systemInstruction" in body:
        assert _as_sent(types.Content, body["systemInstruction"]) == body["systemInstruction"]


EXPECTED = History((
    Message("system", (Text("Be brief."),), extras={"role": "user"}),
    Message("user", (Text("Weather in Paris and Rome?"),)),
    Message("assistant", (
        Thinking("Two cities.", signature=SIG, vendor="gemini"),
        ToolCall("get_weather", {"city": "Paris"}, id="c1", extras={"thought_signature": SIG}),
        ToolCall("get_weather", {"city": "Rome"}))),
    Message("tool", (
        ToolResult("c1", "18C", name="get_weather"),
        ToolResult(None, "timeout", is_error=True, name="get_weather"),
        Text("Summarize."))),
    Message("assistant", (Text("Paris 18C.", extras={"thought_signature": SIG}),)),
    Message("tool", (ToolResult(None, "", name="get_weather",
                                value={"temp": 18, "unit": "C"}),)),
))


def _typed_request() -> tuple[list[types.Content], types.GenerateContentConfig]:
    """A request spelled with the SDK's own types: every part kind we map."""
    sig = base64.urlsafe_b64decode(SIG)
    contents = [
        types.Content(role="user", parts=[types.Part(text="Weather in Paris and Rome?")]),
        types.Content(role="model", parts=[
            types.Part(text="Two cities.", thought=True, thought_signature=sig),
            types.Part(function_call=types.FunctionCall(id="c1", name="get_weather",
                                                        args={"city": "Paris"}),
                       thought_signature=sig),
            types.Part.from_function_call(name="get_weather", args={"city": "Rome"})]),
        types.Content(role="user", parts=[
            types.Part(function_response=types.FunctionResponse(
                id="c1", name="get_weather", response={"output": "18C"})),
            types.Part.from_function_response(name="get_weather",
                                              response={"error": "timeout"}),
            types.Part(text="Summarize.")]),
        types.Content(role="model", parts=[types.Part(text="Paris 18C.", thought_signature=sig)]),
        types.Content(role="user", parts=[types.Part.from_function_response(
            name="get_weather", response={"temp": 18, "unit": "C"})]),
    ]
    config = types.GenerateContentConfig(
        system_instruction="Be brief.", temperature=0.5,
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
            name=WEATHER.name, description=WEATHER.description,
            parameters_json_schema=WEATHER.input_schema.thaw())])],
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.AUTO)))
    return contents, config


def test_sdk_captured_body_parses_and_renders_back(sdk: tuple[Any, Loopback]) -> None:
    client, recorder = sdk
    contents, config = _typed_request()
    client.models.generate_content(model="gemini-test", contents=contents, config=config)
    path, sent = recorder.last()
    assert path.endswith("/models/gemini-test:generateContent")
    assert "model" not in sent
    assert wire.parse(sent) == EXPECTED
    options = {k: sent[k] for k in ("tools", "generationConfig", "toolConfig")}
    assert wire.render(wire.parse(sent), model="gemini-test", options=options) == sent


def test_sdk_sends_a_rendered_body_unchanged(sdk: tuple[Any, Loopback]) -> None:
    client, recorder = sdk
    body = wire.render(EXPECTED, tools=[WEATHER], model="gemini-test",
                       options={"generationConfig": {"temperature": 0.5}})
    config = types.GenerateContentConfig.model_validate(
        {"systemInstruction": body["systemInstruction"], "tools": body["tools"],
         **body["generationConfig"]})
    contents = [types.Content.model_validate(c) for c in body["contents"]]
    client.models.generate_content(model="gemini-test", contents=contents, config=config)
    sent = recorder.last()[1]
    for key in ("contents", "systemInstruction", "generationConfig"):
        assert sent[key] == body[key], key
    declared = sent["tools"][0]["functionDeclarations"][0]
    assert (declared["name"], declared["description"]) == (WEATHER.name, WEATHER.description)


def test_snake_case_and_python_dumps_parse_alike() -> None:
    camel = wire.render(EXPECTED, model="m")
    snake = {"system_instruction": {"role": "user", "parts": [{"text": "Be brief."}]},
             "contents": [c.model_dump() for c in _typed_request()[0]]}
    assert "function_call" in snake["contents"][1]["parts"][1]
    assert wire.parse(snake) == wire.parse(camel) == EXPECTED


def test_render_ignores_model_and_copies_options() -> None:
    history = History((Message("user", (Text("hi"),)),))
    body = wire.render(history, model="gemini-x",
                       options={"generationConfig": {"maxOutputTokens": 5},
                                "toolConfig": {"functionCallingConfig": {"mode": "NONE"}}})
    assert body == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                    "generationConfig": {"maxOutputTokens": 5},
                    "toolConfig": {"functionCallingConfig": {"mode": "NONE"}}}


def test_n_results_in_n_turns_stay_broken() -> None:
    history = History((
        Message("user", (Text("Paris and Rome?"),)),
        Message("assistant", (ToolCall("w", {"c": "P"}), ToolCall("w", {"c": "R"}))),
        Message("tool", (ToolResult(None, "18C", name="w"),)),
        Message("tool", (ToolResult(None, "21C", name="w"),)),
    ))
    contents = wire.render(history, model="m")["contents"]
    assert contents[2:] == [
        {"role": "user", "parts": [{"functionResponse": {"name": "w",
                                                         "response": {"output": "18C"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "w",
                                                         "response": {"output": "21C"}}}]},
    ]
    assert wire.parse(wire.render(history, model="m")) == history


def test_orphan_missing_and_misplaced_stay_broken() -> None:
    history = History((
        Message("assistant", (ToolCall("w", {}, id="first"),)),
        Message("tool", (ToolResult("gone", "late", name="w"),)),
        Message("system", (Text("late system"),)),
        Message("assistant", (Text("thinking aloud"),)),
        Message("assistant", (ToolCall("w", "not json"),)),
        Message("user", (Text(""),)),
    ))
    contents = wire.render(history, model="m")["contents"]
    assert [c["role"] for c in contents] == ["model", "user", "system", "model", "model", "user"]
    assert contents[4]["parts"] == [{"functionCall": {"name": "w", "args": "not json"}}]
    assert contents[5]["parts"] == [{"text": ""}]
    assert wire.parse({"contents": contents}) == history


def test_foreign_extras_are_not_sent() -> None:
    history = History((
        Message("system", (Text("s"),), extras={"role": "developer"}),
        Message("user", (Text("a", extras={"cache_control": {"type": "ephemeral"},
                                           "type": "input_text"}),), extras={"name": "bob"}),
        Message("assistant", (ToolCall("f", {}, extras={"derived_id": True,
                                                        "thought_signature": SIG}),)),
    ))
    body = wire.render(history, model="m")
    assert body["systemInstruction"] == {"parts": [{"text": "s"}]}
    assert body["contents"][0] == {"role": "user", "parts": [{"text": "a"}]}
    assert body["contents"][1]["parts"] == [
        {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": SIG}]
    for content in body["contents"]:
        types.Content.model_validate(content)


@pytest.mark.parametrize(("body", "where"), [
    ("contents", "body"),
    ({"systemInstruction": {"parts": []}}, "contents"),
    ({"contents": [{"role": "assistant", "parts": []}]}, "contents[0].role"),
    ({"contents": [{"role": "user", "parts": {}}]}, "contents[0].parts"),
    ({"contents": [{"role": ["user"], "parts": []}]}, "contents[0].role"),
    ({"contents": [{"parts": [{"text": "a"}]}, {"role": "model", "parts": [
        {"text": "a"}, 5]}]},
     "contents[1].parts[1]"),
    ({"contents": [{"role": "model", "parts": [{"functionCall": {"args": {}}}]}]},
     "contents[0].parts[0].functionCall.name"),
    ({"contents": [{"role": "model", "parts": [{"function_call": {"name": "f", "args": [1]}}]}]},
     "contents[0].parts[0].functionCall.args"),
    ({"contents": [{"role": "user", "parts": [
        {"functionResponse": {"name": "f", "response": "x"}}]}]},
     "contents[0].parts[0].functionResponse.response"),
    ({"system_instruction": {"parts": [{"text": 1}]}, "contents": []},
     "systemInstruction.parts[0].text"),
])
def test_errors_name_the_path(body: Any, where: str) -> None:
    with pytest.raises(WireFormatError) as info:
        wire.parse(body)
    assert info.value.where == where
    assert str(info.value).startswith(f"{where}: ")


SOUP_KEYS = ["systemInstruction", "system_instruction", "role", "parts", "text", "thought",
             "thoughtSignature", "functionCall", "function_call", "functionResponse", "id",
             "name", "args", "response", "output", "error", "user", "model"]


@settings(max_examples=100, deadline=None)
@given(wire_soup(SOUP_KEYS, "contents"))
def test_any_body_parses_or_raises_wire_format_error(body: dict[str, Any]) -> None:
    try:
        history = wire.parse(body)
    except WireFormatError as error:
        assert error.where.split(".")[0].split("[")[0] in ("contents", "systemInstruction")
    else:
        # Fields named like another protocol's extras are read but not written back (see
        # the docs), so the round trip is exact from the second pass on.
        once = wire.parse(wire.render(history, model="m"))
        assert wire.parse(wire.render(once, model="m")) == once
