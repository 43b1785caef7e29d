"""Gemini takes an enum on a string only: an enum of strings on an INTEGER or BOOLEAN field
is refused ("* GenerateContentRequest.tools[0].function_declarations[14].parameters.
properties[truncateMode].enum: only allowed for STRING type", musistudio/llms#20;
router-for-me/CLIProxyAPI#1260 for values already written as strings, the type left).
normalize types such a field string (lossy: the caller converts the answer back). Sent
through google-genai to the emulator."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import check, normalize_request

LINE = ("* GenerateContentRequest.tools[0].function_declarations[0].parameters"
        ".properties[{name}].enum: only allowed for STRING type")


def _body(level: dict[str, Any], flags: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Set the level of detail to 2."}]}],
            "tools": [{"functionDeclarations": [{
                "name": "set_detail", "description": "Set the level of detail of the answer.",
                "parameters": {"type": "OBJECT", "properties": {"level": level, "flags": flags},
                               "required": ["level"]}}]}]}


def test_an_enum_on_another_type_is_refused_and_typed_string(emu: Any) -> None:
    body = _body({"type": "INTEGER", "enum": ["1", "2", "3"]},
                 {"type": "ARRAY", "items": {"type": "BOOLEAN", "enum": ["true"]}})
    found = check(body, "gemini", model="gemini-2.5-flash")
    assert [(v.rule, v.message) for v in found] == [
        ("enum-type-not-string", LINE.format(name="level")),
        ("enum-type-not-string", LINE.format(name="flags").replace(".enum", ".items.enum"))]
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    refused = calls.refused("gemini", sdk, body, model="gemini-2.5-flash")
    assert (refused.status, refused.message.splitlines()[0]) == (400, LINE.format(name="level"))
    fixed = normalize_request(body, "gemini", "gemini", model="gemini-2.5-flash")
    properties = fixed.body["tools"][0]["functionDeclarations"][0]["parameters"]["properties"]
    assert properties["level"] == {"type": "STRING", "enum": ["1", "2", "3"]}
    assert properties["flags"]["items"] == {"type": "STRING", "enum": ["true"]}
    assert [(c.code, c.lossless) for c in fixed.changes] == [("schema-enum-type", False)] * 2
    assert check(fixed.body, "gemini", model="gemini-2.5-flash") == ()
    assert calls.text_of("gemini", calls.send("gemini", sdk, fixed.body,
                                              model="gemini-2.5-flash"))


def test_a_string_enum_and_other_vendors_are_left_as_they_are() -> None:
    body = _body({"type": "STRING", "enum": ["1", "2"]}, {"type": "string", "enum": ["a"]})
    assert check(body, "gemini", model="gemini-2.5-flash") == ()
    typed = {"type": "object", "properties": {"level": {"type": "integer", "enum": ["1", "2"]}}}
    openai = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Level 2."}],
              "tools": [{"type": "function", "function": {"name": "set_detail",
                                                          "parameters": typed}}]}
    assert "enum-type-not-string" not in {v.rule for v in check(openai, "openai")}
