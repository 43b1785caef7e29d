"""openai_chat wire: round trip, faithful render of broken histories, bodies sent by the
official SDK, verbatim arguments, thinking, and error paths."""

from __future__ import annotations

from typing import Any

import openai
import pytest
from hypothesis import given, settings
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam
from sizing import examples
from strategies_openai import chat_histories, recording_server

from normalizer import History, Message, Text, Thinking, ToolCall, ToolResult, WireFormatError
from normalizer.tools import parse_declarations
from normalizer.wire import openai_chat as chat
from normalizer.wire import parse, render


# CI depth 150: the lines and branches of normalizer/wire that 300 reached (coverage,
# 2026-11-23); the thorough depth draws 1000 anew (tests/sizing.py).
@settings(max_examples=examples(150, 1000), deadline=None)
@given(chat_histories)
def test_round_trip(history: History) -> None:
    assert chat.parse(chat.render(history, model="m")) == history


WEATHER: ChatCompletionToolParam = {
    "type": "function",
    "function": {"name": "get_weather", "description": "Current weather for a city.",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                "required": ["city"]}},
}
SDK_MESSAGES: list[ChatCompletionMessageParam] = [
    {"role": "developer", "content": "Answer briefly."},
    {"role": "user", "content": [{"type": "text", "text": "Weather in Paris and Rome?"},
                                 {"type": "text", "text": "In °C."}], "name": "ana"},
    {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}},
        {"id": "call_2", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Ro'}},
    ]},
    {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
    {"role": "tool", "tool_call_id": "call_2",
     "content": [{"type": "text", "text": "arguments were cut off"}]},
    {"role": "assistant", "content": "Paris 18C; Rome unknown."},
]


def sdk_body(messages: list[ChatCompletionMessageParam], **kwargs: Any) -> dict[str, Any]:
    """The JSON body the unmodified SDK sends for chat.completions.create."""
    with recording_server() as server:
        client = openai.OpenAI(base_url=f"{server.url}/v1", api_key="test", max_retries=0)
        client.chat.completions.create(model="gpt-4o-mini", messages=messages, **kwargs)
        client.close()
    [(path, body)] = server.bodies
    assert path == "/v1/chat/completions"
    return body


def test_sdk_body_parses_and_renders_back() -> None:
    body = sdk_body(SDK_MESSAGES, tools=[WEATHER])
    history = parse(body, "openai_chat")
    assert history == History((
        Message("system", (Text("Answer briefly."),), extras={"role": "developer"}),
        Message("user", (Text("Weather in Paris and Rome?"), Text("In °C.")),
                extras={"name": "ana"}),
        Message("assistant", (ToolCall("get_weather", {"city": "Paris"}, "call_1"),
                              ToolCall("get_weather", '{"city": "Ro', "call_2")),
                extras={"refusal": None}),
        Message("tool", (ToolResult("call_1", "18C"),
                         ToolResult("call_2", (Text("arguments were cut off"),)))),
        Message("assistant", (Text("Paris 18C; Rome unknown."),)),
    ))
    tools = parse_declarations(body["tools"], "openai_chat")
    assert render(history, "openai_chat", tools=tools, model=body["model"]) == body


def test_broken_histories_stay_broken() -> None:
    call = ToolCall("f", {}, "call_1")
    history = History((
        Message("tool", (ToolResult("call_0", "orphan"),)),          # orphan result
        Message("user", (Text("go"),)),
        Message("assistant", (call, ToolCall("f", {}, "call_2"))),  # call_2 never answered
        Message("user", (Text("wedged"),)),                          # between call and result
        Message("tool", (ToolResult("call_1", "late"),)),
        Message("system", (Text("mid-history system"),)),
    ))
    body = chat.render(history, model="m")
    assert [m["role"] for m in body["messages"]] == [
        "tool", "user", "assistant", "user", "tool", "system"]
    assert [c["id"] for c in body["messages"][2]["tool_calls"]] == ["call_1", "call_2"]
    assert chat.parse(body) == history


