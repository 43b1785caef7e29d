"""openai_responses wire: round trip, item grouping, reasoning items, faithful render of broken
histories, bodies sent by the official SDK, verbatim arguments, and error paths."""

from __future__ import annotations

from typing import Any

import openai
import pytest
from hypothesis import given, settings
from openai.types.responses import FunctionToolParam, ResponseInputParam
from sizing import examples
from strategies_openai import recording_server, responses_histories

from normalizer import History, Message, Text, Thinking, ToolCall, ToolResult, WireFormatError
from normalizer.normalize import normalize
from normalizer.tools import parse_declarations
from normalizer.wire import openai_responses as responses
from normalizer.wire import parse, render


# CI depth 150: the lines and branches of normalizer/wire that 300 reached (coverage,
# 2026-11-23); the thorough depth draws 1000 anew (tests/sizing.py).
@settings(max_examples=examples(150, 1000), deadline=None)
@given(responses_histories)
def test_round_trip(history: History) -> None:
    assert responses.parse(responses.render(history, model="m")) == history


WEATHER: FunctionToolParam = {
    "type": "function", "name": "get_weather", "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]},
    "strict": None,
}
SDK_INPUT: ResponseInputParam = [
    {"role": "user", "content": "Weather in Paris and Rome?"},
    {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAB…",
     "summary": [{"type": "summary_text", "text": "Two cities."},
                 {"type": "summary_text", "text": "Call twice."}]},
    {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
     "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]},
    {"type": "function_call", "call_id": "call_1", "name": "get_weather",
     "arguments": '{"city":"Paris"}', "id": "fc_1", "status": "completed"},
    {"type": "function_call", "call_id": "call_2", "name": "get_weather",
     "arguments": '{"city": "Ro', "id": "fc_2", "status": "completed"},
    {"type": "function_call_output", "call_id": "call_1", "output": "18C"},
    {"type": "function_call_output", "call_id": "call_2",
     "output": [{"type": "input_text", "text": "arguments were cut off"}]},
    {"role": "developer", "content": [{"type": "input_text", "text": "Be brief."}]},
]


def sdk_body(**kwargs: Any) -> dict[str, Any]:
    """The JSON body the unmodified SDK sends for responses.create."""
    with recording_server() as server:
        client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="test", max_retries=0)
        client.responses.create(model="gpt-4.1-mini", **kwargs)
        client.close()
    [(path, body)] = server.bodies
    assert path == "/v1/responses"
    return body


def test_sdk_body_parses_and_renders_back() -> None:
    body = sdk_body(instructions="You are terse.", input=SDK_INPUT, tools=[WEATHER])
    history = parse(body, "openai_responses")
    summary = [{"type": "summary_text", "text": "Two cities."},
               {"type": "summary_text", "text": "Call twice."}]
    assert history == History((
        Message("system", (Text("You are terse."),), extras={"instructions": True}),
        Message("user", (Text("Weather in Paris and Rome?"),)),
        Message("assistant", (
            Thinking("Two cities.\n\nCall twice.", signature="gAAAAB…",
                     vendor="openai_responses", extras={"id": "rs_1", "summary": summary}),
            Text("Checking.", {"item": {"type": "message", "id": "msg_1",
                                        "status": "completed"}, "annotations": []}),
            ToolCall("get_weather", {"city": "Paris"}, "call_1",
                     {"id": "fc_1", "status": "completed"}),
            ToolCall("get_weather", '{"city": "Ro', "call_2",
                     {"id": "fc_2", "status": "completed"}),
        )),
        Message("tool", (ToolResult("call_1", "18C"),
                         ToolResult("call_2", (Text("arguments were cut off"),)))),
        Message("system", (Text("Be brief."),),
                extras={"role": "developer", "content_form": "array"}),
    ))
    rendered = render(history, "openai_responses", model=body["model"])
    assert rendered["instructions"] == body["instructions"]
    # Byte faithful: a one-part content array comes back as an array, the arguments
    # strings as sent.
    assert rendered["input"] == body["input"]
    assert [t.name for t in parse_declarations(body["tools"], "openai_responses")] == [
        "get_weather"]


