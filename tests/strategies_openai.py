"""Test helpers for the two OpenAI protocols: Hypothesis strategies of the histories each
protocol can represent, and a loopback server that records the bodies the official SDK sends.

"Can represent" excludes what the wire cannot tell apart (docs/wire.md): two
consecutive tool messages (the wire regroups them), Text beside tool results, a tool message
without results, part orders that Chat Completions fixes (thinking, text, calls), thinking
signatures in openai_chat, `is_error`, and a string of arguments that is itself a JSON object.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st
from loopback import Answer, Loopback

from normalizer.model import (
    INPUT_FORM,
    NAMED_OUTPUT,
    History,
    Message,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
)

# --- values ---

short_text = st.text(max_size=8)
_ID_CHARS = "abcXYZ019_-"
ids = st.text(_ID_CHARS, min_size=1, max_size=12)
names = st.text(_ID_CHARS, min_size=1, max_size=16)
json_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(
    allow_nan=False, allow_infinity=False) | short_text
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(short_text, inner, max_size=3),
    max_leaves=4,
)
json_objects = st.dictionaries(short_text, json_values, max_size=4)


def _is_json_object(raw: str) -> bool:
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False


# Arguments a model may send that are not a JSON object: kept verbatim as a string.
raw_arguments = st.one_of(
    st.sampled_from(["", "[1, 2]", '{"city": "Par', "null", "not json"]),
    st.text(max_size=10),
).filter(lambda s: not _is_json_object(s))
arguments = st.one_of(json_objects, raw_arguments)
small_extras = st.sampled_from([{}, {}, {"name": "alice"}, {"x_vendor": {"k": [1, 2]}}])


def texts(other_types: tuple[str, ...], field: dict[str, Any],
          max_size: int = 3) -> st.SearchStrategy[tuple[Text, ...]]:
    """Text parts; `other_types` are part types other than the default one, kept in extras
    (a wrong type must survive), plus refusal parts and one extra part `field`."""
    part_extras = st.sampled_from(
        [{}, {}, {}, {"type": "refusal"}, field] + [{"type": t} for t in other_types])
    part = st.builds(Text, short_text, part_extras)
    return st.lists(part, max_size=max_size).map(tuple)


def _no_adjacent(messages: list[Message], roles: tuple[str, ...]) -> History:
    """Drop a message of `roles` that follows one of the same role: the wire would merge them."""
    kept: list[Message] = []
    for message in messages:
        if kept and message.role in roles and kept[-1].role == message.role:
            continue
        kept.append(message)
    return History(tuple(kept))


# --- openai_chat ---

# OpenRouter and other OpenAI-compatible gateways take Anthropic's cache_control on parts.
_chat_texts = texts((), {"cache_control": {"type": "ephemeral"}})
_chat_calls = st.builds(ToolCall, names, arguments, ids | st.none(),
                        st.sampled_from([{}, {}, {"x_index": 0}]))


@st.composite
def _chat_assistant(draw: st.DrawFn) -> Message:
    thinking = draw(st.lists(st.builds(Thinking, short_text), max_size=1))
    parts = (*thinking, *draw(_chat_texts), *draw(st.lists(_chat_calls, max_size=3)))
    extras = draw(st.sampled_from([{}, {}, {"name": "bot"}, {"refusal": "no"},
                                   {"reasoning_content": None}]))
    if thinking and "reasoning_content" in extras:
        extras = {}
    return Message("assistant", parts, extras=extras)


_chat_results = st.builds(
    ToolResult, ids | st.none(), short_text | _chat_texts,
    extras=st.sampled_from([{}, {}, {"name": "get_weather"}]))
_chat_message = st.one_of(
    st.builds(Message, st.just("system"), _chat_texts,
              extras=st.sampled_from([{}, {"role": "developer"}, {"name": "ops"}])),
    st.builds(Message, st.just("user"), _chat_texts, extras=small_extras),
    _chat_assistant(),
    st.builds(Message, st.just("tool"), st.lists(_chat_results, min_size=1, max_size=3)),
)
chat_histories = st.lists(_chat_message, max_size=6).map(lambda ms: _no_adjacent(ms, ("tool",)))


# --- openai_responses ---

_item_fields = st.sampled_from([{}, {}, {"type": "message"},
                                {"type": "message", "id": "msg_1", "status": "completed"},
                                {"phase": "commentary"}])
_output_texts = texts(("input_text",), {"annotations": []})


@st.composite
def _responses_text_run(draw: st.DrawFn) -> tuple[Text, ...]:
    """The Text parts of one assistant message item; its item fields ride on the first."""
    run = draw(_output_texts.filter(bool))
    fields = draw(_item_fields)
    if not fields:
        return run
    return (Text(run[0].text, {"item": fields, **run[0].extras}), *run[1:])


@st.composite
def _reasoning(draw: st.DrawFn) -> Thinking:
    summary = draw(st.lists(short_text, max_size=3))
    extras: dict[str, Any] = draw(st.sampled_from([{}, {"id": "rs_1"},
                                                   {"id": "rs_2", "status": "completed"}]))
    if len(summary) > 1:
        extras["summary"] = [{"type": "summary_text", "text": s} for s in summary]
    # One summary part whose text is "" renders as no part: the same empty Thinking.
    return Thinking("\n\n".join(summary), signature=draw(st.none() | short_text),
                    vendor="openai_responses", extras=extras)


_responses_calls = st.builds(ToolCall, names, arguments, ids | st.none(),
                             st.sampled_from([{}, {"id": "fc_1"},
                                              {"id": "fc_2", "status": "completed"}]))


@st.composite
def _responses_assistant(draw: st.DrawFn) -> Message:
    chunks = draw(st.lists(st.one_of(_responses_text_run(), _reasoning().map(lambda t: (t,)),
                                     _responses_calls.map(lambda c: (c,))), max_size=4))
    return Message("assistant", tuple(p for chunk in chunks for p in chunk))


# A result's name goes back only with the marker a parsed named output carries.
_responses_results = st.one_of(
    st.builds(ToolResult, ids | st.none(), short_text | texts(("output_text",), {"x_vendor": 1}),
              extras=st.sampled_from([{}, {"id": "fco_1"}])),
    st.builds(ToolResult, ids | st.none(), short_text, name=names,
              extras=st.just({NAMED_OUTPUT: True})))
_input_texts = texts(("output_text",), {"x_vendor": 1})
_responses_message = st.one_of(
    st.builds(Message, st.just("system"), _input_texts,
              extras=st.sampled_from([{}, {"role": "developer"}, {INPUT_FORM: "item"}])),
    st.builds(Message, st.just("user"), _input_texts,
              extras=st.sampled_from([{}, {INPUT_FORM: "item"}, {"status": "completed"}])),
    _responses_assistant(),
    st.builds(Message, st.just("tool"), st.lists(_responses_results, min_size=1, max_size=3)),
)
_instructions = st.builds(lambda t: Message("system", (Text(t),), extras={"instructions": True}),
                          short_text)
responses_histories = st.builds(
    lambda first, rest: _no_adjacent([*first, *rest], ("tool", "assistant")),
    st.lists(_instructions, max_size=1), st.lists(_responses_message, max_size=6))


# --- loopback recorder for the official SDK ---

CHAT_REPLY = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
              "choices": [{"index": 0, "finish_reason": "stop",
                           "message": {"role": "assistant", "content": "ok"}}]}
RESPONSES_REPLY = {"id": "resp_1", "object": "response", "created_at": 0, "model": "m",
                   "status": "completed", "output": [], "parallel_tool_calls": True,
                   "tool_choice": "auto", "tools": []}


def recording_server() -> Loopback:
    """A loopback HTTP server that stores each POSTed JSON body and answers with a minimal
    valid Chat Completions or Responses reply (use as a context manager)."""
    return Loopback(lambda path, _body: Answer.json(
        RESPONSES_REPLY if path.endswith("/responses") else CHAT_REPLY))
