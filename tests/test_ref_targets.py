"""hoist_refs_into_defs (rule schema-ref-outside-defs): Moonshot refuses a `$ref` that does
not point into the schema's root `$defs` ("references must start with #/$defs/",
Softeria/ms-365-mcp-server#458 and #571); each target is copied into `$defs`."""

from __future__ import annotations

import copy
from typing import Any

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.ref_targets import hoisted, pointed, refs_outside_defs
from normalizer.schema_walk import node_at, schema_nodes

HISTORY = History((Message("user", (Text("Merge the branch."),)),))
# zod-to-json-schema's default strategy for a schema used twice (zereight/gitlab-mcp#238)
DEDUP: dict[str, Any] = {
    "type": "object",
    "properties": {"auto_merge": {"type": "boolean", "description": "Merge when green."},
                   "squash": {"$ref": "#/properties/auto_merge"}}}
# a recursive Microsoft Graph type (Softeria/ms-365-mcp-server#571, rebuilt from its path)
FOLDER: dict[str, Any] = {
    "type": "object",
    "properties": {"body": {"type": "object", "properties": {
        "displayName": {"type": "string"},
        "childFolders": {"type": "array", "items": {"$ref": "#/properties/body"}}}}}}


def _refs(schema: Any) -> list[str]:
    return [node["$ref"] for node, _ in schema_nodes(schema) if "$ref" in node]


def test_a_pointer_to_the_first_place_becomes_a_def() -> None:
    assert list(refs_outside_defs(DEDUP)) == [("properties", "squash")]
    fixed, moved = hoisted(DEDUP)
    assert moved == {"#/properties/auto_merge": "auto_merge"}
    assert fixed["properties"]["squash"] == {"$ref": "#/$defs/auto_merge"}
    assert fixed["$defs"] == {"auto_merge": DEDUP["properties"]["auto_merge"]}
    assert fixed["properties"]["auto_merge"] == DEDUP["properties"]["auto_merge"]
    assert "$defs" not in DEDUP  # the input is left as it was


def test_a_recursive_type_points_at_its_own_def() -> None:
    before = copy.deepcopy(FOLDER)
    fixed, moved = hoisted(FOLDER)
    assert before == FOLDER
    assert moved == {"#/properties/body": "body"}
    assert _refs(fixed) == ["#/$defs/body", "#/$defs/body"]
    assert list(refs_outside_defs(fixed)) == []
    assert fixed["$defs"]["body"]["properties"]["childFolders"]["items"] == {
        "$ref": "#/$defs/body"}


def test_every_reference_still_names_what_it_named() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "$defs": {"body": {"const": "taken"}},
        "definitions": {"When": {"type": "string", "format": "date-time"}},
        "properties": {
            "a/b~c": {"type": "object", "properties": {"v": {"$ref": "#/definitions/When"}}},
            "escaped": {"$ref": "#/properties/a~1b~0c"},
            "pick": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "first": {"$ref": "#/properties/pick/anyOf/0"},
            "body": {"$ref": "#/properties/escaped"},
            "kept": {"$ref": "#/$defs/body"},
            "self": {"$ref": "#"}}}
    fixed, moved = hoisted(schema)
    assert set(moved) == {"#/definitions/When", "#/properties/a~1b~0c",
                          "#/properties/pick/anyOf/0", "#/properties/escaped"}
    assert fixed["$defs"]["body"] == {"const": "taken"}  # a name already taken is kept
    assert moved["#/properties/escaped"] == "escaped"
    assert moved["#/definitions/When"] == "When"  # its own name: definitions is dropped
    assert "definitions" not in fixed  # nothing points into it any more
    for node, path in schema_nodes(fixed):
        ref = node.get("$ref")
        if ref in (None, "#") or path[:1] == ("$defs",):
            continue
        old = node_at(schema, path)["$ref"]
        new = pointed(fixed, ref)
        assert new is not None, path
        assert _unhoisted(new, fixed) == _unhoisted(pointed(schema, old), schema), path


def _unhoisted(node: Any, root: Any) -> Any:
    """`node` with every reference replaced by what it names (no cycles in this test)."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str) and node["$ref"] != "#":
            return _unhoisted(pointed(root, node["$ref"]), root)
        return {k: _unhoisted(v, root) for k, v in node.items()}
    if isinstance(node, list):
        return [_unhoisted(v, root) for v in node]
    return node


def test_an_unreadable_reference_is_left_and_nothing_else_changes() -> None:
    schema = {"type": "object", "properties": {
        "remote": {"$ref": "https://example.com/s.json"},
        "dangling": {"$ref": "#/properties/nothing"},
        "ok": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}
    assert [p[-1] for p in refs_outside_defs(schema)] == ["remote", "dangling"]
    fixed, moved = hoisted(schema)
    assert (fixed, moved) == (schema, {})


def test_moonshot_names_the_path_and_normalize_hoists_the_target() -> None:
    tools = [ToolSpec("create-mail-folder", "", FOLDER)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert found.message == (
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.body.properties.childFolders.items.$ref': "
        "references must start with #/$defs/>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    assert [(c.code, c.lossless) for c in out.changes] == [("hoist-ref-into-defs", True)]
    assert list(refs_outside_defs(thaw(out.tools[0].input_schema))) == []
    assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_keep_the_pointer() -> None:
    tools = [ToolSpec("merge_request", "", DEDUP)]
    for provider in ("openai", "anthropic", "mistral", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "hoist-ref-into-defs" not in {c.code for c in out.changes}, provider


def test_gemini_reads_a_pointer_to_a_property_as_what_it_points_to() -> None:
    """Gemini's conversion inlines definitions by name; a `#/properties/...` pointer was
    dropped as unresolved and the property became an object. Now it is read where it
    points, and a definition of the same last name is not taken for it."""
    schema = {"type": "object", "definitions": {"auto_merge": {"type": "string"}},
              "properties": {**DEDUP["properties"],
                             "mode": {"$ref": "#/definitions/auto_merge"}}}
    out = normalize(HISTORY, "gemini", tools=[ToolSpec("merge_request", "", schema)])
    properties = thaw(out.tools[0].input_schema)["properties"]
    assert properties["squash"] == DEDUP["properties"]["auto_merge"]
    assert properties["mode"] == {"type": "string"}
    inlined = [c.what for c in out.changes if c.code == "schema-inline-ref"]
    assert inlined == ["inlined $ref '#/properties/auto_merge'",
                       "inlined $ref '#/definitions/auto_merge'"]
    assert check(out.render(), "gemini") == ()
