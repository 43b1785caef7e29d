"""A parameters schema with `required` and no properties (rule
schema-required-without-properties). Groq: "invalid JSON schema for tool view_agent_graph,
tools[24].function.parameters: 'required' present but 'properties' is missing"
(usestrix/strix#1088, the whole error object), for an empty `properties` too: the form the
OpenAI Agents SDK gives a tool without arguments. normalize leaves `required` out."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text, ToolSpec

AGENTS_SDK = {"type": "object", "properties": {}, "required": [],
              "additionalProperties": False}
WORDS = ("invalid JSON schema for tool view_agent_graph, tools[0].function.parameters: "
         "'required' present but 'properties' is missing")


def _body(parameters: dict[str, Any]) -> dict[str, Any]:
    return {"model": "llama-3.3-70b-versatile",
            "messages": [{"role": "user", "content": "Show me the agent graph."}],
            "tools": [{"type": "function", "function": {
                "name": "view_agent_graph", "description": "The agents' graph.",
                "parameters": parameters}}]}


@pytest.mark.parametrize("parameters", [
    AGENTS_SDK, {"type": "object", "required": []},
    {"type": "object", "required": ["graph_id"]}])
def test_groq_refuses_required_beside_no_properties_in_its_words(
        parameters: dict[str, Any]) -> None:
    (found,) = check(_body(parameters), "groq")
    assert (found.rule, found.location, found.message) == (
        "schema-required-without-properties", "tools[0].function.parameters", WORDS)
    assert found.error["param"] == "tool view_agent_graph, tools[0].function.parameters"


@pytest.mark.parametrize("parameters", [
    {"type": "object", "properties": {}}, {"type": "object"},
    {"type": "object", "properties": {"graph_id": {"type": "string"}},
     "required": ["graph_id"]}])
def test_no_required_or_some_properties_is_taken(parameters: dict[str, Any]) -> None:
    assert check(_body(parameters), "groq") == ()
    assert check(_body(AGENTS_SDK), "openai") == ()  # OpenAI takes the Agents SDK's form


def test_normalize_leaves_required_out_lossless_only_when_empty() -> None:
    fixed = normalize_request(_body(AGENTS_SDK), "openai_chat", "groq")
    assert fixed.body["tools"][0]["function"]["parameters"] == {
        "type": "object", "properties": {}, "additionalProperties": False}
    (change,) = fixed.changes
    assert (change.code, change.where, change.lossless) == (
        "drop-required-without-properties", "tools.view_agent_graph.required", True)
    assert check(fixed.body, "groq") == ()
    named = normalize_request(_body({"type": "object", "required": ["graph_id"]}),
                              "openai_chat", "groq")
    assert [(c.code, c.lossless) for c in named.changes] == [
        ("drop-required-without-properties", False)]
    assert "'graph_id'" in named.changes[0].what
    # OpenAI keeps the schema as written.
    kept = normalize_request(_body(AGENTS_SDK), "openai_chat", "openai").body
    assert kept["tools"][0]["function"]["parameters"] == AGENTS_SDK


def test_the_normalize_api_fixes_the_tools_it_is_given() -> None:
    history = History((Message("user", (Text("Show me the agent graph."),)),))
    tool = ToolSpec("view_agent_graph", "The agents' graph.", AGENTS_SDK)
    done = normalize(history, "groq", tools=(tool,))
    assert "required" not in done.render()["tools"][0]["function"]["parameters"]
    assert [c.code for c in done.changes] == ["drop-required-without-properties"]


def test_through_the_groq_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("groq"))
    said = calls.refused("openai_chat", sdk, _body(AGENTS_SDK))
    assert (said.status, said.message) == (400, WORDS)
    sent = normalize_request(_body(AGENTS_SDK), "openai_chat", "groq").body
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