def test_two_tool_messages_render_as_separate_turns_and_parse_as_one() -> None:
    history = History((Message("tool", (ToolResult("a", "1"),)),
                       Message("tool", (ToolResult("b", "2"),))))
    body = chat.render(history, model="m")
    assert body["messages"] == [{"role": "tool", "tool_call_id": "a", "content": "1"},
                                {"role": "tool", "tool_call_id": "b", "content": "2"}]
    assert chat.parse(body) == History((Message("tool", (ToolResult("a", "1"),
                                                         ToolResult("b", "2"))),))


def test_text_beside_results_becomes_a_user_message_after_them() -> None:
    history = History((Message("tool", (ToolResult("a", "1"), Text("note"),
                                        ToolResult("b", "2"))),))
    assert [m["role"] for m in chat.render(history, model="m")["messages"]] == [
        "tool", "tool", "user"]


@pytest.mark.parametrize("raw", ["", "[1, 2]", '{"city": "Par', "null", '"x"'])
def test_arguments_that_are_not_a_json_object_are_kept_verbatim(raw: str) -> None:
    body = {"messages": [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": raw}}]}]}
    [message] = chat.parse(body).messages
    assert message.parts == (ToolCall("f", raw, "c"),)
    assert chat.render(chat.parse(body), model="m")["messages"] == body["messages"]


def test_arguments_canonical_form() -> None:
    call = ToolCall("f", {"z": 1, "a": ["é", {"b": None}]}, "c")
    body = chat.render(History((Message("assistant", (call,)),)), model="m")
    assert body["messages"][0]["tool_calls"][0]["function"]["arguments"] == (
        '{"z":1,"a":["é",{"b":null}]}')


def test_thinking_renders_as_reasoning_content_without_signature() -> None:
    message = Message("assistant", (
        Thinking("step one", signature="sig-anthropic", vendor="anthropic"),
        Thinking("step two", signature="sig-2", vendor="anthropic"),
        Text("done"),
    ))
    body = chat.render(History((message,)), model="m")
    assert body["messages"] == [{"role": "assistant", "content": "done",
                                 "reasoning_content": "step one\n\nstep two"}]
    assert "sig" not in str(body)
    # What comes back is vendor-neutral: the wire does not say who produced it.
    assert chat.parse(body).messages[0].parts == (Thinking("step one\n\nstep two"), Text("done"))


def test_reasoning_content_parses_as_thinking_without_vendor() -> None:
    body = {"messages": [{"role": "assistant", "content": "hi", "reasoning_content": "hmm"}]}
    assert chat.parse(body).messages[0].parts == (Thinking("hmm", vendor=None), Text("hi"))


def test_empty_tool_calls_and_null_reasoning_are_kept() -> None:
    messages = [{"role": "assistant", "content": "x", "tool_calls": [],
                 "reasoning_content": None}]
    assert chat.render(chat.parse({"messages": messages}), model="m")["messages"] == messages


def test_null_fields_of_a_client_dump_stay_in_chat_bodies() -> None:
    # huggingface_hub's client sends unset fields as null (tests/data/real_requests/
    # openai_chat/huggingface-null-fields.yaml). Chat gets them back; the other protocols'
    # bodies used to carry `image_url: null` on a text block and `text: null` on an image.
    body = {"model": "m", "messages": [{"role": "user", "name": None, "tool_calls": None,
                                        "content": [
        {"type": "text", "text": "What fruit?", "image_url": None},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ"},
         "text": None}]}]}
    history = chat.parse(body)
    assert chat.render(history, model="m") == body
    anthropic = render(history, "anthropic", model="m")["messages"][0]["content"]
    assert [set(block) for block in anthropic] == [{"type", "text"}, {"type", "source"}]
    gemini = render(history, "gemini", model="m")["contents"][0]["parts"]
    assert [set(part) for part in gemini] == [{"text"}, {"inlineData"}]
    responses = render(history, "openai_responses", model="m")["input"][0]["content"]
    assert [set(part) for part in responses] == [{"type", "text"}, {"type", "image_url"}]


def test_a_dumped_call_index_and_a_cache_breakpoint_stay_openai_fields() -> None:
    # pydantic-ai's recorded bodies: a Mistral call turn dumped from a stream keeps each
    # call's `index`; OpenAI's prompt-cache text parts carry `prompt_cache_breakpoint`.
    # Anthropic's tool_use and Gemini's parts used to get both.
    body = {"model": "m", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Go.",
                                      "prompt_cache_breakpoint": {"mode": "explicit"}}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "FI5qQGzDE", "index": 0, "type": "function",
             "function": {"name": "get_image", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "FI5qQGzDE", "content": "ok"}]}
    history = chat.parse(body)
    assert chat.render(history, model="m") == body
    anthropic = render(history, "anthropic", model="m")["messages"]
    assert set(anthropic[0]["content"][0]) == {"type", "text"}
    assert set(anthropic[1]["content"][0]) == {"type", "id", "name", "input"}
    gemini = render(history, "gemini", model="m")["contents"]
    assert [set(p) for c in gemini for p in c["parts"]] == [
        {"text"}, {"functionCall"}, {"functionResponse"}]
    responses = render(history, "openai_responses", model="m")["input"]
    assert responses[0]["content"][0]["prompt_cache_breakpoint"] == {"mode": "explicit"}


