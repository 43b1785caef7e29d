"""complete_root_object_schema (rules tool-parameters-not-object and
object-schema-missing-properties): OpenAI refuses a function whose parameters schema has no
type at its root (composio/composio#1829) or is an object without properties
(Azure/azure-mcp#197); `type: object` and `properties: {}` are added, losing nothing."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, normalize_request, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.tools import parse_declarations

HISTORY = History((Message("user", (Text("Which clusters do I have?"),)),))
AI_SDK_DEFAULT: dict[str, Any] = {"properties": {}, "additionalProperties": False}
MCP_NO_ARGUMENTS: dict[str, Any] = {"type": "object"}


def test_openai_check_names_both_as_the_vendor_does() -> None:
    tools = [ToolSpec("getWeather", "", AI_SDK_DEFAULT), ToolSpec("list_clusters", "",
                                                                    MCP_NO_ARGUMENTS),
             ToolSpec("json", "", {"type": "array", "items": {"type": "string"}})]
    found = check(render(HISTORY, "openai_chat", tools=tools), "openai")
    assert [(v.rule, v.location) for v in found] == [
        ("tool-parameters-not-object", "tools[0].function.parameters"),
        ("tool-parameters-not-object", "tools[2].function.parameters"),
        ("object-schema-missing-properties", "tools[1].function.parameters")]
    assert found[0].message == ("Invalid schema for function 'getWeather': schema must be a "
                                "JSON Schema of 'type: \"object\"', got 'type: \"None\"'.")
    assert found[2].message == ("Invalid schema for function 'list_clusters': In context=(), "
                                "object schema missing properties.")
    assert found[1].message.endswith("got 'type: \"array\"'.")


def test_normalize_completes_the_root_and_reports_each_step_as_lossless() -> None:
    tools = [ToolSpec("getWeather", "", AI_SDK_DEFAULT),
             ToolSpec("list_clusters", "", MCP_NO_ARGUMENTS)]
    out = normalize(HISTORY, "openai", tools=tools)
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("add-object-type", "tools.getWeather", True),
        ("add-empty-properties", "tools.list_clusters", True)]
    schemas = [thaw(t.input_schema) for t in out.tools]
    assert schemas[0] == {"type": "object", "properties": {}, "additionalProperties": False}
    assert schemas[1] == {"type": "object", "properties": {}}
    assert check(out.render(), "openai") == ()


def test_a_root_union_is_not_given_a_type_where_it_cannot_be_flattened() -> None:
    # giving it a type would not make the vendor take it (the union is refused beside it)
    tools = [ToolSpec("pick", "", {"anyOf": [{"$ref": "https://example.com/a.json"}]})]
    for provider in ("openai", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert out.changes == (), provider
        assert [v.rule for v in check(out.render(), provider)] == [
            "tool-parameters-not-object"], provider


def test_a_root_of_another_type_is_left_for_the_check_to_name() -> None:
    tools = [ToolSpec("json", "", {"type": "array", "items": {"type": "string"}})]
    out = normalize(HISTORY, "openai", tools=tools)
    assert out.changes == ()
    assert [v.rule for v in check(out.render(), "openai")] == ["tool-parameters-not-object"]


def test_gemini_upper_case_object_counts_as_object() -> None:
    # google-genai writes OBJECT; whether OpenAI takes it was not seen, so it is not flagged
    tools = [ToolSpec("now", "", {"type": "OBJECT", "properties": {}})]
    assert check(render(HISTORY, "openai_chat", tools=tools), "openai") == ()
    out = normalize(HISTORY, "openai", tools=[ToolSpec("now", "", {"type": "OBJECT"})])
    assert [c.code for c in out.changes] == ["add-empty-properties"]


def test_the_default_and_a_parsed_declaration_without_parameters_are_taken_everywhere() -> None:
    assert thaw(ToolSpec("now").input_schema) == {"type": "object", "properties": {}}
    body = {"contents": [{"role": "user", "parts": [{"text": "What time is it?"}]}],
            "tools": [{"functionDeclarations": [{"name": "now", "description": "Time."}]}]}
    (tool,) = parse_declarations(body["tools"], "gemini")
    assert thaw(tool.input_schema) == {"type": "object", "properties": {}}
    out = normalize_request(body, "gemini", "openai")
    assert "add-empty-properties" not in {c.code for c in out.changes}
    assert check(out.body, "openai") == ()


def test_vendors_without_the_rules_get_the_schema_as_declared() -> None:
    tools = [ToolSpec("list_clusters", "", MCP_NO_ARGUMENTS)]
    for provider in ("anthropic", "gemini", "mistral", "groq", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "add-empty-properties" not in {c.code for c in out.changes}, provider


def test_deepseek_is_told_null_and_an_empty_schema_is_kept_as_given_then_completed() -> None:
    body = {"model": "deepseek-chat", "messages": [{"role": "user", "content": "Hi."}],
            "tools": [{"type": "function", "function": {"name": "spotIntro",
                                                        "parameters": {}}}]}
    (found,) = check(body, "deepseek")
    assert found.message == ("Invalid schema for function 'spotIntro': schema must be a JSON "
                             "Schema of 'type: \"object\"', got 'type: null'.")
    (tool,) = parse_declarations(body["tools"], "openai_chat")
    assert thaw(tool.input_schema) == {}  # as given: `{}` is not the same as no schema
    out = normalize_request(body, "openai_chat", "deepseek")
    assert [c.code for c in out.changes] == ["add-object-type"]
    assert out.body["tools"][0]["function"]["parameters"] == {"type": "object",
                                                              "properties": {}}
    assert check(out.body, "deepseek") == ()


def test_anthropic_names_the_missing_type_and_normalize_completes_it() -> None:
    tools = [ToolSpec("get_time", "", AI_SDK_DEFAULT), ToolSpec("list_clusters", "",
                                                                  MCP_NO_ARGUMENTS)]
    (found,) = check(render(HISTORY, "anthropic", tools=tools), "anthropic")
    assert (found.rule, found.message) == (
        "tool-parameters-not-object", "tools.0.custom.input_schema.type: Field required")
    out = normalize(HISTORY, "anthropic", tools=tools)
    assert [(c.code, c.where) for c in out.changes] == [("add-object-type", "tools.get_time")]
    assert thaw(out.tools[1].input_schema) == MCP_NO_ARGUMENTS  # Anthropic takes it as is
    assert check(out.render(), "anthropic") == ()
