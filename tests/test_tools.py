"""Tool declarations per protocol, Gemini's schema subset, and tool calls parsed back."""

from __future__ import annotations

import pytest
from google.genai import types as gtypes

from normalizer import normalize_request
from normalizer.errors import ArgumentsJSONError, UnknownProtocolError
from normalizer.model import JsonMap, ToolSpec
from normalizer.tools import declare, gemini_schema, parse_arguments, parse_call, parse_declarations
from normalizer.wire import PROTOCOLS

WEATHER = ToolSpec.from_mcp({
    "name": "get_weather",
    "description": "Current weather for a city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"]},
})


def test_mcp_definition_keeps_name_description_schema() -> None:
    assert WEATHER.name == "get_weather"
    assert WEATHER.input_schema["required"] == ("city",)


def test_openai_chat_declaration() -> None:
    decls, changes = declare([WEATHER], "openai_chat")
    assert decls == [{"type": "function", "function": {
        "name": "get_weather", "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"]}}}]
    assert changes == ()


def test_responses_declaration_is_flat() -> None:
    decls, _ = declare([WEATHER], "openai_responses")
    assert decls[0]["type"] == "function" and decls[0]["name"] == "get_weather"
    assert decls[0]["parameters"]["required"] == ["city"]


def test_anthropic_declaration_uses_input_schema() -> None:
    decls, _ = declare([WEATHER], "anthropic")
    assert set(decls[0]) == {"name", "description", "input_schema"}


def test_gemini_declaration_is_one_tool_with_function_declarations() -> None:
    decls, changes = declare([WEATHER, WEATHER], "gemini")
    assert len(decls) == 1 and len(decls[0]["functionDeclarations"]) == 2
    assert changes == ()
    gtypes.Tool.model_validate(decls[0])  # the SDK's own model accepts it


def test_declare_no_tools() -> None:
    for protocol in PROTOCOLS:
        assert declare([], protocol) == ([], ())


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_declarations_parse_back(protocol: str) -> None:
    decls, _ = declare([WEATHER], protocol)
    assert parse_declarations(decls, protocol) == (WEATHER,)


