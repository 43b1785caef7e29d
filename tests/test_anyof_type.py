"""move_type_into_anyof (rule schema-type-beside-anyof): Moonshot refuses a `type` beside
an `anyOf` anywhere in a tool's parameters ("when using anyOf, type should be defined in
anyOf items instead of the parent schema", openclaw/openclaw#113130); the type moves into
the branches, and a root anyOf is merged into one object (the root must stay typed)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer import check, normalize, render
from normalizer.anyof_type import distributed, type_beside_anyof
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.schema_walk import dotted

HISTORY = History((Message("user", (Text("Ask me which colour I prefer."),)),))
NULLABLE = {"type": "array", "anyOf": [{"items": {"type": "string"}}, {"type": "null"}]}
# openJiuwen-ai/jiuwenswarm#3942's path: a nullable array deep in an array of objects
QUESTIONS: dict[str, Any] = {"type": "object", "properties": {"questions": {
    "type": "array", "items": {"type": "object", "properties": {"options": NULLABLE}}}}}
# an "at least one of" anyOf of required lists on an object (openclaw/openclaw#113130)
AT_LEAST_ONE = {"type": "object", "properties": {"a": {"type": "string"}},
                "required": ["id"], "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}


def test_paths_are_found_parents_first_and_spelled_as_the_validator_does() -> None:
    schema = {"type": "object", "anyOf": [{"properties": {"x": NULLABLE}}],
              "properties": {"y": {"type": "array", "items": NULLABLE}}}
    paths = list(type_beside_anyof(schema))
    assert paths == [(), ("properties", "y", "items"), ("anyOf", 0, "properties", "x")]
    assert [dotted(p) for p in paths] == ["root", "properties.y.items", "anyOf.properties.x"]


def test_a_nullable_array_gets_its_type_in_the_untyped_branch_and_says_it_widened() -> None:
    fixed, exact = distributed({"properties": {"o": NULLABLE}}, [("properties", "o")])
    assert fixed == {"properties": {"o": {"anyOf": [
        {"type": "array", "items": {"type": "string"}}, {"type": "null"}]}}}
    assert exact == [False]  # type array had excluded the null branch


def test_an_object_parent_gives_each_branch_its_properties_and_required_too() -> None:
    fixed, exact = distributed({"properties": {"t": AT_LEAST_ONE}}, [("properties", "t")])
    branch = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert fixed["properties"]["t"] == {"anyOf": [{**branch, "required": ["id", "a"]},
                                                  {**branch, "required": ["id", "b"]}]}
    assert exact == [True]


def test_a_ref_or_nested_anyof_branch_keeps_what_it_has() -> None:
    node = {"type": "string", "anyOf": [{"$ref": "#/$defs/S"}, {"anyOf": [{"minLength": 1}]},
                                        {"maxLength": 3}]}
    fixed, exact = distributed({"properties": {"s": node}}, [("properties", "s")])
    assert fixed["properties"]["s"]["anyOf"] == [{"$ref": "#/$defs/S"},
                                                 {"anyOf": [{"minLength": 1}]},
                                                 {"type": "string", "maxLength": 3}]
    assert exact == [False]


_LEAF = st.sampled_from([{"type": "string"}, {"type": "null"}, {"items": {"type": "string"}},
                         {"$ref": "#/$defs/D"}, {"required": ["a"]}, {}])
_NODE = st.recursive(_LEAF, lambda inner: st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["object", "array", "string"]),
    "anyOf": st.lists(inner, min_size=1, max_size=3),
    "properties": st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
    "items": inner, "required": st.just(["a"])}), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(schema=_NODE)
def test_after_the_move_only_the_root_keeps_a_type_beside_an_anyof(schema: dict[str, Any]
                                                                   ) -> None:
    before = copy.deepcopy(schema)
    paths = [p for p in type_beside_anyof(schema) if p]
    fixed, exact = distributed(schema, paths)
    assert schema == before
    assert [p for p in type_beside_anyof(fixed) if p] == []
    assert len(exact) == len(paths)


def test_moonshot_names_the_path_and_normalize_moves_the_type() -> None:
    tools = [ToolSpec("ask_questions", "", QUESTIONS)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
    assert (found.rule, found.message) == (
        "schema-type-beside-anyof",
        "Invalid request: tools.function.parameters is not a valid moonshot flavored json "
        "schema, details: <At path 'properties.questions.items.properties.options': when "
        "using anyOf, type should be defined in anyOf items instead of the parent schema>")
    out = normalize(HISTORY, "moonshot", tools=tools)
    (change,) = out.changes
    assert (change.code, change.lossless) == ("move-type-into-anyof", False)
    assert change.where == "tools.ask_questions.properties.questions.items.properties.options"
    assert check(out.render(), "moonshot") == ()


def test_a_root_anyof_typed_or_not_is_merged_into_one_object_for_moonshot() -> None:
    variants = [{"type": "object", "properties": {"url": {"type": "string"}},
                 "required": ["url"]},
                {"type": "object", "properties": {"content": {"type": "string"}},
                 "required": ["content"]}]
    for schema in ({"type": "object", "anyOf": variants}, {"anyOf": variants}):
        tools = [ToolSpec("notion-create-attachment", "", schema)]
        (found,) = check(render(HISTORY, "openai_chat", tools=tools), "moonshot")
        assert found.rule in ("schema-type-beside-anyof", "tool-parameters-not-object")
        out = normalize(HISTORY, "moonshot", tools=tools)
        assert [c.code for c in out.changes] == ["flatten-top-level-union"]
        assert thaw(out.tools[0].input_schema) == {
            "type": "object", "properties": {"url": {"type": "string"},
                                             "content": {"type": "string"}}}
        assert check(out.render(), "moonshot") == ()


def test_vendors_without_the_rule_get_the_schema_as_declared() -> None:
    tools = [ToolSpec("ask_questions", "", QUESTIONS)]
    for provider in ("anthropic", "deepseek", "mistral", "groq"):
        out = normalize(HISTORY, provider, tools=tools)
        assert thaw(out.tools[0].input_schema) == QUESTIONS, provider


def test_a_property_both_give_differently_keeps_the_branchs_form_and_says_so() -> None:
    node = {"type": "object", "properties": {"a": {"type": "string"}},
            "anyOf": [{"properties": {"a": {"maxLength": 3}}}]}
    fixed, exact = distributed({"properties": {"n": node}}, [("properties", "n")])
    assert fixed["properties"]["n"] == {"anyOf": [
        {"type": "object", "properties": {"a": {"maxLength": 3}}}]}
    assert exact == [False]
