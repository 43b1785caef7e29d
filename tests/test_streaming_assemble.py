"""Assemblers, per protocol, on hand-written streams in each vendor's documented event shape:
single call, parallel calls interleaved, empty arguments, invalid JSON, unknown index,
error events, and SDK event objects as input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from normalizer import History, Message, parse, render
from normalizer.errors import ArgumentsJSONError
from normalizer.model import JsonMap, Text, Thinking, ToolCall
from normalizer.streaming import StreamResult, assemble

# --- OpenAI Chat -------------------------------------------------------------------------


def _chat(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
            "model": "gpt-4o", "choices": [{"index": 0, "delta": delta,
                                            "finish_reason": finish}]}


def _tc(index: int, args: str, call_id: str | None = None,
        name: str | None = None) -> dict[str, Any]:
    fn: dict[str, Any] = {"arguments": args}
    if name:
        fn["name"] = name
    head = {"id": call_id, "type": "function"} if call_id else {}
    return {"tool_calls": [{"index": index, **head, "function": fn}]}


def test_openai_chat_single_call() -> None:
    events = [_chat({"role": "assistant", "content": None}),
              _chat(_tc(0, "", "call_a", "get_weather")),
              _chat(_tc(0, '{"ci')), _chat(_tc(0, 'ty": "Par')), _chat(_tc(0, 'is"}')),
              _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    assert result.complete and result.stop_reason == "tool_calls" and not result.problems
    assert result.message.parts == (ToolCall("get_weather", {"city": "Paris"}, "call_a"),)


def test_openai_chat_parallel_interleaved_keeps_index_order() -> None:
    events = [_chat({"role": "assistant", "content": "Checking."}),
              _chat(_tc(0, "", "call_a", "get_weather")), _chat(_tc(1, "", "call_b", "get_time")),
              _chat(_tc(1, '{"tz":')), _chat(_tc(0, '{"city":')), _chat(_tc(0, '"Rome"}')),
              _chat(_tc(1, '"CET"}')), _chat({}, "tool_calls")]
    parts = assemble(events, "openai_chat").message.parts
    assert parts == (Text("Checking."), ToolCall("get_weather", {"city": "Rome"}, "call_a"),
                     ToolCall("get_time", {"tz": "CET"}, "call_b"))


def test_openai_chat_empty_arguments_is_empty_object() -> None:
    events = [_chat(_tc(0, "", "call_a", "now")), _chat({}, "tool_calls")]
    call = assemble(events, "openai_chat").tool_calls[0]
    assert call.arguments == JsonMap() and not call.extras


def test_openai_chat_unknown_index_is_reported_and_rest_kept() -> None:
    events = [_chat(_tc(0, "", "call_a", "f")), _chat(_tc(0, "{}")),
              _chat(_tc(3, '{"x": 1}')), _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    assert result.message.parts == (ToolCall("f", {}, "call_a"),)
    [problem] = result.problems
    assert (problem.code, problem.raw) == ("unknown-index", '{"x": 1}')
    assert problem.where == "events[2].choices[0].delta.tool_calls[0]"


def test_openai_chat_invalid_json_keeps_raw_and_types_the_error() -> None:
    events = [_chat(_tc(0, '{"city": Paris}', "call_a", "f")), _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    call = result.tool_calls[0]
    assert call.arguments == '{"city": Paris}'
    assert call.extras == {"invalid_arguments": True, "raw_arguments": '{"city": Paris}'}
    [error] = result.argument_errors
    assert isinstance(error, ArgumentsJSONError) and error.raw == '{"city": Paris}'
    with pytest.raises(ArgumentsJSONError):
        result.raise_on_invalid_arguments()


def test_openai_chat_missing_index_and_id_get_derived_ids() -> None:
    # Some compatible servers omit `index` and `id`: a new name opens a call.
    events = [_chat({"tool_calls": [{"function": {"name": "f", "arguments": '{"a":1}'}}]}),
              _chat({}, "tool_calls")]
    twice = [assemble(events, "openai_chat").tool_calls[0] for _ in range(2)]
    assert twice[0] == twice[1] and twice[0].id and twice[0].id.startswith("call_")
    assert twice[0].extras == {"derived_id": True}


def _no_index(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for event in events:
        for fragment in event["choices"][0]["delta"].get("tool_calls") or ():
            del fragment["index"]
    return events


# Ollama streams each parallel call whole, in one chunk, all at index 0, told apart by id
# (ollama/ollama#15457, #16212; the chunks as NousResearch/hermes-agent#3468 logged them:
# index=0, id='call_function_xxx_1', name='write_file', args='{"path":"alpha.txt",...}').
def test_openai_chat_calls_all_at_index_zero_are_told_apart_by_id() -> None:
    events = [_chat(_tc(0, '{"path":"alpha.txt"}', "call_1", "write_file")),
              _chat(_tc(0, '{"path":"beta.txt"}', "call_2", "write_file")),
              _chat(_tc(0, '{"q":"x"}', "call_3", "search")), _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    assert not result.problems
    assert result.message.parts == (ToolCall("write_file", {"path": "alpha.txt"}, "call_1"),
                                    ToolCall("write_file", {"path": "beta.txt"}, "call_2"),
                                    ToolCall("search", {"q": "x"}, "call_3"))


def test_openai_chat_index_reused_with_arguments_in_pieces() -> None:
    # After a new id at a reused index, fragments without id continue that call; an id
    # seen before continues its own call; the other indexes keep theirs, and a call opened
    # at a reused index takes a number no index has (here past index 2, not the free 1).
    events = [_chat(_tc(0, '{"a":', "call_1", "f")), _chat(_tc(2, '{"c":', "call_3", "h")),
              _chat(_tc(0, '{"b":', "call_2", "g")), _chat(_tc(0, "", "call_1")),
              _chat(_tc(0, "1}")), _chat(_tc(2, "3}")), _chat(_tc(0, "2}", "call_2")),
              _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    assert not result.problems
    assert result.message.parts == (ToolCall("f", {"a": 1}, "call_1"),
                                    ToolCall("h", {"c": 3}, "call_3"),
                                    ToolCall("g", {"b": 2}, "call_2"))


def test_openai_chat_id_arriving_after_the_name_is_the_same_call() -> None:
    # ... and names that call from then on, when its index is reused.
    events = [_chat(_tc(0, '{"a":', None, "f")), _chat(_tc(0, "", "call_late")),
              _chat(_tc(0, '{"b":2}', "call_2", "g")), _chat(_tc(0, "1}", "call_late")),
              _chat({}, "tool_calls")]
    assert assemble(events, "openai_chat").message.parts == (
        ToolCall("f", {"a": 1}, "call_late"), ToolCall("g", {"b": 2}, "call_2"))


def test_openai_chat_without_index_a_fragment_continues_the_call_opened_last() -> None:
    # Ollama before 0.4.7 sent no index (ollama/ollama#7881). The first call has no id: a
    # fragment without id still belongs to the call opened last, not to the id-less one.
    events = _no_index([_chat(_tc(0, '{"a":1}', None, "f")),
                        _chat(_tc(0, '{"b":', "call_2", "g")), _chat(_tc(0, "2}")),
                        _chat(_tc(0, '{"c":', "call_3", "h")),
                        _chat(_tc(0, "3}", "call_3")), _chat({}, "tool_calls")])
    result = assemble(events, "openai_chat")
    assert not result.problems
    first, *rest = result.message.parts
    assert isinstance(first, ToolCall) and (first.name, first.arguments) == ("f", {"a": 1})
    assert first.extras == {"derived_id": True}
    assert rest == [ToolCall("g", {"b": 2}, "call_2"), ToolCall("h", {"c": 3}, "call_3")]
    # Indexes opened out of order: the call opened last is not the highest index.
    mixed = [_chat(_tc(1, '{"b":', "call_b", "g")), _chat(_tc(0, '{"a":', "call_a", "f")),
             *_no_index([_chat(_tc(0, "1}"))]), _chat(_tc(1, "2}")), _chat({}, "tool_calls")]
    assert assemble(mixed, "openai_chat").message.parts == (
        ToolCall("g", {"b": 2}, "call_b"), ToolCall("f", {"a": 1}, "call_a"))


# Gemini's OpenAI-compatible endpoint: a chunk as THU-MAIC/OpenMAIC#1556 measured it (the
# signature elided there as "…"), no `index`, and `finish_reason: stop` after calls.
_GEMINI_CHUNK = {"choices": [{"delta": {"role": "assistant", "tool_calls": [{
    "extra_content": {"google": {"thought_signature": "…"}},
    "function": {"arguments": '{"offset":1,"limit":100,"path":"/app/skills/agent-runtime/'
                              'stage-design/SKILL.md"}', "name": "read"},
    "id": "call_297140", "type": "function"}]}, "index": 0}], "model": "gemini-3.8-flash",
    "object": "chat.completion.chunk"}


def test_openai_chat_call_fields_beside_function_are_kept_as_parse_keeps_them() -> None:
    # Gemini 3 refuses the next turn without the thought signature the call came with.
    events = [_GEMINI_CHUNK, _chat({}, "stop")]
    result = assemble(events, "openai_chat")
    assert result.complete and not result.problems
    [call] = result.message.parts
    finished = {"role": "assistant", "content": None,
                "tool_calls": [_GEMINI_CHUNK["choices"][0]["delta"]["tool_calls"][0]]}
    parsed = parse({"messages": [{"role": "user", "content": "q"}, finished]}, "openai_chat")
    assert call == parsed.messages[1].parts[0]
    assert call.extras == {"extra_content": {"google": {"thought_signature": "…"}}}
    [sent] = render(History((Message("user", (Text("q"),)), result.message)),
                    "openai_chat")["messages"][1]["tool_calls"]
    assert sent["extra_content"] == {"google": {"thought_signature": "…"}}


def test_openai_chat_call_fields_in_a_chunk_of_their_own_and_later_ones_win() -> None:
    # open-webui/computer#224: arguments split over index-less deltas, the signature in a
    # metadata-only delta of its own; a function's own extra field goes under "function".
    events = [_chat({"tool_calls": [{"id": "call_1", "type": "function",
                                     "function": {"name": "f", "arguments": '{"a":'}}]}),
              _chat({"tool_calls": [{"function": {"arguments": "1}", "strict": True}}]}),
              _chat({"tool_calls": [{"extra_content": {"google": {"thought_signature": "A"}}}]}),
              _chat({"tool_calls": [{"extra_content": {"google": {"thought_signature": "B"}}}]}),
              _chat({}, "stop")]
    [call] = assemble(events, "openai_chat").message.parts
    assert call == ToolCall("f", {"a": 1}, "call_1", extras={
        "extra_content": {"google": {"thought_signature": "B"}}, "function": {"strict": True}})


def test_openai_chat_reasoning_details_are_merged_by_index_and_kept_as_parse_keeps_them() -> None:
    # OpenRouter: pieces of one detail share an index (text continued, signature later), an
    # encrypted detail has its own; apps must send them back with the tool results.
    events = [_chat({"role": "assistant", "content": "", "reasoning": "Need ",
                     "reasoning_details": [{"type": "reasoning.text", "text": "Need ",
                                            "format": "anthropic-claude-v1", "index": 0}]}),
              _chat({"reasoning": "a tool.", "reasoning_details": [
                  {"type": "reasoning.text", "text": "a tool.", "signature": "EqQB", "index": 0}]}),
              _chat({"reasoning_details": [  # a null later does not undo a value
                  {"type": "reasoning.text", "text": "", "signature": None, "index": 0},
                  {"type": "reasoning.encrypted", "data": "gAAAA", "id": "rs_1", "index": 1}]}),
              _chat({"reasoning_details": ["junk", {"type": "reasoning.encrypted", "data": "x"},
                                           {"type": "reasoning.encrypted", "data": "y"}]}),
              _chat(_tc(0, "{}", "call_1", "f")), _chat({}, "tool_calls")]
    result = assemble(events, "openai_chat")
    details = [{"type": "reasoning.text", "text": "Need a tool.",
                "format": "anthropic-claude-v1", "index": 0, "signature": "EqQB"},
               {"type": "reasoning.encrypted", "data": "gAAAA", "id": "rs_1", "index": 1},
               {"type": "reasoning.encrypted", "data": "x"},  # no index: a detail each
               {"type": "reasoning.encrypted", "data": "y"}]
    finished = {"role": "assistant", "content": None, "reasoning": "Need a tool.",
                "reasoning_details": details, "tool_calls": [
                    {"id": "call_1", "type": "function",
                     "function": {"name": "f", "arguments": "{}"}}]}
    parsed = parse({"messages": [{"role": "user", "content": "q"}, finished]}, "openai_chat")
    assert result.message.extras == parsed.messages[1].extras
    sent = render(History((Message("user", (Text("q"),)), result.message)), "openai_chat")
    assert sent["messages"][1]["reasoning_details"] == details


def test_openai_chat_reasoning_content_becomes_vendorless_thinking() -> None:
    events = [_chat({"reasoning_content": "think"}), _chat({"content": "ok"}), _chat({}, "stop")]
    assert assemble(events, "openai_chat").message.parts == (Thinking("think"), Text("ok"))


def test_openai_chat_error_chunk_is_a_problem_not_an_exception() -> None:
    events = [_chat({"content": "par"}), {"error": {"message": "server_error"}}]
    result = assemble(events, "openai_chat")
    assert result.message.text == "par" and not result.complete
    assert [p.code for p in result.problems] == ["stream-error"]


# --- Anthropic ---------------------------------------------------------------------------

_MSG_START = {"type": "message_start", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude",
    "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}


def _block(index: int, block: dict[str, Any], deltas: list[dict[str, Any]],
           stop: bool = True) -> list[dict[str, Any]]:
    return [{"type": "content_block_start", "index": index, "content_block": block},
            *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
            *([{"type": "content_block_stop", "index": index}] if stop else [])]


def _json(*pieces: str) -> list[dict[str, Any]]:
    return [{"type": "input_json_delta", "partial_json": p} for p in pieces]


def _end(reason: str = "tool_use") -> list[dict[str, Any]]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": None},
             "usage": {"output_tokens": 9}}, {"type": "message_stop"}]


def _tool(index: int, call_id: str, name: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {}}


def test_anthropic_text_thinking_and_call() -> None:
    events = [_MSG_START, {"type": "ping"},
              *_block(0, {"type": "thinking", "thinking": "", "signature": ""},
                      [{"type": "thinking_delta", "thinking": "Look up"},
                       {"type": "signature_delta", "signature": "EqQB"}]),
              *_block(1, {"type": "text", "text": ""}, [{"type": "text_delta", "text": "On it"}]),
              *_block(2, _tool(2, "toolu_1", "get_weather"),
                      _json("", '{"location": "San Fra', 'ncisco, CA"}')),
              *_end()]
    result = assemble(events, "anthropic")
    assert result.complete and result.stop_reason == "tool_use" and not result.problems
    assert result.message.parts == (
        Thinking("Look up", signature="EqQB", vendor="anthropic"), Text("On it"),
        ToolCall("get_weather", {"location": "San Francisco, CA"}, "toolu_1"))


def test_anthropic_parallel_blocks_interleaved_by_index() -> None:
    a, b = _block(0, _tool(0, "toolu_a", "f"), _json('{"x":', "1}")), _block(
        1, _tool(1, "toolu_b", "g"), _json('{"y":', "2}"))
    events = [_MSG_START, a[0], b[0], b[1], a[1], a[2], b[2], a[3], b[3], *_end()]
    assert assemble(events, "anthropic").tool_calls == (ToolCall("f", {"x": 1}, "toolu_a"),
                                                        ToolCall("g", {"y": 2}, "toolu_b"))


def test_anthropic_empty_input_and_redacted_thinking() -> None:
    events = [_MSG_START, *_block(0, {"type": "redacted_thinking", "data": "opaque"}, []),
              *_block(1, _tool(1, "toolu_1", "now"), _json("")), *_end()]
    assert assemble(events, "anthropic").message.parts == (
        Thinking("", signature="opaque", vendor="anthropic", redacted=True),
        ToolCall("now", {}, "toolu_1"))


def test_anthropic_cut_mid_arguments_marks_only_the_open_call() -> None:
    events = [_MSG_START, *_block(0, _tool(0, "toolu_1", "f"), _json('{"a": 1}')),
              *_block(1, _tool(1, "toolu_2", "g"), _json('{"b": "tw'), stop=False)]
    result = assemble(events, "anthropic")
    assert not result.complete
    assert result.tool_calls[0] == ToolCall("f", {"a": 1}, "toolu_1")
    assert result.tool_calls[1] == ToolCall("g", '{"b": "tw', "toolu_2", extras={
        "incomplete": True, "raw_arguments": '{"b": "tw'})
    assert [p.code for p in result.problems] == ["incomplete-call"]


def test_anthropic_unknown_index_and_error_event() -> None:
    events = [_MSG_START, {"type": "content_block_delta", "index": 4,
                           "delta": {"type": "input_json_delta", "partial_json": "{}"}},
              {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]
    result = assemble(events, "anthropic")
    assert [(p.code, p.raw) for p in result.problems] == [("unknown-index", "{}"),
                                                          ("stream-error", None)]
    assert "overloaded_error" in result.problems[1].detail


def test_anthropic_accepts_sdk_event_objects() -> None:
    from anthropic.types import RawMessageStreamEvent
    from pydantic import TypeAdapter

    events = [_MSG_START, *_block(0, _tool(0, "toolu_1", "f"), _json('{"a": [1, 2]}')), *_end()]
    objects = [TypeAdapter(RawMessageStreamEvent).validate_python(e) for e in events]
    assert assemble(objects, "anthropic") == assemble(events, "anthropic")


# --- OpenAI Responses --------------------------------------------------------------------


def _fc_added(index: int, item_id: str, call_id: str, name: str) -> dict[str, Any]:
    return {"type": "response.output_item.added", "output_index": index, "item": {
        "type": "function_call", "id": item_id, "call_id": call_id, "name": name,
        "arguments": "", "status": "in_progress"}}


def _fc_delta(index: int, item_id: str, delta: str) -> dict[str, Any]:
    return {"type": "response.function_call_arguments.delta", "output_index": index,
            "item_id": item_id, "delta": delta}


def _fc_done(index: int, item_id: str, arguments: str) -> dict[str, Any]:
    return {"type": "response.function_call_arguments.done", "output_index": index,
            "item_id": item_id, "arguments": arguments}


_COMPLETED = {"type": "response.completed", "response": {"id": "resp_1", "status": "completed"}}


def test_responses_parallel_interleaved_and_item_ids() -> None:
    events = [{"type": "response.created", "response": {"id": "resp_1"}},
              _fc_added(0, "fc_a", "call_a", "f"), _fc_added(1, "fc_b", "call_b", "g"),
              _fc_delta(1, "fc_b", '{"y":'), _fc_delta(0, "fc_a", '{"x":1}'),
              _fc_delta(1, "fc_b", "2}"), _fc_done(0, "fc_a", '{"x":1}'),
              _fc_done(1, "fc_b", '{"y":2}'), _COMPLETED]
    result = assemble(events, "openai_responses")
    assert result.complete and not result.problems
    assert result.tool_calls == (ToolCall("f", {"x": 1}, "call_a", extras={"id": "fc_a"}),
                                 ToolCall("g", {"y": 2}, "call_b", extras={"id": "fc_b"}))


def _unindexed(event: dict[str, Any]) -> dict[str, Any]:
    """An event as llama.cpp's /v1/responses sends it (ggml-org/llama.cpp#20607): no
    output_index, and a function_call item without its `id`."""
    event = {k: v for k, v in event.items() if k != "output_index"}
    if "item" in event:
        event["item"] = {k: v for k, v in event["item"].items() if k != "id"}
    return event


def test_responses_without_output_index_items_are_found_by_call_id_or_taken_in_order() -> None:
    # Deltas naming a call by its call_id find it though they interleave; deltas naming
    # nothing known continue the item opened last; a done event names its call by call_id.
    events = [_unindexed(e) for e in (
        _fc_added(0, "x", "call_a", "f"), _fc_added(1, "x", "call_b", "g"),
        _fc_delta(1, "call_a", '{"x":'), _fc_delta(1, "call_b", '{"y":'),
        _fc_delta(1, "call_a", "1}"), _fc_delta(1, "nothing", "2}"))]
    done = {"type": "response.output_item.done", "item": {
        "type": "function_call", "call_id": "call_a", "name": "f", "arguments": '{"x":1}'}}
    result = assemble([*events, done, _COMPLETED], "openai_responses")
    first, second = result.tool_calls
    assert (first.id, first.name, first.arguments) == ("call_a", "f", {"x": 1})
    assert (second.id, second.name, second.extras["raw_arguments"]) == ("call_b", "g", '{"y":2}')
    assert [p.code for p in result.problems] == ["incomplete-call"]  # call_b: never closed
    # An item without output_index after one at index 1 takes the next index, not 1.
    mixed = [_fc_added(1, "fc_a", "call_a", "f"), _unindexed(_fc_added(0, "x", "call_b", "g"))]
    assert [c.id for c in assemble(mixed, "openai_responses").tool_calls] == ["call_a", "call_b"]


def test_responses_done_value_wins_and_mismatch_is_reported() -> None:
    events = [_fc_added(0, "fc_a", "call_a", "f"), _fc_delta(0, "fc_a", '{"x":'),
              _fc_done(0, "fc_a", '{"x":2}'), _COMPLETED]
    result = assemble(events, "openai_responses")
    assert result.tool_calls[0].arguments == {"x": 2}
    assert [(p.code, p.raw) for p in result.problems] == [("arguments-mismatch", '{"x":')]


def test_responses_failed_and_unknown_item() -> None:
    events = [_fc_added(0, "fc_a", "call_a", "f"), _fc_delta(5, "fc_zz", "{"),
              {"type": "response.failed", "response": {"status": "failed",
                                                       "error": {"code": "server_error"}}}]
    result = assemble(events, "openai_responses")
    assert [p.code for p in result.problems] == ["unknown-index", "stream-error",
                                                 "incomplete-call"]
    assert result.stop_reason == "failed" and not result.complete
    assert result.tool_calls[0].extras["incomplete"] is True


# --- Gemini ------------------------------------------------------------------------------


def _gem(*parts: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}


def test_gemini_text_fragments_merge_and_calls_get_derived_unique_ids() -> None:
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
    events = [_gem({"text": "Let me "}), _gem({"text": "check."}),
              _gem({**call, "thoughtSignature": "c2ln"}, call), _gem(finish="STOP")]
    result = assemble(events, "gemini")
    text, first, second = result.message.parts
    assert text == Text("Let me check.")
    assert first.extras["thought_signature"] == "c2ln" and first.extras["derived_id"] is True
    assert first.id != second.id and first.arguments == second.arguments
    assert assemble(events, "gemini").message == result.message  # not time-based
    assert assemble(events, "gemini", id_seed="turn-7").tool_calls[0].id != first.id


def test_gemini_keeps_vendor_ids_and_thought_parts() -> None:
    events = [_gem({"text": "plan", "thought": True}, {"text": "Done", "thoughtSignature": "s"},
                   finish="STOP")]
    parts = assemble(events, "gemini").message.parts
    assert parts == (Thinking("plan", vendor="gemini"),
                     Text("Done", extras={"thought_signature": "s"}))
    with_id = [_gem({"functionCall": {"id": "fc-1", "name": "f", "args": {}}}, finish="STOP")]
    assert assemble(with_id, "gemini").tool_calls == (ToolCall("f", {}, "fc-1"),)


def test_gemini_image_output_is_the_media_part_parse_reads() -> None:
    # An image model's output streams as inlineData parts, whole (google-genai's Part); a
    # Gemini 3 image part carries a thoughtSignature. Assembled, each is the part parse
    # reads when the turn is sent back: a Media part, which can cross to another vendor.
    image = {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
    signed = {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQ"},
              "thoughtSignature": "c2ln"}
    linked = {"fileData": {"mimeType": "image/png", "fileUri": "gs://bucket/cat.png"}}
    odd = {"inlineData": {"mimeType": "image/png", "data": "AA==", "extra": 1}}
    events = [_gem({"text": "Here it is:"}), _gem(image), _gem(signed), _gem(linked), _gem(odd),
              _gem(finish="STOP")]
    result = assemble(events, "gemini")
    assert result.problems == () and result.complete
    parsed = parse({"contents": [{"role": "model", "parts": [
        {"text": "Here it is:"}, image, signed, linked, odd]}]}, "gemini")
    assert result.message.parts == parsed.messages[0].parts
    kinds = [type(p).__name__ for p in result.message.parts]
    assert kinds == ["Text", "Media", "Media", "Media", "Opaque"]  # odd: kept verbatim
    assert result.message.parts[2].extras["thought_signature"] == "c2ln"  # type: ignore[union-attr]
    # Sent back to Gemini, the turn holds the parts as they streamed.
    body = render(History((Message("user", (Text("Draw a cat"),)), result.message)), "gemini")
    assert body["contents"][1]["parts"] == [{"text": "Here it is:"}, image, signed, linked, odd]


def test_gemini_malformed_call_finish_and_error_chunk_are_problems() -> None:
    events = [_gem(finish="MALFORMED_FUNCTION_CALL"), {"error": {"code": 500, "status": "X"}}]
    result = assemble(events, "gemini")
    assert [p.code for p in result.problems] == ["stream-error", "stream-error"]


_REAL = Path(__file__).parent / "data" / "real_streams" / "gemini"


def _recorded(slug: str) -> StreamResult:
    doc = fast_yaml.load((_REAL / f"{slug}.yaml").read_text(encoding="utf-8"))
    return assemble(doc["events"], "gemini")


def _args(result: StreamResult) -> list[tuple[str, Any]]:
    return [(c.name, c.arguments.thaw() if isinstance(c.arguments, JsonMap) else c.arguments)
            for c in result.tool_calls]


def test_gemini_vertex_streamed_arguments_assemble_as_recorded() -> None:
    # vercel/ai's recorded Vertex chunks: a name part, `partialArgs` pieces (a string in
    # pieces closed by an empty one), then a part without willContinue that ends the call.
    two = _recorded("vertex-streamed-arguments-two-calls")
    assert _args(two) == [("getWeather", {"location": "Boston"}),
                          ("getWeather", {"location": "San Francisco"})]
    assert two.tool_calls[0].extras["thought_signature"].startswith("CiMBjz1rX25K")
    # No `{}` part at the end: the last piece's part has no willContinue; numbers stay so.
    items = _recorded("vertex-streamed-array-arguments-no-terminal-part")
    assert _args(items) == [("writeItems", {"operations": [
        {"action": "add", "description": "Fresh red apple", "itemid": "apple_001", "price": 0.5},
        {"action": "add", "description": "Ripe yellow banana", "itemid": "banana_001",
         "price": 0.3}]})]
    # A whole call (no arguments) then three streamed ones, after a thought.
    beside = _recorded("vertex-streamed-arguments-beside-whole-call")
    assert _args(beside) == [("read_theme", {}), ("read_screen", {"id": "A"}),
                             ("read_screen", {"id": "B"}), ("read_screen", {"id": "C"})]
    nested = _recorded("vertex-streamed-function-call-arguments")
    [(name, recipe)] = _args(nested)
    assert name == "cookRecipe" and recipe["recipe"]["name"] == "Lasagna"
    assert recipe["recipe"]["ingredients"][0] == {"amount": "16 oz", "name": "Lasagna noodles"}
    assert len(recipe["recipe"]["ingredients"]) == len(recipe["recipe"]["steps"]) == 10
    for result in (two, items, beside, nested):
        assert result.complete and not result.problems and not result.incomplete_calls


def _piece(path: str, **value: Any) -> dict[str, Any]:
    return {"jsonPath": path, **value}


def test_gemini_vertex_streamed_arguments_every_value_kind_and_path_form() -> None:
    events = [_gem({"functionCall": {"willContinue": True}}),  # the name comes later
              _gem({"functionCall": {"name": "f", "willContinue": True, "partialArgs": [
                  _piece("$.a['b c'][1]", stringValue="x", willContinue=True),
                  _piece("$.n", numberValue=2), _piece("$.ok", boolValue=False)]}}),
              _gem({"text": "between"}),  # the call goes on across another part
              _gem({"functionCall": {"willContinue": True, "partialArgs": [
                  _piece("$.a['b c'][1]", stringValue="yz"),
                  _piece('$["q"]', nullValue="NULL_VALUE"),
                  _piece("$.s", stringValue="ne", willContinue=True),
                  _piece("$.s", stringValue="w"), _piece("$.s", stringValue="er")]}}),
              _gem({"functionCall": {}}, finish="STOP")]
    result = assemble(events, "gemini")
    assert not result.problems and result.complete
    # "er" replaces "new": the piece that ended "new" did not say willContinue.
    assert _args(result) == [("f", {"a": {"b c": [None, "xyz"]}, "n": 2, "ok": False,
                                    "q": None, "s": "er"})]


def test_gemini_vertex_streamed_call_cut_or_malformed() -> None:
    head = _gem({"functionCall": {"name": "f", "willContinue": True, "partialArgs": [
        _piece("$.city", stringValue="Par", willContinue=True)]}})
    result = assemble([head], "gemini")
    [call] = result.incomplete_calls
    assert json.loads(call.extras["raw_arguments"]) == {"city": "Par"}
    assert [p.code for p in result.problems] == ["incomplete-call"]
    bad = _gem({"functionCall": {"partialArgs": [
        _piece("city"), _piece("$.city", stringValue="x", numberValue=1),
        _piece("$.city[0]", stringValue="y"), _piece("$.zip", numberValue=75001)]}})
    result = assemble([head, bad], "gemini")
    assert _args(result) == [("f", {"city": "Par", "zip": 75001})]
    assert [p.code for p in result.problems] == ["malformed-event"] * 3
    assert [p.where for p in result.problems] == [
        f"events[1].candidates[0].content.parts[0].functionCall.partialArgs[{k}]"
        for k in range(3)]


def test_gemini_accepts_sdk_objects() -> None:
    from google.genai import types

    events = [_gem({"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "YWJj"},
                   finish="STOP")]
    objects = [types.GenerateContentResponse.model_validate(e) for e in events]
    assert assemble(objects, "gemini") == assemble(events, "gemini")
    # An image output holds bytes in the SDK's Part: standard base64 on the wire, as here.
    image = types.Part(inline_data=types.Blob(mime_type="image/png", data=b"\x89PNG\xff\xfe"))
    event = types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=[image]), index=0, finish_reason="STOP")])
    wire = [_gem({"inlineData": {"mimeType": "image/png", "data": "iVBOR//+"}}, finish="STOP")]
    assert assemble([event], "gemini") == assemble(wire, "gemini")
    assert type(assemble([event], "gemini").message.parts[0]).__name__ == "Media"


@pytest.mark.parametrize("protocol", ["openai_chat", "anthropic", "openai_responses", "gemini"])
def test_empty_stream_is_an_empty_incomplete_message(protocol: str) -> None:
    result = assemble([], protocol)
    assert isinstance(result, StreamResult) and not result.complete
    assert result.message.role == "assistant" and result.message.parts == ()


@pytest.mark.parametrize("protocol", ["openai_chat", "anthropic", "openai_responses", "gemini"])
def test_garbage_events_never_raise(protocol: str) -> None:
    junk: list[Any] = [{}, {"type": None}, {"choices": "x"}, {"candidates": [{"content": None}]},
                       {"type": "content_block_delta"}, {"type": "response.output_item.added"},
                       {"sse_invalid_json": "{not json"}]
    result = assemble(junk, protocol)
    assert result.problems and json.dumps([p.code for p in result.problems])
