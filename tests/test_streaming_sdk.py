"""The official SDKs' own stream accumulation agrees with our assemblers on the same recorded
events. The events are served as SSE from a loopback HTTP server (tests/loopback.py); the SDKs are
unmodified (base_url, max_retries=0). Also: the SDKs' event objects, fed to our assemblers,
give the same result as the raw JSON events."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import anthropic
import openai
import pytest
from loopback import Answer, Loopback

from normalizer.model import Message, Part, Text, Thinking, ToolCall
from normalizer.streaming import assemble, emit, sse

KEY = "test-key-not-secret"


@pytest.fixture(scope="module")
def server() -> Iterator[Loopback]:
    with Loopback(Answer.sse(b"")) as loopback:  # each test puts its SSE body on it
        yield loopback


def _serve(server: Loopback, body: bytes) -> None:
    server.answer = Answer.sse(body)


def _pieces(s: str) -> list[str]:
    return [s[i:i + 3] for i in range(0, len(s), 3)]


CALLS = (ToolCall("get_weather", {"city": "Paris", "unit": "°C"}, "call_a1"),
         ToolCall("get_time", {"tz": "Europe/Paris"}, "call_b2"),
         ToolCall("now", {}, "call_c3"))
TEXT_AND_CALLS = Message("assistant", (Text("Let me look that up — un moment."), *CALLS))
ONLY_TEXT = Message("assistant", (Text("Bonjour! 東京 is nice."),))


def _recordings(protocol: str) -> list[list[Mapping[str, Any]]]:
    return [emit(TEXT_AND_CALLS, protocol, split=_pieces, interleave=True),
            emit(TEXT_AND_CALLS, protocol, split=_pieces),
            emit(ONLY_TEXT, protocol, split=_pieces),
            *WRITTEN.get(protocol, [])]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1732300000,
            "model": "gpt-4o-mini-2024-07-18", "system_fingerprint": "fp_1",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def _anthropic_block(index: int, block: dict[str, Any], key: str, kind: str,
                     pieces: list[str]) -> list[dict[str, Any]]:
    return [{"type": "content_block_start", "index": index, "content_block": block},
            {"type": "ping"},
            *({"type": "content_block_delta", "index": index, "delta": {"type": kind, key: p}}
              for p in pieces),
            {"type": "content_block_stop", "index": index}]


# Hand-written in the vendors' documented shapes (not captured live): OpenAI with the
# role-only first chunk, null content, and the usage chunk with empty `choices` that
# stream_options.include_usage adds; Anthropic's tool-use example with an empty first
# input_json_delta.
WRITTEN: dict[str, list[list[Mapping[str, Any]]]] = {
    "openai_chat": [[
        _chunk({"role": "assistant", "content": None, "refusal": None}),
        _chunk({"tool_calls": [{"index": 0, "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                                "type": "function",
                                "function": {"name": "get_weather", "arguments": ""}}]}),
        *(_chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]})
          for p in ['{"', "location", '":"', "Paris", ",", " France", '"}']),
        _chunk({}, "tool_calls"),
        {"id": "chatcmpl-9", "object": "chat.completion.chunk", "created": 1732300000,
         "model": "gpt-4o-mini-2024-07-18", "choices": [],
         "usage": {"prompt_tokens": 80, "completion_tokens": 17, "total_tokens": 97}}]],
    "anthropic": [[
        {"type": "message_start", "message": {
            "id": "msg_014p7gG3wDgGV9EUtLvnow3U", "type": "message", "role": "assistant",
            "model": "claude-haiku-4-5", "stop_sequence": None, "stop_reason": None,
            "content": [], "usage": {"input_tokens": 472, "output_tokens": 2}}},
        *_anthropic_block(0, {"type": "text", "text": ""}, "text", "text_delta",
                          ["Okay", ", let's check", " the weather for San Francisco, CA:"]),
        *_anthropic_block(1, {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                              "name": "get_weather", "input": {}},
                          "partial_json", "input_json_delta",
                          ["", '{"location":', ' "San', " Francisc", 'o,', ' CA"', ', ',
                           '"unit": "fah', 'renheit"}']),
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 89}},
        {"type": "message_stop"}]],
}


def _ours(events: Sequence[Mapping[str, Any]], protocol: str) -> tuple[Part, ...]:
    result = assemble(events, protocol)
    assert result.complete and not result.problems
    return result.message.parts


# --- OpenAI Chat: chat.completions.stream(...).get_final_completion() ---------------------


def _openai(httpd: Loopback) -> openai.OpenAI:
    return openai.OpenAI(api_key=KEY, base_url=httpd.url + "/v1", max_retries=0)


@pytest.mark.parametrize("case", range(4))
def test_openai_chat_stream_helper_agrees(server: Loopback, case: int) -> None:
    events = _recordings("openai_chat")[case]
    _serve(server, sse.encode(events, "openai_chat"))
    with _openai(server).chat.completions.stream(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}]) as stream:
        final = stream.get_final_completion().choices[0].message
    sdk: list[Part] = [Text(final.content)] if final.content else []
    sdk += [ToolCall(c.function.name, json.loads(c.function.arguments), c.id)
            for c in final.tool_calls or ()]
    assert _ours(events, "openai_chat") == tuple(sdk)


def test_openai_chat_sdk_chunks_assemble_like_raw_events(server: Loopback) -> None:
    events = _recordings("openai_chat")[0]
    _serve(server, sse.encode(events, "openai_chat"))
    chunks = list(_openai(server).chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}], stream=True))
    assert assemble(chunks, "openai_chat") == assemble(events, "openai_chat")


def test_openai_chat_cut_stream_fragments_agree(server: Loopback) -> None:
    """Connection dropped after every chunk in turn (no finish_reason, no [DONE]): the SDK
    hands back what it accumulated; our incomplete calls hold the same raw fragments."""
    events = emit(Message("assistant", (Text("hi"), *CALLS[:2])), "openai_chat",
                  split=_pieces, interleave=True)
    for cut in range(1, len(events)):
        _serve(server, sse.encode(events[:cut], "openai_chat").removesuffix(
            b"data: [DONE]\n\n"))
        with _openai(server).chat.completions.stream(
                model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}]) as stream:
            choice = stream.get_final_completion().choices[0]
        ours = assemble(events[:cut], "openai_chat")
        sdk = [(c.id, c.function.name, c.function.arguments)
               for c in choice.message.tool_calls or ()]
        assert [(c.id, c.name, c.extras["raw_arguments"]) for c in ours.tool_calls] == sdk
        assert choice.finish_reason is None and not ours.complete
        assert ours.message.text == (choice.message.content or "")


# --- OpenAI Responses: responses.stream(...).get_final_response() -------------------------


REASONING = Message("assistant", (
    Thinking("Two lookups needed.", signature="gAAAAB-encrypted", vendor="openai_responses"),
    *TEXT_AND_CALLS.parts))


@pytest.mark.parametrize("case", range(4))
def test_openai_responses_stream_helper_agrees(server: Loopback, case: int) -> None:
    events = [*_recordings("openai_responses"),
              emit(REASONING, "openai_responses", split=_pieces)][case]
    _serve(server, sse.encode(events, "openai_responses"))
    with _openai(server).responses.stream(model="gpt-4.1-mini", input="hi") as stream:
        seen = list(stream)
        final = stream.get_final_response()
    sdk: list[Part] = []
    for item in final.output:
        if item.type == "function_call":
            sdk.append(ToolCall(item.name, json.loads(item.arguments), item.call_id))
        elif item.type == "message":
            sdk += [Text(c.text) for c in item.content if c.type == "output_text"]
        elif item.type == "reasoning":
            sdk.append(Thinking("\n\n".join(s.text for s in item.summary),
                                signature=item.encrypted_content, vendor="openai_responses"))
    ours = _ours(events, "openai_responses")
    assert tuple(sdk) == tuple(p.__class__(**_without_item_id(p)) for p in ours)
    assert assemble(seen, "openai_responses") == assemble(events, "openai_responses")


def _without_item_id(part: Part) -> dict[str, Any]:
    fields = {name: getattr(part, name) for name in part.__slots__}  # type: ignore[union-attr]
    return {**fields, "extras": part.extras.without("id", "item")}


# --- Anthropic: messages.stream(...) MessageStream.get_final_message() --------------------


def _anthropic(httpd: Loopback) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key=KEY, base_url=httpd.url, max_retries=0)


THINKING = Message("assistant", (
    Thinking("The user wants weather; call the tool.", signature="EqQBCkYIBxgC",
             vendor="anthropic"),
    Thinking("", signature="redacted-opaque", vendor="anthropic", redacted=True),
    *TEXT_AND_CALLS.parts))


def _anthropic_parts(content: Sequence[Any]) -> tuple[Part, ...]:
    parts: list[Part] = []
    for block in content:
        if block.type == "text":
            parts.append(Text(block.text))
        elif block.type == "tool_use":
            parts.append(ToolCall(block.name, block.input, block.id))
        elif block.type == "thinking":
            parts.append(Thinking(block.thinking, signature=block.signature, vendor="anthropic"))
        elif block.type == "redacted_thinking":
            parts.append(Thinking("", signature=block.data, vendor="anthropic", redacted=True))
    return tuple(parts)


@pytest.mark.parametrize("case", range(5))
def test_anthropic_message_stream_agrees(server: Loopback, case: int) -> None:
    events = [*_recordings("anthropic"), emit(THINKING, "anthropic", split=_pieces)][case]
    _serve(server, sse.encode(events, "anthropic"))
    with _anthropic(server).messages.stream(
            model="claude-haiku-4-5", max_tokens=256,
            messages=[{"role": "user", "content": "hi"}]) as stream:
        seen = list(stream)  # raw events plus the SDK's derived text/input_json events
        final = stream.get_final_message()
    assert _ours(events, "anthropic") == _anthropic_parts(final.content)
    assert assemble(seen, "anthropic") == assemble(events, "anthropic")


def test_anthropic_cut_stream_closed_blocks_agree(server: Loopback) -> None:
    """A connection that drops mid-arguments: the SDK's snapshot and our result agree on
    every closed block; ours keeps the open call's raw fragment, marked incomplete."""
    events = _recordings("anthropic")[1]
    cut = next(i for i, e in enumerate(events) if e.get("type") == "content_block_delta"
               and e.get("index") == 2) + 2
    _serve(server, sse.encode(events[:cut], "anthropic"))
    with _anthropic(server).messages.stream(
            model="claude-haiku-4-5", max_tokens=256,
            messages=[{"role": "user", "content": "hi"}]) as stream:
        for _ in stream:
            pass
        snapshot = stream.current_message_snapshot
    ours = assemble(events[:cut], "anthropic")
    closed = ours.message.parts[:2]
    assert closed == _anthropic_parts(snapshot.content)[:2]
    [open_call] = ours.incomplete_calls
    assert open_call.id == snapshot.content[2].id == "call_b2"
    assert '{"tz":"Europe/Paris"}'.startswith(open_call.extras["raw_arguments"])
