"""Message fields a strict OpenAI-compatible vendor does not know (rule unknown-message-field,
Groq and Cerebras): dropped by `drop_unknown_message_fields` and named in a lossy change;
left alone for vendors without the rule. And `join_text_parts` joins a lone system text that
came as a one-part array, where Groq took a string only (until 2025-07-11: BEFORE_LISTS)."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request

BODY: dict[str, Any] = {"model": "m", "messages": [
    {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": "Hello.", "prefix": False,
     "reasoning_details": [{"type": "reasoning.text", "text": "..."}]},
    {"role": "user", "content": "Bye"}]}


@pytest.mark.parametrize("provider", ["groq", "cerebras"])
def test_unknown_fields_are_dropped_and_named(provider: str) -> None:
    assert check(BODY, provider)
    out = normalize_request(BODY, "openai_chat", provider, model="m")
    assert not check(out.body, provider)
    assistant = out.body["messages"][2]
    assert "prefix" not in assistant and "reasoning_details" not in assistant
    [change] = [c for c in out.changes if c.code == "drop-message-field"]
    assert not change.lossless and "'prefix'" in change.what
    assert "'reasoning_details'" in change.what


BEFORE_LISTS = "2025-03-01"  # Groq's API took a string only for these roles then


def test_groq_gets_the_lone_system_text_as_a_string() -> None:
    out = normalize_request(BODY, "openai_chat", "groq", model="m", on=BEFORE_LISTS)
    assert out.body["messages"][0] == {"role": "system", "content": "Be brief."}
    assert [c for c in out.changes if c.code == "join-text-parts" and c.lossless]
    assert not check(out.body, "groq", on=BEFORE_LISTS)
    # Since groq-python 0.30.0 (2025-07-11) the API takes a list of text parts there.
    today = normalize_request(BODY, "openai_chat", "groq", model="m")
    assert today.body["messages"][0] == BODY["messages"][0]
    assert not [c for c in today.changes if c.code == "join-text-parts"]


def test_groq_got_assistant_and_tool_texts_as_strings() -> None:
    # tidyverse/ellmer#162 (an assistant's list of parts), CherryHQ/cherry-studio#3307 (a
    # tool result's): joined, the calls kept, the image-bearing result left as it is.
    body = {"model": "m", "messages": [
        {"role": "user", "content": "Weather in Paris and a map?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Checking."},
                                          {"type": "text", "text": "One moment."}],
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1",
         "content": [{"type": "text", "text": "18C"}, {"type": "text", "text": "sunny"}]},
        {"role": "user", "content": "Thanks"}]}
    found = [(v.rule, v.location) for v in check(body, "groq", on=BEFORE_LISTS)]
    assert found == [("assistant-content-not-string", "messages[1].content"),
                     ("assistant-content-not-string", "messages[2].content")]
    assert check(body, "groq") == ()
    out = normalize_request(body, "openai_chat", "groq", model="m", on=BEFORE_LISTS)
    assistant, tool = out.body["messages"][1:3]
    assert assistant["content"] == "Checking.\nOne moment."
    assert assistant["tool_calls"][0]["id"] == "c1"
    assert tool == {"role": "tool", "tool_call_id": "c1", "content": "18C\nsunny"}
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("join-text-parts", "messages[1]", True), ("join-text-parts", "messages[2]", True)]
    assert not check(out.body, "groq", on=BEFORE_LISTS)


def test_groq_gets_an_empty_system_array_as_an_empty_string() -> None:
    # Anthropic's `system: []`, as llama-index sends it (tests/data/real_requests/anthropic/
    # empty-system-array.yaml), was written to Groq as content [], which Groq refuses.
    body = {"model": "claude-3-5-haiku-20241022", "max_tokens": 512, "system": [],
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}
    out = normalize_request(body, "anthropic", "groq", model="m", on=BEFORE_LISTS)
    assert out.body["messages"][0] == {"role": "system", "content": ""}
    assert not check(out.body, "groq", on=BEFORE_LISTS)
    [change] = [c for c in out.changes if c.code == "join-text-parts"]
    assert change.lossless and change.where == "messages[0]"


def test_a_vendor_without_the_rule_keeps_them() -> None:
    out = normalize_request(BODY, "openai_chat", "openai", model="m")
    assert out.body == BODY and out.changes == ()


def _empty_calls_body(content: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": content, "tool_calls": []},
        {"role": "user", "content": "and now?"}]}


@pytest.mark.parametrize("provider", ["openai", "together"])
def test_an_empty_tool_calls_list_is_dropped_where_it_is_refused(provider: str) -> None:
    # OpenAI's empty_array answer (home-assistant/core#118577), Together's "Input validation
    # error" (mozilla-ai/any-llm#714): the list goes, said, and nothing else moves.
    body = _empty_calls_body("Hello")
    assert [v.rule for v in check(body, provider)] == ["empty-tool-calls"]
    out = normalize_request(body, "openai_chat", provider, model="m")
    assert out.body["messages"][1] == {"role": "assistant", "content": "Hello"}
    assert [(c.code, c.lossless) for c in out.changes] == [("drop-empty-tool-calls", True)]
    assert check(out.body, provider) == ()
    # With content null the message is then empty: the empty-content repair follows.
    out = normalize_request(_empty_calls_body(None), "openai_chat", provider, model="m")
    assert check(out.body, provider) == ()
    assert "tool_calls" not in out.body["messages"][1]


def test_an_empty_tool_calls_list_stays_for_a_vendor_seen_taking_it() -> None:
    # evidence/mistral/assistant-content-as-text-chunks-accepted-mistral-large.yaml
    body = _empty_calls_body("Hello")
    out = normalize_request(body, "openai_chat", "mistral", model="m")
    assert out.body["messages"][1]["tool_calls"] == [] and not [
        c for c in out.changes if c.code == "drop-empty-tool-calls"]
