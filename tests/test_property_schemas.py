"""objectify_property_schemas (rule schema-property-not-object): Moonshot refuses a property
whose schema is not an object ("property schema for 'outputSchema' must be an object",
can1357/oh-my-pi#5952; a bare "string", diegosouzapw/OmniRoute#13586)."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.property_schemas import non_object_properties, objectified

HISTORY = History((Message("user", (Text("Run the review task."),)),))
# oh-my-pi's task tool: `outputSchema: true` inside the tasks' items (#5952)
TASK: dict[str, Any] = {"type": "object", "properties": {"tasks": {
    "type": "array", "items": {"type": "object", "properties": {
        "assignment": {"type": "string"}, "outputSchema": True}}}}}


def test_true_is_the_empty_schema_and_a_type_name_its_schema() -> None:
    schema = {"type": "object", "properties": {"a": True, "b": "string", "c": 3,
                                               "d": {"type": "integer"}}}
    found = list(non_object_properties(schema))
    assert found == [((), "a"), ((), "b"), ((), "c")]
    fixed, done = objectified(schema, found)
    assert fixed["properties"] == {"a": {}, "b": {"type": "string"}, "c": {},
                                   "d": {"type": "integer"}}
    assert done == ["any", "typed", "emptied"]
    assert schema["properties"]["a"] is True  # the input is left as it was


def test_a_false_property_is_left_out_with_its_required_name() -> None:
    schema = {"type": "object", "properties": {"a": False, "b": {"type": "string"}},
              "required": ["a", "b"]}
    fixed, done = objectified(schema, list(non_object_properties(schema)))
    assert fixed == {"type": "object", "properties": {"b": {"type": "string"}},
                     "required": ["b"]}
    assert done == ["dropped"]
    alone = {"type": "object", "properties": {"a": False}, "required": ["a"]}
    assert objectified(alone, [((), "a")])[0] == {"type": "object", "properties": {}}


def test_moonshot_names_the_properties_path_and_normalize_writes_an_object() -> None:
    tools = [ToolSpec("task", "", TASK)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.tasks.items.properties': property schema "
        "for 'outputSchema' must be an object>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [(c.code, c.lossless) for c in out.changes] == [
        ("objectify-property-schema", True)]
    schema = thaw(out.tools[0].input_schema)
    assert schema["properties"]["tasks"]["items"]["properties"]["outputSchema"] == {}
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_boolean() -> None:
    tools = [ToolSpec("task", "", TASK)]
    for provider in ("openai", "anthropic", "mistral", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "objectify-property-schema" not in {c.code for c in out.changes}, provider
