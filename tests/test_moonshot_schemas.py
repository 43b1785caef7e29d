"""Moonshot's schema passes together: whatever MCP-style schema a tool declares (unions
with a type beside them, typed $refs, pointers to its own properties, enums without a type,
boolean or bare-name property schemas, tuple items, required names it does not declare),
the schema `normalize` sends for Moonshot breaks none of the schema rules the profile
models, and a second normalize changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer import check, normalize
from normalizer.model import History, Message, Text, ToolSpec, thaw

HISTORY = History((Message("user", (Text("Go."),)),))
SCHEMA_RULES = {"schema-type-beside-anyof", "schema-required-not-in-properties",
                "schema-type-beside-ref", "schema-ref-outside-defs",
                "schema-enum-without-type", "schema-property-not-object",
                "schema-items-not-object", "tool-parameters-not-object"}

_NAMES = st.sampled_from(["a", "b", "c"])
_LEAVES = st.sampled_from([
    {"type": "string"}, {"type": "integer", "enum": [1, 2]}, {"enum": ["x", "y"]},
    {"enum": [1, "auto", None]}, {"description": "anything"}, {"$ref": "#/$defs/D"},
    {"$ref": "#/properties/base"}, {"$ref": "#/definitions/E"},
    {"type": "string", "$ref": "#/$defs/D"}, {"type": "string", "format": "uuid"}])


def _nodes(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    properties = st.dictionaries(_NAMES, st.one_of(children, st.just(True),
                                                   st.just("string")), max_size=3)
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("object"), "properties": properties},
                              optional={"required": st.lists(_NAMES, max_size=3)}),
        st.fixed_dictionaries({"type": st.just("array"), "items": st.one_of(
            children, st.lists(children, min_size=1, max_size=2), st.just(True))}),
        st.fixed_dictionaries({"anyOf": st.lists(children, min_size=1, max_size=3)},
                              optional={"type": st.sampled_from(["object", "string"]),
                                        "properties": properties,
                                        "required": st.lists(_NAMES, max_size=2)}))


_SCHEMAS = st.recursive(_LEAVES, _nodes, max_leaves=8)
_ROOTS = st.builds(
    lambda properties, required: {
        "type": "object", "properties": {"base": {"type": "boolean"}, **properties},
        "required": required, "$defs": {"D": {"type": "string", "minLength": 1}},
        "definitions": {"E": {"enum": ["e"]}}},
    st.dictionaries(_NAMES, st.one_of(_SCHEMAS, st.just(True)), max_size=3),
    st.lists(_NAMES, max_size=2))


@settings(max_examples=150, deadline=None)
@given(schema=_ROOTS)
def test_moonshot_takes_what_normalize_sends_and_a_second_pass_changes_nothing(
        schema: dict[str, Any]) -> None:
    out = normalize(HISTORY, "moonshot", tools=[ToolSpec("tool", "", schema)])
    left = [v for v in check(out.render(), "moonshot") if v.rule in SCHEMA_RULES]
    assert left == [], (left[0].message, thaw(out.tools[0].input_schema))
    again = normalize(HISTORY, "moonshot", tools=list(out.tools))
    assert again.changes == (), [c.what for c in again.changes]