def test_string_input_is_one_user_message_and_goes_back_a_string() -> None:
    # `client.responses.create(input="hello")`, as the SDK sends it (its body, recorded).
    body = sdk_body(input="hello")
    history = responses.parse(body)
    assert history == History((Message("user", (Text("hello"),), extras={"input_form": "string"}),))
    assert render(history, "openai_responses", model=body["model"])["input"] == "hello"
    assert render(responses.parse(sdk_body(input="")), "openai_responses")["input"] == ""
    # Once the input is more than that text, or elsewhere, it is written as usual.
    longer = History((*history.messages, Message("assistant", (Text("hi"),)),
                      Message("user", (Text("again"),))))
    assert render(longer, "openai_responses")["input"][0] == {"role": "user", "content": "hello"}
    assert render(history, "openai_chat")["messages"] == [{"role": "user", "content": "hello"}]


def test_a_typed_message_item_keeps_its_type_in_responses_only() -> None:
    # Microsoft agent-framework's recorded body (tests/data/real_requests/openai_responses/
    # typed-message-items.yaml): system and user items typed "message". The type is the
    # item's, not a message field: Chat bodies used to carry `"type": "message"` on both
    # messages, and Mistral's normalize reported it dropped, lossy.
    body = {"model": "gpt-4o", "input": [
        {"type": "message", "role": "system",
         "content": [{"type": "input_text", "text": "You are a helpful assistant."}]},
        {"type": "message", "role": "user",
         "content": [{"type": "input_text", "text": "Say hello in one word."}]}]}
    history = responses.parse(body)
    assert [m.extras.get("input_form") for m in history] == ["item", "item"]
    assert render(history, "openai_responses", model="gpt-4o") == body
    for provider in ("openai", "mistral", "groq"):
        out = normalize(history, provider)
        assert all("type" not in m for m in out.render()["messages"]), provider
        assert not [c for c in out.changes if c.code == "drop-message-field"], provider
    # A Chat body's own stray message field is still its own, written back in Chat.
    stray = {"model": "m", "messages": [{"role": "user", "content": "hi", "type": "x"}]}
    assert render(parse(stray, "openai_chat"), "openai_chat", model="m") == stray


