"""Gemini before Gemini 3 refuses a function-calling config with no function declared
("Function calling config is set without function_declarations.",
UKGovernmentBEIS/inspect_ai#2462): Google Search as the only tool, or a summary call with a
tool_choice and no tools. normalize leaves the config out and keeps the rest of toolConfig
and the built-in tools; OpenRouter relays the refusal for Google's models in its own words
(tailcallhq/forgecode#1404). Sent through google-genai and openai to the emulators."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

WORDS = "Function calling config is set without function_declarations."
MULTIPLY = {"name": "multiply", "description": "Multiply two integers.",
            "parameters": {"type": "object", "properties": {"a": {"type": "integer"},
                                                            "b": {"type": "integer"}}}}


def _body(tools: list[Any] | None, config: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"contents": [{"role": "user",
                                          "parts": [{"text": "Who won the 1998 World Cup?"}]}],
                            "toolConfig": config}
    if tools is not None:
        body["tools"] = tools
    return body


@pytest.mark.parametrize("tools", [None, [{"googleSearch": {}}],
                                   [{"googleSearch": {}}, {"urlContext": {}}]])
@pytest.mark.parametrize("calling", [{"mode": "AUTO"}, {"mode": "NONE"}, {}])
def test_a_calling_config_without_functions_is_refused_before_gemini_3(
        tools: list[Any] | None, calling: dict[str, Any]) -> None:
    body = _body(tools, {"functionCallingConfig": calling})
    (found,) = check(body, "gemini", model="gemini-2.5-flash")
    assert (found.rule, found.location, found.message) == (
        "tool-choice-without-tools", "tool_config.function_calling_config", WORDS)
    assert check(body, "gemini", model="gemini-3-flash-preview") == ()


def test_with_a_function_declared_it_is_taken() -> None:
    body = _body([{"googleSearch": {}}, {"functionDeclarations": [MULTIPLY]}],
                 {"functionCallingConfig": {"mode": "ANY"}})
    assert "tool-choice-without-tools" not in {
        v.rule for v in check(body, "gemini", model="gemini-2.5-flash")}
    assert check(_body(None, {"retrievalConfig": {"languageCode": "en"}}), "gemini",
                 model="gemini-2.5-flash") == ()


def test_normalize_keeps_the_search_and_the_rest_of_tool_config(emu: Any) -> None:
    body = _body([{"googleSearch": {}}],
                 {"functionCallingConfig": {"mode": "AUTO"},
                  "retrievalConfig": {"languageCode": "en"}})
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    assert calls.refused("gemini", sdk, body, model="gemini-2.5-flash") == \
        calls.SdkError(400, WORDS)
    fixed = normalize_request(body, "gemini", "gemini", model="gemini-2.5-flash")
    assert fixed.body["tools"] == [{"googleSearch": {}}]
    assert fixed.body["toolConfig"] == {"retrievalConfig": {"languageCode": "en"}}
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("drop-tool-choice-without-tools", "toolConfig.functionCallingConfig", True)]
    assert calls.text_of("gemini", calls.send("gemini", sdk, fixed.body,
                                              model="gemini-2.5-flash"))
    # Gemini 3 was seen taking it: nothing is left out for it.
    kept = normalize_request(body, "gemini", "gemini", model="gemini-3-flash-preview")
    assert kept.body["toolConfig"]["functionCallingConfig"] == {"mode": "AUTO"}
    assert kept.changes == ()


def test_an_openai_summary_call_to_gemini_loses_its_tool_choice(emu: Any) -> None:
    body = {"model": "gpt-4o", "tool_choice": "required",
            "messages": [{"role": "user", "content": "Summarize: it rained all week."}]}
    fixed = normalize_request(body, "openai_chat", "gemini", model="gemini-2.5-flash")
    assert "toolConfig" not in fixed.body
    assert "drop-tool-choice-without-tools" in {c.code for c in fixed.changes}
    assert check(fixed.body, "gemini", model="gemini-2.5-flash") == ()
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    assert calls.text_of("gemini", calls.send("gemini", sdk, fixed.body,
                                              model="gemini-2.5-flash"))


def test_openrouter_relays_it_for_google_models(emu: Any) -> None:
    body = {"model": "google/gemini-2.5-flash", "tool_choice": "auto",
            "messages": [{"role": "user", "content": "Summarize: it rained all week."}]}
    (found,) = check(body, "openrouter")
    assert (found.rule, found.message) == ("tool-choice-without-tools",
                                           "Provider returned error")
    assert WORDS in found.error["metadata"]["raw"]
    assert check({**body, "model": "google/gemini-3-flash-preview"}, "openrouter") == ()
    assert check({**body, "model": "openai/gpt-4.1-mini"}, "openrouter") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url("openrouter"))
    said = calls.refused("openai_chat", sdk, body)
    assert (said.status, said.message) == (400, "Provider returned error")
    fixed = normalize_request(body, "openai_chat", "openrouter")
    assert "tool_choice" not in fixed.body
    assert calls.send("openai_chat", sdk, fixed.body).choices


def test_the_sdk_spelling_is_read_and_repaired_too() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
            "tools": [{"google_search": {}}],
            "tool_config": {"function_calling_config": {"mode": "AUTO"},
                            "retrieval_config": {"language_code": "en"}}}
    assert [v.rule for v in check(body, "gemini", model="gemini-2.5-flash")] == [
        "tool-choice-without-tools"]
    fixed = normalize_request(body, "gemini", "gemini", model="gemini-2.5-flash")
    assert fixed.body["tool_config"] == {"retrieval_config": {"language_code": "en"}}
    assert [c.where for c in fixed.changes] == ["tool_config.function_calling_config"]
    assert check(fixed.body, "gemini", model="gemini-2.5-flash") == ()