def test_gemini_snake_case_tools_as_one_object_are_read() -> None:
    # pydantic-ai's recorded Gemini request (tests/models/cassettes/test_openai/
    # test_multiple_agent_tool_calls.yaml, answered 200): `tools` one object, its
    # declarations spelled `function_declarations`. normalize_request used to raise on the
    # object, and the snake_case declarations were dropped without a change.
    body = {"contents": [{"role": "user", "parts": [{"text": "Capital of France?"}]}],
            "tools": {"function_declarations": [{
                "name": "get_weather", "description": "Current weather for a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                               "required": ["city"]}}]}}
    assert parse_declarations([body["tools"]], "gemini") == (WEATHER,)
    out = normalize_request(body, "gemini", "openai")
    assert out.body["tools"] == declare([WEATHER], "openai_chat")[0]
    assert [c.code for c in out.changes] == ["add-model"]  # a Gemini body names no model
    same = normalize_request(body, "gemini", "gemini")
    assert same.body["tools"] == body["tools"] and same.changes == ()


def test_unknown_protocol() -> None:
    with pytest.raises(UnknownProtocolError, match="known protocols: openai_chat"):
        declare([WEATHER], "cohere")


MIXED = {
    "type": "object",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {"Unit": {"type": "string", "enum": ["C", "F"]}},
    "properties": {
        "unit": {"$ref": "#/$defs/Unit"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "optional"},
        "level": {"enum": [1, 2, 3]},
        "mode": {"const": "fast"},
    },
    "required": ["unit"],
    "additionalProperties": False,
}


def codes(changes: tuple) -> list[str]:
    return [c.code for c in changes]


def test_gemini_schema_ref_anyof_null_additional_properties() -> None:
    out, changes = gemini_schema(MIXED, where="tools.get_weather")
    assert out["properties"]["unit"] == {"type": "string", "enum": ["C", "F"]}
    assert out["properties"]["note"] == {"type": "string", "nullable": True,
                                         "description": "optional"}
    assert "additionalProperties" not in out and "$defs" not in out and "$schema" not in out
    found = codes(changes)
    for code in ("schema-inline-ref", "schema-anyof-null-to-nullable",
                 "schema-drop-additionalproperties", "schema-drop-defs", "schema-drop-schema",
                 "schema-const-to-enum", "schema-enum-to-strings"):
        assert code in found, code
    gtypes.Schema.model_validate(out)


def test_gemini_schema_changes_say_where_and_loss() -> None:
    _, changes = gemini_schema(MIXED, where="tools.get_weather")
    by_code = {c.code: c for c in changes}
    assert by_code["schema-inline-ref"].where == "tools.get_weather.properties.unit"
    assert by_code["schema-inline-ref"].lossless
    assert not by_code["schema-drop-additionalproperties"].lossless
    assert not by_code["schema-enum-to-strings"].lossless
    assert all(c.pass_name == "gemini_schema" for c in changes)


def test_gemini_schema_non_string_enum_becomes_string_enum() -> None:
    out, _ = gemini_schema({"type": "integer", "enum": [1, 2]})
    assert out == {"type": "string", "enum": ["1", "2"]}


def test_gemini_schema_const_typed() -> None:
    out, _ = gemini_schema({"const": "fast"})
    assert out == {"enum": ["fast"], "type": "string"}


def test_gemini_schema_type_list_with_null() -> None:
    out, changes = gemini_schema({"type": ["integer", "null"]})
    assert out == {"type": "integer", "nullable": True}
    assert codes(changes) == ["schema-type-list"]


def test_gemini_schema_recursive_ref_is_cut_and_reported() -> None:
    schema = {"$defs": {"Node": {"type": "object",
                                 "properties": {"next": {"$ref": "#/$defs/Node"}}}},
              "$ref": "#/$defs/Node"}
    out, changes = gemini_schema(schema)
    depth, node = 0, out
    while "properties" in node:
        node, depth = node["properties"]["next"], depth + 1
    assert node == {"type": "object"} and depth >= 2
    assert "schema-cut-recursive-ref" in codes(changes)


def test_gemini_schema_oneof_allof() -> None:
    first = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    second = {"properties": {"b": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}
    out, changes = gemini_schema({"allOf": [first, second]})
    assert set(out["properties"]) == {"a", "b"} and out["required"] == ["a"]
    assert "anyOf" in out["properties"]["b"]
    assert {"schema-merge-allof", "schema-oneof-to-anyof"} <= set(codes(changes))


def test_gemini_schema_input_not_mutated() -> None:
    before = repr(MIXED)
    gemini_schema(MIXED)
    assert repr(MIXED) == before


def test_gemini_supported_schema_unchanged() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string", "description": "x"}},
              "required": ["city"]}
    assert gemini_schema(schema) == (schema, ())


def test_parse_openai_call() -> None:
    call = parse_call({"id": "call_1", "type": "function",
                       "function": {"name": "f", "arguments": '{"a": [1, 2]}'}}, "openai_chat")
    assert (call.name, call.call_id) == ("f", "call_1")
    assert call.arguments == JsonMap({"a": [1, 2]})


def test_parse_calls_of_each_protocol() -> None:
    assert parse_call({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                      "openai_responses").call_id == "c"
    assert parse_call({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}},
                      "anthropic").arguments == JsonMap({"x": 1})
    gem = parse_call({"functionCall": {"name": "f", "args": {"x": 1}}}, "gemini")
    assert gem.call_id is None and gem.arguments["x"] == 1


def test_invalid_arguments_keep_raw_text() -> None:
    raw = '{"city": "Par'
    with pytest.raises(ArgumentsJSONError) as info:
        parse_call({"id": "c", "function": {"name": "f", "arguments": raw}}, "openai_chat")
    assert info.value.raw == raw
    assert "not valid JSON" in str(info.value) and "tool_call.function.arguments" in str(info.value)


def test_arguments_must_be_an_object() -> None:
    with pytest.raises(ArgumentsJSONError, match="expected a JSON object, got list"):
        parse_arguments("[1, 2]")


def test_empty_arguments_are_an_empty_object() -> None:
    assert parse_arguments("") == JsonMap() and parse_arguments(None) == JsonMap()
