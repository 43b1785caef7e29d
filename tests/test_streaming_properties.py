"""Properties of every assembler on streams made by `emit` from generated messages:
fragments split anywhere (every character boundary exhaustively, every byte boundary of the
SSE body exhaustively, random multi-way splits) assemble to the same message; a stream cut
after any event never raises, keeps every closed call exactly, and marks the cut call
incomplete with its raw fragment."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from normalizer.model import JsonMap, Message, Text, ToolCall
from normalizer.streaming import (
    STREAM_MARKERS,
    StreamResult,
    assemble,
    assemble_sse,
    emit,
    sse,
)

PROTOCOLS = ("openai_chat", "anthropic", "openai_responses", "gemini")
STREAMED_ARGS = ("openai_chat", "anthropic", "openai_responses")  # Gemini sends calls whole
SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

_scalar = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.text(max_size=8))
_args = st.dictionaries(st.text(min_size=1, max_size=6),
                        st.one_of(_scalar, st.lists(_scalar, max_size=3)), max_size=4)


@st.composite
def messages(draw: st.DrawFn) -> Message:
    text = draw(st.one_of(st.none(), st.text(min_size=1, max_size=30)))
    names = draw(st.lists(st.sampled_from(["get_weather", "lookup", "now"]), min_size=1,
                          max_size=3))
    calls = [ToolCall(name, draw(_args), f"call_{i}") for i, name in enumerate(names)]
    return Message("assistant", ((Text(text),) if text else ()) + tuple(calls))


def splitter(cuts: Sequence[int]) -> Callable[[str], list[str]]:
    """Cut every string at these offsets (those inside it)."""
    def split(s: str) -> list[str]:
        points = sorted({c for c in cuts if 0 < c < len(s)})
        return [s[a:b] for a, b in zip([0, *points], [*points, len(s)], strict=True)]
    return split


def calls_of(message: Message) -> list[tuple[str | None, str, Any]]:
    return [(c.id, c.name, c.arguments) for c in message.tool_calls]


def raw_args(call: ToolCall) -> str:
    assert isinstance(call.arguments, JsonMap)
    return json.dumps(call.arguments.thaw(), ensure_ascii=False, separators=(",", ":"))


def assert_same(result: StreamResult, message: Message) -> None:
    assert result.complete and not result.problems, result.problems
    assert calls_of(result.message) == calls_of(message)
    assert result.message.text == message.text


WIDE = Message("assistant", (Text("Ça va? 東京"), ToolCall(
    "get_weather", {"city": "Zürich", "note": "雨 ☂", "days": [1, 2]}, "call_1")))


@pytest.mark.parametrize("protocol", STREAMED_ARGS)
def test_arguments_split_at_every_character_boundary(protocol: str) -> None:
    raw = raw_args(WIDE.tool_calls[0])
    for cut in range(len(raw) + 1):
        result = assemble(emit(WIDE, protocol, split=splitter([cut])), protocol)
        assert_same(result, WIDE)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_sse_body_split_at_every_byte_boundary(protocol: str) -> None:
    call_only = Message("assistant", WIDE.tool_calls)  # multi-byte characters in arguments
    body = sse.encode(emit(call_only, protocol, split=splitter([3, 9])), protocol)
    whole = assemble_sse(body, protocol)
    assert_same(whole, call_only)
    for cut in range(len(body) + 1):
        events = sse.json_events(sse.decode(body, [cut]))
        assert assemble(events, protocol) == whole, cut


@pytest.mark.parametrize("protocol", PROTOCOLS)
@SETTINGS
@given(message=messages(), cuts=st.lists(st.integers(0, 40), max_size=6),
       interleave=st.booleans())
def test_any_split_and_interleaving_round_trips(protocol: str, message: Message,
                                                cuts: list[int], interleave: bool) -> None:
    options: dict[str, Any] = {"split": splitter(cuts)}
    if protocol != "gemini":
        options["interleave"] = interleave
    assert_same(assemble(emit(message, protocol, **options), protocol), message)


@SETTINGS
@given(message=messages(), cuts=st.lists(st.integers(0, 40), max_size=6),
       index=st.sampled_from(["omitted", "always 0"]))
def test_chat_calls_without_their_own_index_round_trip(message: Message, cuts: list[int],
                                                       index: str) -> None:
    """Vendors that send no `index` (ollama/ollama#7881) or 0 for every call (#15457): the
    calls, one after another, each id in its first fragment, assemble as if indexed."""
    events = emit(message, "openai_chat", split=splitter(cuts))
    for event in events:
        for fragment in event["choices"][0]["delta"].get("tool_calls") or ():
            if index == "omitted":
                del fragment["index"]
            else:
                fragment["index"] = 0
    assert_same(assemble(events, "openai_chat"), message)


@SETTINGS
@given(message=messages(), cuts=st.lists(st.integers(0, 40), max_size=6))
def test_responses_items_without_output_index_or_call_item_id_round_trip(
        message: Message, cuts: list[int]) -> None:
    """llama.cpp's and Lemonade's /v1/responses streams leave out every `output_index` and
    give function_call items no `id` (ggml-org/llama.cpp#20607, lemonade-sdk/lemonade#3607):
    the items, one after another, assemble as if indexed."""
    events = emit(message, "openai_responses", split=splitter(cuts))
    for event in events:
        event.pop("output_index", None)
        item = event.get("item")
        if isinstance(item, dict) and item.get("type") == "function_call":
            item.pop("id", None)
    assert_same(assemble(events, "openai_responses"), message)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@SETTINGS
@given(message=messages(), cuts=st.lists(st.integers(0, 40), max_size=4),
       interleave=st.booleans())
def test_stream_cut_after_every_event(protocol: str, message: Message, cuts: list[int],
                                      interleave: bool) -> None:
    options: dict[str, Any] = {"split": splitter(cuts)}
    if protocol != "gemini":
        options["interleave"] = interleave
    events = emit(message, protocol, **options)
    originals = {c.id: c for c in message.tool_calls}
    for k in range(len(events) + 1):
        result = assemble(events[:k], protocol)
        assert result.complete == (k == len(events))
        assert message.text.startswith(result.message.text)
        assert not result.argument_errors
        ids = [c.id for c in result.tool_calls]
        assert ids == [c.id for c in message.tool_calls][: len(ids)]
        for call in result.tool_calls:
            _check_cut_call(call, originals[call.id], protocol)
        if protocol == "anthropic" and not interleave:
            assert len(result.incomplete_calls) <= 1


def _check_cut_call(call: ToolCall, original: ToolCall, protocol: str) -> None:
    assert call.name == original.name
    # "id", "status": fields of a Responses item, kept where parse keeps them
    assert set(call.extras) <= STREAM_MARKERS | {"id", "status"}
    if not call.extras.get("incomplete"):
        assert call.arguments == original.arguments
        return
    assert protocol != "gemini"  # Gemini calls arrive whole; they are never cut
    fragment = call.extras["raw_arguments"]
    assert call.arguments == fragment and raw_args(original).startswith(fragment)
