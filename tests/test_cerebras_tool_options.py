"""Cerebras' refusals of request options beside (or without) tools: any response_format
beside tools ('"tools" is incompatible with "response_format"', BerriAI/litellm#31333) and
a tool_choice without tools ("'tool_choice' is only allowed when 'tools' are specified",
juspay/neurolink#1564). normalize drops the format (keeping the tools) and the tool_choice."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}
SCHEMA = {"type": "json_schema", "json_schema": {"name": "summary", "schema": {
    "type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}}}
FORMAT_WORDS = '"tools" is incompatible with "response_format"'
CHOICE_WORDS = "'tool_choice' is only allowed when 'tools' are specified"


def _body(**fields: Any) -> dict[str, Any]:
    return {"model": "gpt-oss-120b",
            "messages": [{"role": "user", "content": "Weather in Paris, as a JSON summary?"}],
            **fields}


@pytest.mark.parametrize("fmt", [SCHEMA, {"type": "json_object"}, {"type": "text"}])
def test_any_response_format_beside_tools_is_refused_in_cerebras_words(
        fmt: dict[str, Any]) -> None:
    (found,) = check(_body(tools=[WEATHER], response_format=fmt), "cerebras")
    assert (found.rule, found.status, found.message) == (
        "response-format-with-tools", 400, FORMAT_WORDS)
    assert check(_body(response_format=fmt), "cerebras") == ()  # alone it is taken


def test_normalize_drops_the_format_keeps_the_tools_lossless_only_for_text() -> None:
    for fmt, lossless in ((SCHEMA, False), ({"type": "text"}, True)):
        fixed = normalize_request(_body(tools=[WEATHER], response_format=fmt),
                                  "openai_chat", "cerebras")
        assert "response_format" not in fixed.body
        assert fixed.body["tools"] == [WEATHER]
        assert [(c.code, c.lossless) for c in fixed.changes] == [
            ("drop-json-response-type", lossless)]
        assert check(fixed.body, "cerebras") == ()


@pytest.mark.parametrize("choice", ["auto", "none", "required"])
def test_a_tool_choice_without_tools_is_refused_and_dropped(choice: str) -> None:
    body = _body(tool_choice=choice)
    (found,) = check(body, "cerebras")
    assert (found.rule, found.location, found.message) == (
        "tool-choice-without-tools", "tool_choice", CHOICE_WORDS)
    fixed = normalize_request(body, "openai_chat", "cerebras")
    assert "tool_choice" not in fixed.body
    assert [c.code for c in fixed.changes] == ["drop-tool-choice-without-tools"]
    assert check(_body(tools=[WEATHER], tool_choice=choice), "cerebras") == ()


def test_through_the_sdk_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("cerebras"))
    for body, words in ((_body(tools=[WEATHER], response_format=SCHEMA), FORMAT_WORDS),
                        (_body(tool_choice="auto"), CHOICE_WORDS)):
        said = calls.refused("openai_chat", sdk, body)
        assert (said.status, said.message) == (400, words)
        sent = normalize_request(body, "openai_chat", "cerebras").body
        assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
