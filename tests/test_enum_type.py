"""type_bare_enums (rule schema-enum-without-type): Moonshot refuses an enum without a type
("type is not defined", anomalyco/opencode#40127; JetBrains' MCP enums in
MoonshotAI/kimi-cli#2030); the values' JSON type is added."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, render
from normalizer.enum_type import enums_without_type, json_type, typed, with_types
from normalizer.model import History, Message, Text, ToolSpec, thaw

HISTORY = History((Message("user", (Text("Show the file as text."),)),))
# the issue's own parameters (opencode#40127)
VIEW: dict[str, Any] = {"type": "object",
                        "properties": {"view": {"enum": ["text", "raw"]}}}


def test_the_values_type_is_added() -> None:
    assert typed({"enum": ["START", "END"], "description": "d"}) == {
        "enum": ["START", "END"], "description": "d", "type": "string"}
    assert typed({"enum": [1, 2]})["type"] == "integer"
    assert typed({"enum": [1, 2.5]})["type"] == "number"
    assert typed({"enum": [True]})["type"] == "boolean"
    assert [json_type(v) for v in (None, {}, [], 1.0)] == ["null", "object", "array",
                                                          "number"]


def test_values_of_several_types_become_one_branch_each() -> None:
    assert typed({"enum": [1, "auto", None], "default": "auto"}) == {
        "default": "auto",
        "anyOf": [{"type": "integer", "enum": [1]}, {"type": "string", "enum": ["auto"]},
                  {"type": "null"}]}


def test_what_cannot_take_a_type_is_left() -> None:
    for node in ({"enum": []}, {"enum": "a"}, {"enum": ["a"], "$ref": "#/$defs/A"},
                 {"enum": ["a"], "anyOf": [{"type": "string"}]}):
        assert typed(node) is None, node
    schema = {"type": "object", "enum": [{}],  # the root: a rule of its own
              "properties": {"a": {"enum": ["x"], "$ref": "#/$defs/A"}}}
    paths = list(enums_without_type(schema))
    assert paths == [("properties", "a")]
    assert with_types(schema, paths) == (schema, [None])


def test_enums_are_found_at_any_depth_below_the_root() -> None:
    schema = {"type": "object", "properties": {"groups": {"type": "array", "items": {
        "type": "object", "properties": {"match": {"enum": ["any", "all"]}}}},
        "icon": {"anyOf": [{"type": "object", "properties": {"color": {"enum": ["red"]}}},
                           {"type": "null"}]}}}
    assert list(enums_without_type(schema)) == [
        ("properties", "groups", "items", "properties", "match"),
        ("properties", "icon", "anyOf", 0, "properties", "color")]


def test_moonshot_names_the_path_and_normalize_types_the_enum() -> None:
    tools = [ToolSpec("show_file", "", VIEW)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.view': type is not defined>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [(c.code, c.lossless) for c in out.changes] == [("type-bare-enum", True)]
    assert thaw(out.tools[0].input_schema)["properties"]["view"]["type"] == "string"
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_bare_enum() -> None:
    tools = [ToolSpec("show_file", "", VIEW)]
    for provider in ("openai", "anthropic", "mistral", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "type-bare-enum" not in {c.code for c in out.changes}, provider