def test_output_logprobs_and_a_call_namespace_stay_in_responses() -> None:
    # An output_text as the SDK dumps it (`logprobs: []`: ruby_llm's and Mirascope's
    # recorded bodies) and a tool-search call's `namespace` (pydantic-ai's recorded
    # cross-provider replay) went into Anthropic blocks, Gemini parts and Chat parts.
    body = {"model": "m", "input": [
        {"role": "user", "content": "Refund order 123?"},
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
         "content": [{"type": "output_text", "text": "Checking.", "annotations": [],
                      "logprobs": []}]},
        {"type": "function_call", "call_id": "call_1", "name": "lookup_refund_policy",
         "namespace": "lookup_refund_policy", "arguments": "{\"order_id\":\"123\"}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "30 days"}]}
    history = responses.parse(body)
    assert responses.render(history, model="m") == body
    anthropic = render(history, "anthropic", model="m")["messages"][1]["content"]
    assert [set(b) for b in anthropic] == [{"type", "text"}, {"type", "id", "name", "input"}]
    gemini = render(history, "gemini", model="m")["contents"][1]["parts"]
    assert [set(p) for p in gemini] == [{"text"}, {"functionCall"}]
    chat = render(history, "openai_chat", model="m")["messages"][1]
    assert chat["content"] == "Checking." and "namespace" not in chat["tool_calls"][0]


def test_assistant_side_items_group_until_a_role_message() -> None:
    body = {"input": [
        {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"},
        {"role": "assistant", "content": "text between calls"},
        {"type": "function_call", "call_id": "b", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "a", "output": "1"},
        {"role": "user", "content": "wedged"},
        {"type": "function_call_output", "call_id": "b", "output": "2"},
    ]}
    assert responses.parse(body) == History((
        Message("assistant", (ToolCall("f", {}, "a"), Text("text between calls"),
                              ToolCall("f", {}, "b"))),
        Message("tool", (ToolResult("a", "1"),)),
        Message("user", (Text("wedged"),)),
        Message("tool", (ToolResult("b", "2"),)),
    ))


def test_broken_histories_stay_broken() -> None:
    history = History((
        Message("tool", (ToolResult("call_0", "orphan"),)),
        Message("user", (Text("go"),)),
        Message("assistant", (ToolCall("f", {}, "call_1"), ToolCall("f", {}, "call_2"))),
        Message("user", (Text("wedged"),)),
        Message("tool", (ToolResult("call_1", "late", is_error=False),)),
        Message("system", (Text("mid-history system"),)),
    ))
    body = responses.render(history, model="m")
    assert [i.get("type") or i["role"] for i in body["input"]] == [
        "function_call_output", "user", "function_call", "function_call", "user",
        "function_call_output", "system"]
    assert "instructions" not in body
    assert responses.parse(body) == history


def test_reasoning_item_maps_to_thinking() -> None:
    item = {"type": "reasoning", "id": "rs_9", "summary": [], "encrypted_content": None}
    [message] = responses.parse({"input": [item]}).messages
    assert message.parts == (Thinking("", signature=None, vendor="openai_responses",
                                      extras={"id": "rs_9", "encrypted_content": None}),)
    # The explicit null goes back as it came (a same-protocol round trip is exact).
    assert responses.render(History((message,)), model="m")["input"] == [item]


def test_edited_thinking_text_replaces_kept_summary() -> None:
    kept = [{"type": "summary_text", "text": "a"}, {"type": "summary_text", "text": "b"}]
    thinking = Thinking("rewritten", vendor="openai_responses", extras={"summary": kept})
    item = responses.render(History((Message("assistant", (thinking,)),)), model="m")["input"][0]
    assert item["summary"] == [{"type": "summary_text", "text": "rewritten"}]


def test_text_beside_results_and_dropped_fields() -> None:
    history = History((Message("tool", (
        ToolResult("a", "boom", is_error=True, name="f"), Text("note"))),))
    assert responses.render(history, model="m")["input"] == [
        {"type": "function_call_output", "call_id": "a", "output": "boom"},
        {"role": "user", "content": "note"},
    ]


def test_an_output_gets_a_name_only_where_its_body_had_one() -> None:
    # The API defines no `name` on function_call_output; a Gemini or Chat result's name
    # (Gemini needs it) used to be written there. A Responses body that sent one gets it.
    named = {"type": "function_call_output", "call_id": "a", "name": "f", "output": "ok"}
    history = responses.parse({"input": [named]})
    assert responses.render(history, model="m")["input"] == [named]
    gemini = parse({"contents": [{"role": "user", "parts": [{"functionResponse": {
        "id": "a", "name": "f", "response": {"output": "ok"}}}]}]}, "gemini")
    assert responses.render(gemini, model="m")["input"] == [
        {"type": "function_call_output", "call_id": "a", "output": "ok"}]


@pytest.mark.parametrize("raw", ["", "[1]", '{"a": ', "null"])
def test_arguments_that_are_not_a_json_object_are_kept_verbatim(raw: str) -> None:
    item = {"type": "function_call", "call_id": "c", "name": "f", "arguments": raw}
    history = responses.parse({"input": [item]})
    assert history.messages[0].parts == (ToolCall("f", raw, "c"),)
    assert responses.render(history, model="m")["input"] == [item]


def test_instructions_only_from_a_leading_single_text() -> None:
    flagged = Message("system", (Text("a"), Text("b")), extras={"instructions": True})
    body = responses.render(History((flagged,)), model="m", options={"store": False})
    assert "instructions" not in body and body["store"] is False
    assert body["input"] == [{"role": "system", "content": [
        {"type": "input_text", "text": "a"}, {"type": "input_text", "text": "b"}]}]


@pytest.mark.parametrize(("body", "where"), [
    ({"input": 3}, "input"),
    ({"instructions": ["x"]}, "instructions"),
    ({"input": [{"type": 7, "id": "ws"}]}, "input[0].type"),
    ({"input": [{"role": "tool", "content": "x"}]}, "input[0].role"),
    ({"input": [{"role": "user", "content": [{"type": 3}]}]},
     "input[0].content[0].type"),
    ({"input": [{"type": "reasoning", "summary": [{"type": "summary_text"}]}]},
     "input[0].summary[0].text"),
    ({"input": [{"type": "function_call", "call_id": "c", "arguments": "{}"}]}, "input[0].name"),
    ({"input": [{"type": "function_call_output", "call_id": "c"}]}, "input[0].output"),
])
def test_wire_format_errors_name_the_path(body: dict[str, Any], where: str) -> None:
    with pytest.raises(WireFormatError) as info:
        responses.parse(body)
    assert info.value.where == where


def test_wrong_part_type_in_an_assistant_item_survives() -> None:
    """OpenAI rejects input_text in an assistant item; render must keep sending it."""
    item = {"role": "assistant", "content": [{"type": "input_text", "text": "hi"}]}
    history = responses.parse({"input": [item]})
    assert history.messages[0].parts == (Text("hi", {"type": "input_text"}),)
    assert responses.render(history, model="m")["input"] == [item]
