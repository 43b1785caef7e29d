"""Gemini's built-in tools beside function declarations (rule hosted-tool-with-functions):
Gemini 2 refuses the pair ("Multiple tools are supported only when they are all search
tools.", googleapis/js-genai#1157) and the built-in tools are left out; Gemini 3 takes it with
toolConfig.includeServerSideToolInvocations ("Please enable
tool_config.include_server_side_tool_invocations to use Built-in tools with Function
calling.", owndev/Open-WebUI-Functions#159), which normalize_request sets. Through
google-genai against the emulator."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.tool_combination import with_invocations, without_built_ins

TWO_TOOLS = "Multiple tools are supported only when they are all search tools."
FLAG = ("Please enable tool_config.include_server_side_tool_invocations to use Built-in "
        "tools with Function calling.")
MULTIPLY = {"name": "multiply", "description": "Multiply two integers.",
            "parameters": {"type": "object",
                           "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                           "required": ["a", "b"]}}


def body(*tools: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Who won in 1998? And 17 x 23?"}]}],
            "tools": list(tools), **more}


FUNCTIONS = {"functionDeclarations": [MULTIPLY]}


@pytest.mark.parametrize("built_in", [{"googleSearch": {}}, {"urlContext": {}},
                                      {"code_execution": {}}])
def test_gemini_2_refuses_a_built_in_tool_beside_functions(built_in: dict[str, Any]) -> None:
    (found,) = check(body(built_in, FUNCTIONS), "gemini", model="gemini-2.5-flash")
    assert (found.rule, found.location, found.message) == (
        "hosted-tool-with-functions", "tools[0]", TWO_TOOLS)
    # In one Tool object too; the functions first, the built-in tool after.
    assert check(body({**FUNCTIONS, **built_in}), "gemini", model="gemini-2.5-flash")
    assert check(body(FUNCTIONS, built_in), "gemini",
                 model="gemini-2.5-flash")[0].location == "tools[1]"
    # Built-in tools alone, or functions alone, are taken.
    assert check(body(built_in, {"googleSearch": {}}), "gemini", model="gemini-2.5-flash") == ()
    assert check(body(FUNCTIONS), "gemini", model="gemini-2.5-flash") == ()
    assert check(body(built_in, {"functionDeclarations": []}), "gemini",
                 model="gemini-2.5-flash") == ()


def test_gemini_3_asks_for_the_flag_and_takes_the_pair_with_it() -> None:
    pair = body({"googleSearch": {}}, FUNCTIONS)
    (found,) = check(pair, "gemini", model="gemini-3.5-flash")
    assert (found.rule, found.message) == ("hosted-tool-with-functions", FLAG)
    assert check(with_invocations(pair), "gemini", model="gemini-3.5-flash") == ()
    snake = {**pair, "tool_config": {"function_calling_config": {"mode": "AUTO"}}}
    flagged = with_invocations(snake)
    assert flagged["tool_config"] == {"function_calling_config": {"mode": "AUTO"},
                                      "include_server_side_tool_invocations": True}
    assert check(flagged, "gemini", model="gemini-3.5-flash") == ()
    # The flag does not help a Gemini 2 model.
    assert [v.message for v in check(with_invocations(pair), "gemini",
                                     model="gemini-2.5-flash")] == [TWO_TOOLS]


def test_without_built_ins_keeps_every_function() -> None:
    kept, dropped = without_built_ins(body({"googleSearch": {}, **FUNCTIONS}, {"urlContext": {}}))
    assert kept["tools"] == [FUNCTIONS] and dropped == ["googleSearch", "urlContext"]


def test_through_the_sdk_each_model_gets_its_repair(emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    raw = body({"googleSearch": {}}, FUNCTIONS)
    for model, words in (("gemini-2.5-flash", TWO_TOOLS), ("gemini-3.5-flash", FLAG)):
        assert calls.refused("gemini", sdk, raw, model=model) == calls.SdkError(400, words)

    older = normalize_request(raw, "gemini", "gemini", model="gemini-2.5-flash")
    assert [(c.code, c.where, c.lossless) for c in older.changes] == [
        ("drop-built-in-tool", "tools", False)]
    assert older.body["tools"] == [FUNCTIONS]
    assert calls.send("gemini", sdk, older.body, model="gemini-2.5-flash") is not None

    newer = normalize_request(raw, "gemini", "gemini", model="gemini-3.5-flash")
    assert [(c.code, c.where, c.lossless) for c in newer.changes] == [
        ("enable-tool-combination", "toolConfig", True)]
    assert newer.body["tools"] == raw["tools"]
    assert newer.body["toolConfig"] == {"includeServerSideToolInvocations": True}
    assert calls.send("gemini", sdk, newer.body, model="gemini-3.5-flash") is not None
    # Nothing to do where the model is not named (Gemini takes it in the URL).
    assert normalize_request(raw, "gemini", "gemini").changes == ()
