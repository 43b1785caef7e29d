"""flatten_top_level_union (rule tool-parameters-top-level-union): OpenAI refuses anyOf,
oneOf, allOf, enum, const or not at the top level of a function's parameters even beside
`type: object` (nspady/google-calendar-mcp#39), Anthropic anyOf, oneOf or allOf
(anthropics/claude-code#5319); the branches are merged into one object schema and what
that gave up is named."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer import check, normalize, render
from normalizer.model import History, Message, Text, ToolSpec, thaw
from normalizer.root_union import flattened

HISTORY = History((Message("user", (Text("Remember that I prefer metric units."),)),))
OPENAI = ("anyOf", "oneOf", "allOf", "enum", "const", "not")
# zod's discriminatedUnion as the AI SDK sends it (lvndry/jazz#510's manage_memory)
ZOD: dict[str, Any] = {"oneOf": [
    {"type": "object", "properties": {"command": {"type": "string", "const": "create"},
                                      "text": {"type": "string"}},
     "required": ["command", "text"]},
    {"type": "object", "properties": {"command": {"type": "string", "const": "delete"},
                                      "id": {"type": "string"}},
     "required": ["command", "id"]}]}
# "at least one of these fields" (dearlordylord/huly-mcp#66)
AT_LEAST_ONE: dict[str, Any] = {
    "type": "object", "required": ["identifier"],
    "properties": {"identifier": {"type": "string"}, "title": {"type": "string"},
                   "description": {"type": "string"}},
    "anyOf": [{"required": ["title"]}, {"required": ["description"]}]}


def test_a_discriminated_union_becomes_one_object_with_the_discriminator_as_an_enum() -> None:
    fixed, report = flattened(ZOD, OPENAI)  # type: ignore[misc]
    assert fixed == {"type": "object", "properties": {
        "command": {"type": "string", "enum": ["create", "delete"]},
        "text": {"type": "string"}, "id": {"type": "string"}}, "required": ["command"]}
    assert (report.keywords, report.merged, report.not_required, report.dropped) == (
        ["oneOf"], ["oneOf (2 branches)"], ["text", "id"], [])


def test_an_at_least_one_of_union_keeps_the_roots_own_properties_and_required() -> None:
    fixed, report = flattened(AT_LEAST_ONE, OPENAI)  # type: ignore[misc]
    assert fixed == {k: v for k, v in AT_LEAST_ONE.items() if k != "anyOf"}
    assert report.not_required == ["title", "description"]


def test_a_branch_admitting_no_object_is_left_out_and_said() -> None:
    # HassStartTimer's duration: a string or hours/minutes (goruck/home-generative-agent#545)
    schema = {"anyOf": [{"type": "string"},
                        {"type": "object", "properties": {"minutes": {"type": "integer"}}}]}
    fixed, report = flattened(schema, OPENAI)  # type: ignore[misc]
    assert fixed == {"type": "object", "properties": {"minutes": {"type": "integer"}}}
    assert report.dropped == ["1 anyOf branch(es) admitting no object"]


def test_local_refs_are_read_and_other_branches_make_it_unreadable() -> None:
    schema = {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/definitions/B"}],
              "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}},
              "definitions": {"B": {"type": "object", "properties": {"b": {"type": "number"}}}}}
    fixed, _ = flattened(schema, OPENAI)  # type: ignore[misc]
    assert fixed["properties"] == {"a": {"type": "string"}, "b": {"type": "number"}}
    assert fixed["$defs"] == schema["$defs"]  # nested refs may still point there
    assert flattened({"oneOf": [{"$ref": "https://example.com/a.json"}]}, OPENAI) is None
    assert flattened({"anyOf": "not a list"}, OPENAI) is None
    assert flattened({"type": "object", "properties": {}}, OPENAI) is None


def test_all_of_requires_every_branchs_names_and_keeps_both_forms_of_a_property() -> None:
    schema = {"allOf": [
        {"properties": {"q": {"type": "string"}}, "required": ["q"]},
        {"properties": {"q": {"maxLength": 5}, "n": {"type": "integer"}}, "required": ["n"],
         "if": {"properties": {"n": {"const": 0}}}, "then": {"required": ["q"]}}]}
    fixed, report = flattened(schema, OPENAI)  # type: ignore[misc]
    assert fixed["properties"] == {"q": {"allOf": [{"type": "string"}, {"maxLength": 5}]},
                                   "n": {"type": "integer"}}
    assert fixed["required"] == ["q", "n"]
    assert report.dropped == ["allOf branch keys if, then"]


def test_a_top_level_not_or_enum_is_dropped_where_the_target_refuses_it() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}},
              "not": {"required": ["a", "b"]}}
    fixed, report = flattened(schema, OPENAI)  # type: ignore[misc]
    assert fixed == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert report.dropped == ["top-level not"]
    assert flattened(schema, ("anyOf", "oneOf", "allOf")) is None  # Anthropic takes it


@pytest.mark.parametrize(("provider", "message"), [
    ("openai", "Invalid schema for function 'update_issue': schema must have type 'object' and "
               "not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level."),
    ("openai_responses", "Invalid schema for function 'update_issue': schema must have type "
                         "'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at "
                         "the top level."),
    ("anthropic", "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, "
                  "or anyOf at the top level"),
    ("xai", "update_issue: tool parameter root must be an object type (root schema is an "
            "anyOf/oneOf union with a non-object branch)")])
def test_the_check_words_it_as_the_vendor_and_normalize_flattens_it(provider: str,
                                                                     message: str) -> None:
    tools = [ToolSpec("update_issue", "", AT_LEAST_ONE)]
    protocol = {"openai": "openai_chat", "xai": "openai_chat"}.get(provider, provider)
    (found,) = check(render(HISTORY, protocol, tools=tools), provider)
    assert (found.rule, found.message) == ("tool-parameters-top-level-union", message)
    out = normalize(HISTORY, provider, tools=tools)
    (change,) = out.changes
    assert (change.code, change.where, change.lossless) == (
        "flatten-top-level-union", "tools.update_issue", False)
    assert "'title', 'description'" in change.what
    assert check(out.render(), provider) == ()


def test_a_typeless_union_is_named_for_its_type_first_and_normalize_types_it() -> None:
    tools = [ToolSpec("manage_memory", "", ZOD)]
    for provider in ("openai", "anthropic"):
        protocol = {"openai": "openai_chat"}.get(provider, provider)
        found = check(render(HISTORY, protocol, tools=tools), provider)
        assert [v.rule for v in found] == ["tool-parameters-not-object"], provider
        out = normalize(HISTORY, provider, tools=tools)
        assert [c.code for c in out.changes] == ["flatten-top-level-union"], provider
        assert thaw(out.tools[0].input_schema)["type"] == "object"
        assert check(out.render(), provider) == (), provider


def test_xai_names_a_union_without_type_as_a_union() -> None:
    tools = [ToolSpec("HassStartTimer", "", ZOD)]
    (found,) = check(render(HISTORY, "openai_chat", tools=tools), "xai")
    assert found.rule == "tool-parameters-top-level-union"
    out = normalize(HISTORY, "xai", tools=tools)
    assert [c.code for c in out.changes] == ["flatten-top-level-union"]
    assert check(out.render(), "xai") == ()


def test_the_union_is_named_before_the_missing_properties_beside_it() -> None:
    # HassStartTimer with type object added beside its anyOf: the union's text came back
    tools = [ToolSpec("HassStartTimer", "", {"type": "object", "anyOf": ZOD["oneOf"]})]
    found = check(render(HISTORY, "openai_chat", tools=tools), "openai")
    assert [v.rule for v in found] == ["tool-parameters-top-level-union",
                                       "object-schema-missing-properties"]


def test_vendors_without_the_rule_get_the_schema_as_declared() -> None:
    tools = [ToolSpec("update_issue", "", AT_LEAST_ONE)]
    for provider in ("mistral", "groq", "deepseek"):
        out = normalize(HISTORY, provider, tools=tools)
        assert thaw(out.tools[0].input_schema) == AT_LEAST_ONE, provider


_SCALARS = st.sampled_from([{"type": "string"}, {"type": "integer"}, {"const": "a"},
                            {"const": "b"}, {"type": "string", "const": "a"}, {}])
_NAMES = st.sampled_from(["a", "b", "c"])
_BRANCH = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["object", "string", ["object", "null"]]),
    "properties": st.dictionaries(_NAMES, _SCALARS, max_size=3),
    "required": st.lists(_NAMES, max_size=3),
    "if": st.just({"required": ["a"]}),
    "$ref": st.sampled_from(["#/$defs/D", "#/definitions/D", "https://example.com/x"])})
_ROOT = st.fixed_dictionaries({}, optional={
    "type": st.just("object"),
    "properties": st.dictionaries(_NAMES, _SCALARS, max_size=3),
    "required": st.lists(_NAMES, max_size=3),
    "anyOf": st.lists(_BRANCH, max_size=3), "oneOf": st.lists(_BRANCH, max_size=3),
    "allOf": st.lists(_BRANCH, max_size=3), "not": _BRANCH, "enum": st.just([{}]),
    "$defs": st.just({"D": {"type": "object", "properties": {"d": {"type": "string"}}}})})


@settings(max_examples=200, deadline=None)
@given(schema=_ROOT, keywords=st.sampled_from([OPENAI, ("anyOf", "oneOf", "allOf")]))
def test_a_flattened_schema_is_one_object_the_target_takes_and_stays_so(
        schema: dict[str, Any], keywords: tuple[str, ...]) -> None:
    done = flattened(schema, keywords)
    if done is None:  # nothing refused, or a branch that cannot be read
        refused = [k for k in keywords if k in schema]
        assert not refused or any(not _readable(b, schema) for k in refused
                                  if k in ("anyOf", "oneOf", "allOf") for b in schema[k])
        return
    fixed, report = done
    assert not [k for k in keywords if k in fixed]
    assert fixed["type"] == "object" and isinstance(fixed["properties"], dict)
    assert set(fixed.get("required", ())) <= set(fixed["properties"])
    assert set(schema.get("properties", {})) <= set(fixed["properties"])  # nothing of its own lost
    assert report.keywords and flattened(fixed, keywords) is None


def _readable(branch: dict[str, Any], root: dict[str, Any]) -> bool:
    ref = branch.get("$ref")
    return ref is None or any(ref == f"#/{defs}/D" and defs in root
                              for defs in ("$defs", "definitions"))


def test_flattening_leaves_its_input_as_it_was() -> None:
    before = copy.deepcopy(ZOD)
    flattened(ZOD, OPENAI)
    assert before == ZOD
