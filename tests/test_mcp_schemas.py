"""The tool-schema passes together, on MCP-style schemas (unions with a type beside them,
typed $refs, pointers to its own properties, enums without a type, boolean or bare-name
property schemas, tuple items, required names it does not declare): the schema `normalize`
sends for Moonshot, whose validator refuses most of these, breaks none of the schema rules
its profile models, and a second normalize changes nothing, as tool parameters and as a
response format's schema; for the other vendors, nothing normalize sends is refused by
their profiles."""

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


@settings(max_examples=100, deadline=None)
@given(schema=_ROOTS)
def test_moonshot_takes_the_same_schemas_as_a_response_format(schema: dict[str, Any]) -> None:
    """Moonshot checks a json_schema response format with the same validator
    ("response_format.json_schema is not a valid moonshot flavored json schema", recorded):
    the same passes repair it there, said of the response schema."""
    options = {"response_format": {"type": "json_schema",
                                   "json_schema": {"name": "out", "schema": schema}}}
    out = normalize(HISTORY, "moonshot", options=options)
    left = [v for v in check(out.render(), "moonshot") if v.rule in SCHEMA_RULES]
    assert left == [], (left[0].message, thaw(out.options))
    assert all("\x00" not in c.what + c.where for c in out.changes)
    assert all(c.where.startswith("response_format.json_schema.schema") for c in out.changes
               if c.pass_name != "convert_options")
    again = normalize(HISTORY, "moonshot", options=thaw(out.options))
    assert again.changes == (), [c.what for c in again.changes]


PROVIDERS = ("openai", "openai_responses", "anthropic", "gemini", "mistral", "deepseek",
             "xai", "groq", "azure_openai", "dashscope")


@settings(max_examples=60, deadline=None)
@given(schema=_ROOTS, provider=st.sampled_from(PROVIDERS))
def test_every_vendor_takes_what_normalize_sends_for_these_schemas(
        schema: dict[str, Any], provider: str) -> None:
    """The same schemas for the other vendors: nothing normalize sends is refused by the
    vendor's own profile (Gemini's conversion read a pointer to a property as a missing
    definition until this test's schemas were sent there)."""
    out = normalize(HISTORY, provider, tools=[ToolSpec("tool", "", schema)])
    left = check(out.render(), provider)
    assert left == (), (left[0].message, thaw(out.tools[0].input_schema))
