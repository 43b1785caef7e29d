"""drop_undeclared_required (rule schema-required-not-in-properties): Moonshot refuses a
name in `required` that the same schema's properties do not declare ("required property
'codecType' is not defined in properties", MoonshotAI/kimi-code#1610); the name is left out
of `required`, after the anyOf repair has given branches their parent's properties."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.required_names import undeclared_required, without_undeclared

HISTORY = History((Message("user", (Text("Run the encode workflow."),)),))
WORKFLOW: dict[str, Any] = {"type": "object", "properties": {"workFlow": {
    "type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}},
                               "required": ["name", "codecType"]}}}}


def test_names_without_properties_are_found_and_left_out_an_empty_list_dropped() -> None:
    schema = {"required": ["a"], "properties": {"b": {"type": "object", "required": ["c"]}}}
    found = list(undeclared_required(schema))
    assert found == [((), "a"), (("properties", "b"), "c")]
    fixed = without_undeclared(schema, [path for path, _ in found])
    assert fixed == {"properties": {"b": {"type": "object"}}}
    assert schema["required"] == ["a"]  # the input is left as it was


def test_moonshot_names_the_path_and_normalize_leaves_the_name_out() -> None:
    tools = [ToolSpec("run_workflow", "", WORKFLOW)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.workFlow.items.required': required property "
        "'codecType' is not defined in properties>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    (change,) = out.changes
    assert (change.code, change.lossless) == ("drop-undeclared-required", False)
    assert "'codecType'" in change.what
    assert thaw(out.tools[0].input_schema)["properties"]["workFlow"]["items"]["required"] == [
        "name"]
    assert check(out.render(), "moonshot") == ()


def test_branches_naming_only_what_is_required_get_the_parents_properties_first() -> None:
    # an object with an "at least one of" anyOf, nested: the anyOf repair copies the
    # properties into each branch, so no required name is dropped
    node = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}
    tools = [ToolSpec("t", "", {"type": "object", "properties": {"n": node}})]
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [c.code for c in out.changes] == ["move-type-into-anyof"]
    branches = thaw(out.tools[0].input_schema)["properties"]["n"]["anyOf"]
    assert [b["required"] for b in branches] == [["a"], ["b"]]
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_names() -> None:
    tools = [ToolSpec("run_workflow", "", WORKFLOW)]
    for provider in ("openai", "anthropic", "gemini", "mistral"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "drop-undeclared-required" not in {c.code for c in out.changes}, provider
