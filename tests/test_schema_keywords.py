"""respell_invalid_keywords (rule schema-keyword-invalid): Anthropic checks each tool's
input_schema against the JSON Schema draft 2020-12 meta-schema and refuses the request for
one keyword value it does not take ("tools.17.custom.input_schema: JSON schema is invalid.
It must match JSON Schema draft 2020-12 ...", anthropics/claude-code#86664): seen for a
draft 4 boolean exclusiveMinimum beside minimum (Dokploy/mcp#74). Sent through the
anthropic SDK to the emulator."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import sdk_calls as calls
from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer import check, normalize_request
from normalizer.meta_schema import DEMANDS, invalid_keywords, respell

WORDS = ("tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema "
         "draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use "
         "at https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview.")
# Dokploy/mcp#74: the ttl of dnsProvider-createRecord from a live tools/list.
TTL = {"type": "integer", "exclusiveMinimum": True, "minimum": 0,
       "maximum": 9007199254740991}
RECORD = {"type": "object", "properties": {"name": {"type": "string"}, "ttl": TTL},
          "required": ["name"]}
READ = {"name": "read_file", "description": "Read a file.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64,
            "messages": [{"role": "user", "content": "Add an A record for www."}],
            "tools": [READ, {"name": "dns_create_record", "description": "Create a record.",
                             "input_schema": schema}]}


def test_a_draft_4_exclusive_minimum_is_refused_and_respelled(emu: Any) -> None:
    body = _body(RECORD)
    (found,) = check(body, "anthropic")
    assert (found.rule, found.location, found.message) == (
        "schema-keyword-invalid", "tools[1].input_schema.properties.ttl.exclusiveMinimum",
        WORDS)
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, body) == calls.SdkError(400, WORDS)
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert fixed.body["tools"][1]["input_schema"]["properties"]["ttl"] == {
        "type": "integer", "exclusiveMinimum": 0, "maximum": 9007199254740991}
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("respell-schema-keyword", "tools.dns_create_record.properties.ttl.exclusiveMinimum",
         True)]
    assert check(fixed.body, "anthropic") == ()
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed.body))
    assert body["tools"][1]["input_schema"] == RECORD  # the caller's body as it was


@pytest.mark.parametrize(("before", "after", "lossless"), [
    ({"type": "number", "exclusiveMaximum": True, "maximum": 1},
     {"type": "number", "exclusiveMaximum": 1}, True),
    ({"type": "number", "exclusiveMinimum": False, "minimum": 1},
     {"type": "number", "minimum": 1}, True),
    ({"type": "any"}, {}, True),
    ({"type": "STRING"}, {"type": "string"}, True),
    ({"type": ["String", "null"]}, {"type": ["string", "null"]}, True),
    ({"type": "int"}, {"type": "integer"}, True),
    ({"type": "unknown"}, {}, True),  # moonrepo/moon#2396: TypeScript's any value
    ({"type": "date"}, {}, False),
    ({"type": "string", "minLength": "3"}, {"type": "string", "minLength": 3}, True),
    ({"type": "string", "maxLength": -1}, {"type": "string"}, False),
    ({"type": "array", "items": [{"type": "string"}, {"type": "number"}]},
     {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]}, True),
    ({"type": "string", "enum": "a"}, {"type": "string"}, False),
    ({"anyOf": []}, {}, False),
])
def test_each_value_the_meta_schema_refuses(before: dict[str, Any], after: dict[str, Any],
                                             lossless: bool) -> None:
    schema = {"type": "object", "properties": {"x": before}}
    places = list(invalid_keywords(schema))
    assert places and all(p[:2] == ("properties", "x") for p in places)
    fixed, done = respell(copy.deepcopy(schema), places)
    assert fixed["properties"]["x"] == after
    assert [d.lossless for d in done if d is not None] == [lossless]
    assert list(invalid_keywords(fixed)) == []


def test_bare_type_names_where_schemas_go_become_schemas(emu: Any) -> None:
    # anthropics/anthropic-sdk-java#241: properties written as {"xCoordinate": "number"}
    schema = {"type": "object", "properties": {"xCoordinate": "number", "yCoordinate": "number"},
              "required": ["xCoordinate", "yCoordinate"]}
    body = _body(schema)
    assert [v.location for v in check(body, "anthropic")] == [
        "tools[1].input_schema.properties"]
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, body) == calls.SdkError(400, WORDS)
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert fixed.body["tools"][1]["input_schema"] == {
        "type": "object", "properties": {"xCoordinate": {"type": "number"},
                                         "yCoordinate": {"type": "number"}},
        "required": ["xCoordinate", "yCoordinate"]}
    assert [(c.code, c.lossless) for c in fixed.changes] == [("respell-schema-keyword", True)]
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed.body))
    fixed_list, done = respell({"anyOf": [3, {"type": "string"}]}, [("anyOf",)])
    assert fixed_list == {"anyOf": [{}, {"type": "string"}]} and not done[0].lossless


def test_draft_3_required_flags_move_into_the_parent_list() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "required": True},
                                               "b": {"type": "string", "required": False}},
              "required": ["c"]}
    places = list(invalid_keywords(schema))
    assert places == [("properties", "a", "required"), ("properties", "b", "required")]
    fixed, done = respell(schema, places)
    assert fixed == {"type": "object", "properties": {"a": {"type": "string"},
                                                      "b": {"type": "string"}},
                     "required": ["c", "a"]}
    assert [d.lossless for d in done if d is not None] == [True, True]


def test_valid_2020_12_schemas_and_unknown_keywords_are_left_alone() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"n": {"type": ["integer", "null"], "exclusiveMinimum": 0,
                                   "minLength": 2.0, "x-order": True},
                             "b": True, "pair": {"prefixItems": [{}, False]}},
              "$defs": {"Opts": {"type": "object", "additionalProperties": False}},
              "required": [], "enum": [], "default": {"type": "any"}}
    assert list(invalid_keywords(schema)) == []
    assert check(_body(schema), "anthropic") == ()


def test_other_vendors_keep_the_schema_as_it_came() -> None:
    for provider in ("gemini", "mistral", "moonshot", "deepseek"):
        fixed = normalize_request(_body(RECORD), "anthropic", provider)
        assert "respell-schema-keyword" not in {c.code for c in fixed.changes}, provider


# Schemas a generator may write: any keyword the meta-schema knows, with values of any
# JSON shape, nested through the keywords that hold subschemas.
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) |
    st.sampled_from(["any", "STRING", "int", "string", "3", "x", "object"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "a", "b"]), inner, max_size=2),
    max_leaves=6)
_KEYWORDS = st.sampled_from(sorted(DEMANDS))
_SCHEMAS = st.recursive(
    st.dictionaries(_KEYWORDS, _VALUES, max_size=4),
    lambda inner: st.builds(
        lambda node, props, items: {**node, "properties": props, "items": items},
        st.dictionaries(_KEYWORDS, _VALUES, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "required"]), inner, max_size=2),
        inner | st.lists(inner, max_size=2)),
    max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(schema=_SCHEMAS, dialect=st.sampled_from(["2020-12", "draft-7"]))
def test_respelling_leaves_nothing_refused_and_is_stable(schema: dict[str, Any],
                                                          dialect: str) -> None:
    before = copy.deepcopy(schema)
    fixed, done = respell(schema, list(invalid_keywords(schema, dialect=dialect)),
                          dialect=dialect)
    assert schema == before  # the input is not changed
    assert list(invalid_keywords(fixed, dialect=dialect)) == []
    again, nothing = respell(fixed, list(invalid_keywords(fixed, dialect=dialect)),
                             dialect=dialect)
    assert again == fixed and nothing == []
    assert len(done) == len(list(invalid_keywords(before, dialect=dialect)))


# OpenAI's validator: blurrah/mcp-graphql#14 ("'any' is not valid under any of the given
# schemas."), python-jsonschema's words, a tuple's `items` list taken (draft 7).
GRAPHQL = {"type": "object", "properties": {
    "query": {"type": "string"}, "variables": {"type": "any"},
    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]}},
    "required": ["query"]}


def test_openai_names_the_value_in_python_jsonschema_words(emu: Any) -> None:
    body = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Run it."}],
            "tools": [{"type": "function", "function": {"name": "query-graphql",
                                                        "parameters": GRAPHQL}}]}
    words = ("Invalid schema for function 'query-graphql': 'any' is not valid under any of "
             "the given schemas.")
    (found,) = check(body, "openai")
    assert (found.rule, found.message, found.error["param"]) == (
        "schema-keyword-invalid", words, "tools[0].function.parameters")
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    assert calls.refused("openai_chat", sdk, body) == calls.SdkError(400, words)
    fixed = normalize_request(body, "openai_chat", "openai")
    properties = fixed.body["tools"][0]["function"]["parameters"]["properties"]
    assert properties["variables"] == {} and properties["pair"] == GRAPHQL["properties"]["pair"]
    assert calls.send("openai_chat", sdk, fixed.body).choices
    responses = {"model": "gpt-4.1-mini", "input": "Run it.", "tools": [
        {"type": "function", "name": "query-graphql", "parameters": GRAPHQL}]}
    (found,) = check(responses, "openai_responses")
    assert (found.message, found.error["param"]) == (words, "tools[0].parameters")


@pytest.mark.parametrize(("schema", "said"), [
    ({"properties": {"x": {"type": "string", "required": True}}}, "True is not of type 'array'"),
    ({"properties": {"x": {"type": "integer", "exclusiveMinimum": True, "minimum": 0}}},
     "True is not of type 'number'"),
    ({"properties": {"x": []}}, "[] is not of type 'object', 'boolean'"),
    ({"properties": {"x": {"type": "string", "maxLength": -1}}},
     "-1 is less than the minimum of 0"),
    ({"required": ["a", "a"], "properties": {"a": {}}}, "['a', 'a'] has non-unique elements"),
])
def test_the_other_sentences_are_python_jsonschema_s(schema: dict[str, Any], said: str) -> None:
    body = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Go."}],
            "tools": [{"type": "function", "function": {"name": "f",
                                                        "parameters": {"type": "object",
                                                                       **schema}}}]}
    (found,) = check(body, "openai")
    assert found.message == f"Invalid schema for function 'f': {said}."
    assert check(normalize_request(body, "openai_chat", "openai").body, "openai") == ()
