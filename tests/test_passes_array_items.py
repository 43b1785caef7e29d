"""add_array_items (rule array-schema-missing-items): OpenAI and Gemini refuse a tool whose
parameters hold an array schema without `items` (gumloop/guMCP#136,
kkrishnan90/gemini-desktop#7); `items: {}` says the same and is sent instead."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, normalize_request, render
from normalizer.array_items import bare_arrays, with_items
from normalizer.model import History, Message, Text, ToolSpec, thaw

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "tags": {"type": "array"},
        "rows": {"type": "array", "items": {"type": "array"}},
        "maybe": {"type": ["array", "null"]},
        "pick": {"anyOf": [{"type": "string"}, {"type": "array"}]},
        "fine": {"type": "array", "items": {"type": "string"}},
    },
    "$defs": {"Batch": {"type": "array"}},
}
HISTORY = History((Message("user", (Text("Tag it."),)),))


def test_every_bare_array_is_found_and_given_items_and_nothing_else_moves() -> None:
    paths = list(bare_arrays(SCHEMA))
    assert paths == [("properties", "tags"), ("properties", "rows", "items"),
                     ("properties", "maybe"), ("properties", "pick", "anyOf", 1),
                     ("$defs", "Batch")]
    fixed = with_items(SCHEMA, paths)
    assert list(bare_arrays(fixed)) == []
    assert fixed["properties"]["tags"] == {"type": "array", "items": {}}
    assert fixed["properties"]["pick"]["anyOf"] == [{"type": "string"},
                                                    {"type": "array", "items": {}}]
    assert fixed["properties"]["fine"] is SCHEMA["properties"]["fine"]  # shared, not copied
    assert SCHEMA["properties"]["tags"] == {"type": "array"}  # the input is not mutated


def test_openai_check_names_each_array_as_the_vendor_does_and_normalize_adds_items() -> None:
    tools = [ToolSpec("create_canvas", "Make a canvas.", SCHEMA)]
    raw = render(HISTORY, "openai_chat", tools=tools)
    found = check(raw, "openai")
    assert {v.rule for v in found} == {"array-schema-missing-items"}
    assert found[0].message == ("Invalid schema for function 'create_canvas': In "
                                "context=('properties', 'tags'), array schema missing items.")
    assert "context=('properties', 'maybe', 'type', '0')" in found[2].message
    out = normalize(HISTORY, "openai", tools=tools)
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("add-array-items", f"tools.create_canvas.{where}", True)
        for where in ("properties.tags", "properties.rows.items", "properties.maybe",
                      "properties.pick.anyOf.1", "$defs.Batch")]
    assert check(out.render(), "openai") == ()
    assert thaw(out.tools[0].input_schema) == with_items(SCHEMA, list(bare_arrays(SCHEMA)))


def test_gemini_names_the_proto_path_and_normalize_adds_items_after_its_conversion() -> None:
    tools = [ToolSpec("tag_note", "Tag a note.",
                      {"type": "object", "properties": {"tags": {"type": "array"}}})]
    raw = render(HISTORY, "gemini", tools=tools)
    (found,) = check(raw, "gemini")
    assert found.message == ("* GenerateContentRequest.tools[0].function_declarations[0]."
                             "parameters.properties[tags].items: missing field.")
    sdk = {**raw, "tools": [{"functionDeclarations": [{  # google-genai's upper-case types
        "name": "tag_note", "parameters": {"type": "OBJECT",
                                           "properties": {"tags": {"type": "ARRAY"}}}}]}]}
    assert [v.location for v in check(sdk, "gemini")] == [found.location]
    out = normalize(HISTORY, "gemini", tools=[ToolSpec("x", "", SCHEMA)])
    assert check(out.render(), "gemini") == ()
    assert "add-array-items" in {c.code for c in out.changes}


def test_vendors_that_take_bare_arrays_get_them_as_declared() -> None:
    tools = [ToolSpec("create_canvas", "", SCHEMA)]
    out = normalize(HISTORY, "anthropic", tools=tools)
    assert out.changes == () and thaw(out.tools[0].input_schema) == SCHEMA


def test_normalize_request_fixes_a_chat_body_for_openai() -> None:
    body = render(HISTORY, "openai_chat", tools=[ToolSpec("tag_note", "", SCHEMA)])
    out = normalize_request(body, "openai_chat", "openai")
    assert check(out.body, "openai") == ()
    params = out.body["tools"][0]["function"]["parameters"]
    assert params["properties"]["tags"] == {"type": "array", "items": {}}


def test_a_schema_nested_thousands_deep_is_walked_and_fixed_without_recursion() -> None:
    schema: dict[str, Any] = {"type": "array"}
    for _ in range(3000):
        schema = {"type": "object", "properties": {"a": schema}}
    (path,) = bare_arrays(schema)
    assert len(path) == 6000
    assert list(bare_arrays(with_items(schema, [path]))) == []
