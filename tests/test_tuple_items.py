"""respell_tuple_items (rule schema-items-not-object): Moonshot refuses an `items` that is
not one schema ("items must be an object", recorded in vercel/ai's moonshotai fixtures for
its issue 19544) and took the same tuple as `prefixItems`."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.tuple_items import items_not_object, respelled, with_object_items

HISTORY = History((Message("user", (Text("Store the pair age, 42."),)),))
# the schema of vercel/ai#19544, as a tool's parameters
PAIR: dict[str, Any] = {"type": "object", "properties": {"pair": {
    "type": "array", "items": [{"type": "string"}, {"type": "number"}],
    "minItems": 2, "maxItems": 2}}, "required": ["pair"]}


def test_a_tuple_becomes_prefix_items() -> None:
    assert list(items_not_object(PAIR)) == [("properties", "pair")]
    fixed, done = with_object_items(PAIR, [("properties", "pair")])
    assert fixed["properties"]["pair"] == {
        "type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}],
        "minItems": 2, "maxItems": 2}
    assert done == [True]
    assert isinstance(PAIR["properties"]["pair"]["items"], list)  # the input as it was


def test_additional_items_become_items_and_booleans_say_the_same() -> None:
    assert respelled({"items": [{"type": "string"}], "additionalItems": {"type": "integer"}}
                     ) == {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    assert respelled({"items": [{"type": "string"}], "additionalItems": False,
                      "maxItems": 5}) == {"prefixItems": [{"type": "string"}], "maxItems": 1}
    assert respelled({"type": "array", "items": True}) == {"type": "array", "items": {}}
    assert respelled({"prefixItems": [{}, {}], "items": False}) == {
        "prefixItems": [{}, {}], "maxItems": 2}
    assert respelled({"items": "string"}) is None


def test_moonshot_names_the_path_and_normalize_respells_the_tuple() -> None:
    tools = [ToolSpec("store_pair", "", PAIR)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.pair.items': items must be an object>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [(c.code, c.lossless) for c in out.changes] == [("respell-tuple-items", True)]
    assert "prefixItems" in thaw(out.tools[0].input_schema)["properties"]["pair"]
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_tuple() -> None:
    tools = [ToolSpec("store_pair", "", PAIR)]
    for provider in ("openai", "anthropic", "mistral", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "respell-tuple-items" not in {c.code for c in out.changes}, provider


def test_a_tuple_inside_a_tuple_and_a_reference_inside_one_are_seen() -> None:
    """The walk reads a tuple's entries as subschemas: a `$ref` in one was not hoisted (the
    `definitions` it named were dropped under it), and a tuple in a tuple lost its path
    when its parent was respelled first (tests/test_mcp_schemas.py found both)."""
    nested = {"type": "object", "properties": {"a": {
        "type": "array", "items": [{"type": "array", "items": [{"type": "string"}]}]}}}
    assert list(items_not_object(nested)) == [("properties", "a"),
                                              ("properties", "a", "items", 0)]
    fixed, done = with_object_items(nested, list(items_not_object(nested)))
    assert fixed["properties"]["a"] == {"type": "array", "prefixItems": [
        {"type": "array", "prefixItems": [{"type": "string"}]}]}
    assert done == [True, True]
    referred = {"type": "object", "definitions": {"E": {"type": "string", "enum": ["e"]}},
                "properties": {"b": {"type": "array", "items": [{"$ref": "#/definitions/E"}]}}}
    out = normalize(HISTORY, "moonshot", tools=[ToolSpec("store_pair", "", referred)])
    schema = thaw(out.tools[0].input_schema)
    assert schema["properties"]["b"]["prefixItems"] == [{"$ref": "#/$defs/E"}]
    assert schema["$defs"]["E"] == referred["definitions"]["E"]
    assert check(out.render(), "moonshot") == ()
