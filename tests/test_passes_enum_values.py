"""drop_empty_enum_values (rule enum-empty-value): Gemini refuses a tool whose parameters
hold `""` among an enum's values, one "enum[i]: cannot be empty" line per value
(apify/apify-mcp-server#353); the value is left out and the change reported as lossy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.evidence.agree import agreement
from conformance.evidence.load import load_observation
from normalizer import check, normalize, normalize_request, render
from normalizer.empty_enum import empty_enum_values, without_empty_values
from normalizer.model import History, Message, Text, ToolSpec, thaw

EVIDENCE = Path(__file__).resolve().parent.parent / "evidence"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["", "shell", "prompt"]},
        "ops": {"type": "array", "items": {"type": "object", "properties": {
            "op": {"type": "string", "enum": ["reconcile", "resume", ""]}}}},
        "link": {"anyOf": [{"type": "string", "enum": [""]}, {"type": "null"}]},
        "only": {"type": "string", "format": "enum", "enum": ["", ""]},
        "fine": {"type": "string", "enum": ["a", "b"]},
    },
}
HISTORY = History((Message("user", (Text("Save it as a shell skill."),)),))


def test_every_empty_value_is_found_and_left_out_and_nothing_else_moves() -> None:
    assert list(empty_enum_values(SCHEMA)) == [
        (("properties", "kind"), 0), (("properties", "ops", "items", "properties", "op"), 2),
        (("properties", "link", "anyOf", 0), 0), (("properties", "only"), 0),
        (("properties", "only"), 1)]
    paths = list(dict.fromkeys(path for path, _ in empty_enum_values(SCHEMA)))
    fixed = without_empty_values(SCHEMA, paths)
    assert list(empty_enum_values(fixed)) == []
    props = fixed["properties"]
    assert props["kind"] == {"type": "string", "enum": ["shell", "prompt"]}
    assert props["ops"]["items"]["properties"]["op"]["enum"] == ["reconcile", "resume"]
    assert props["link"]["anyOf"][0] == {"type": "string"}  # its only value: no enum left
    assert props["only"] == {"type": "string"}  # nor the format that announced one
    assert props["fine"] is SCHEMA["properties"]["fine"]  # shared, not copied
    assert SCHEMA["properties"]["kind"]["enum"] == ["", "shell", "prompt"]  # not mutated


def test_gemini_check_names_each_value_as_the_vendor_does_and_normalize_leaves_it_out() -> None:
    tools = [ToolSpec("skills_manage", "Create or update a skill.", SCHEMA)]
    raw = render(HISTORY, "gemini", tools=tools)
    found = check(raw, "gemini")
    assert {v.rule for v in found} == {"enum-empty-value"}
    assert found[0].message == ("* GenerateContentRequest.tools[0].function_declarations[0]."
                                "parameters.properties[kind].enum[0]: cannot be empty")
    assert [v.location.split(".parameters")[1] for v in found] == [
        ".properties[kind].enum[0]", ".properties[ops].items.properties[op].enum[2]",
        ".properties[link].any_of[0].enum[0]", ".properties[only].enum[0]",
        ".properties[only].enum[1]"]
    out = normalize(HISTORY, "gemini", tools=tools)
    assert check(out.render(), "gemini") == ()
    mine = [c for c in out.changes if c.code == "drop-empty-enum-value"]
    assert [(c.where, c.lossless) for c in mine] == [
        (f"tools.skills_manage.{where}", False)
        # anyOf [string, null] is a nullable string after Gemini's schema conversion
        for where in ("properties.kind", "properties.ops.items.properties.op",
                      "properties.link", "properties.only")]
    assert "can no longer choose it" in mine[0].what
    assert "its only value was the empty string" in mine[2].what


def test_a_const_empty_string_is_converted_first_then_its_enum_dropped() -> None:
    tools = [ToolSpec("t", "", {"type": "object", "properties": {"author": {"const": ""}}})]
    out = normalize(HISTORY, "gemini", tools=tools)
    assert [c.code for c in out.changes] == ["schema-const-to-enum", "schema-enum-type",
                                             "drop-empty-enum-value"]
    assert thaw(out.tools[0].input_schema)["properties"]["author"] == {"type": "string"}
    assert check(out.render(), "gemini") == ()


def test_vendors_that_take_an_empty_enum_value_get_it_as_declared() -> None:
    tools = [ToolSpec("skills_manage", "", SCHEMA)]
    for provider in ("openai", "anthropic", "mistral"):
        out = normalize(HISTORY, provider, tools=tools)
        assert "drop-empty-enum-value" not in {c.code for c in out.changes}, provider
        assert thaw(out.tools[0].input_schema)["properties"]["kind"] == SCHEMA[
            "properties"]["kind"]


def test_normalize_request_fixes_a_gemini_body() -> None:
    body = render(HISTORY, "gemini", tools=[ToolSpec("skills_manage", "", SCHEMA)])
    out = normalize_request(body, "gemini", "gemini")
    assert check(out.body, "gemini") == ()
    params = out.body["tools"][0]["functionDeclarations"][0]["parameters"]
    assert params["properties"]["kind"]["enum"] == ["shell", "prompt"]


def test_the_observed_answer_of_two_lines_is_given_verbatim() -> None:
    # Gemini names every empty value in one message, a line each: check() gives that text
    # as the run of its violations under the rule, in the order the vendor listed them.
    obs = load_observation(EVIDENCE / "gemini" / "enum-empty-value-rejected-2025-12.yaml",
                           root=EVIDENCE)
    found = agreement(obs)
    assert (found.outcome, found.rule) == ("agrees", "enum-empty-value")
    assert found.message.strip() != (obs.error or "").strip()  # the first line alone
    assert found.text_matches is True


def test_a_schema_nested_thousands_deep_is_walked_and_fixed_without_recursion() -> None:
    schema: dict[str, Any] = {"type": "string", "enum": ["", "x"]}
    for _ in range(3000):
        schema = {"type": "object", "properties": {"a": schema}}
    ((path, index),) = empty_enum_values(schema)
    assert (len(path), index) == (6000, 0)
    assert list(empty_enum_values(without_empty_values(schema, [path]))) == []