def test_render_body_keys() -> None:
    history = History((Message("user", (Text("hi"),)),))
    assert chat.render(history, model="m") == {
        "model": "m", "messages": [{"role": "user", "content": "hi"}]}
    body = chat.render(history, model="m", options={"tool_choice": "none", "stream": True})
    assert body["tool_choice"] == "none" and body["stream"] is True and "tools" not in body
    assert render(history, "openai_chat")["model"] == chat.DEFAULT_MODEL


@pytest.mark.parametrize(("body", "where"), [
    ({}, "messages"),
    ({"messages": [{"role": 5, "content": "x"}]}, "messages[0].role"),
    ({"messages": [{"role": "user"}]}, "messages[0].content"),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": "a"},
                                                {"type": None}]}]},
     "messages[0].content[1].type"),
    ({"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function"}]}]}, "messages[1].tool_calls[0].function"),
    ({"messages": [{"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": 3}}]}]},
     "messages[0].tool_calls[0].function.arguments"),
    ({"messages": [{"role": "tool", "tool_call_id": "c", "content": None}]},
     "messages[0].content"),
])
def test_wire_format_errors_name_the_path(body: dict[str, Any], where: str) -> None:
    with pytest.raises(WireFormatError) as info:
        chat.parse(body)
    assert info.value.where == where
    assert str(info.value).startswith(where + ": ")


def test_render_refuses_parts_with_no_place() -> None:
    history = History((Message("user", (Text("a"), ToolCall("f", {}, "c"))),))
    with pytest.raises(WireFormatError) as info:
        chat.render(history, model="m")
    assert info.value.where == "history[0].parts[1]"


def test_extras_of_other_protocols_are_not_written() -> None:
    """A history parsed from Responses (item fields) or Gemini (thought signatures) renders as
    a clean Chat Completions body."""
    history = History((
        Message("system", (Text("be brief"),), extras={"instructions": True}),
        Message("assistant", (
            Text("ok", {"item": {"type": "message", "id": "msg_1"}, "annotations": []}),
            ToolCall("f", {}, None, {"id": "fc_1", "status": "completed",
                                     "thought_signature": "sig"}),
        )),
        Message("tool", (ToolResult("c", "1", extras={"id": "fco_1"}),)),
    ))
    assert chat.render(history, model="m")["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "assistant", "content": "ok",
         "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "1"},
    ]
