"""Markers the streaming assembler puts in extras never reach a request body."""

from __future__ import annotations

import pytest

from normalizer import PROTOCOLS, History, Message, Text, ToolCall, render
from normalizer.streaming import STREAM_MARKERS


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_stream_markers_are_not_rendered(protocol: str) -> None:
    markers = {key: True for key in STREAM_MARKERS}
    call = ToolCall("f", '{"a', "c1", markers)
    body = render(History((Message("user", (Text("x"),)), Message("assistant", (call,)))),
                  protocol)
    text = str(body)
    assert not [key for key in STREAM_MARKERS if f"'{key}'" in text]


def test_each_protocol_owns_its_extras_and_skips_the_others() -> None:
    # One table (normalizer.protocols) says which protocol owns which extras key; a renderer
    # skips exactly the keys other protocols own, never its own.
    from normalizer.protocols import FACTS, foreign_extras

    for name, facts in FACTS.items():
        foreign = foreign_extras(name)
        assert not foreign & facts.own_extras
        others = set().union(*(f.own_extras for n, f in FACTS.items() if n != name))
        assert foreign == others - facts.own_extras


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_foreign_only_key_is_not_rendered(protocol: str) -> None:
    from normalizer.protocols import foreign_extras

    for key in sorted(foreign_extras(protocol)):
        text = Text("x", {key: "v"})
        body = render(History((Message("user", (text, Text("y"))),)), protocol)
        assert f"'{key}': 'v'" not in str(body), (protocol, key)


def test_chat_message_fields_the_sdk_dumps_reach_no_other_protocol() -> None:
    """An assistant message as apps keep it, `message.model_dump()` of the openai SDK's own
    object (`refusal: null`, `annotations: []`, `audio: null`, ...): a Chat body gets every
    field back; Anthropic ("messages.X.refusal: Extra inputs are not permitted",
    mozilla-ai/any-llm#832), Gemini and Responses get none of them."""
    from openai.types.chat import ChatCompletionMessage

    from normalizer import parse

    dumped = ChatCompletionMessage(role="assistant", content="Paris.", refusal=None,
                                   annotations=[]).model_dump()
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Capital?"},
                                            {**dumped, "tool_calls": [],
                                             "reasoning_content": None},
                                            {"role": "user", "content": "Thanks"}]}
    history = parse(body, "openai_chat")
    assert render(history, "openai_chat", model="gpt-4o") == body
    chat_only = set(body["messages"][1]) - {"role", "content"}
    assert {"refusal", "annotations", "audio", "tool_calls"} <= chat_only
    for protocol, key in (("anthropic", "messages"), ("gemini", "contents"),
                          ("openai_responses", "input")):
        sent = render(history, protocol)[key]
        assert not [k for m in sent for k in m if k in chat_only], (protocol, sent)
