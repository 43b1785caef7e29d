"""A JSON response format beside tools (rule response-format-with-tools). Groq's Chat wire:
"json mode cannot be combined with tool/function calling" (vercel/ai#10023; older words
agno-agi/agno#1065, nanobrowser/nanobrowser#120) for json_object and json_schema with any
tools. Gemini 2.5 with a built-in tool: "Tool use with a response mime type:
'application/json' is unsupported" (snailyp/gemini-balance#238), a copy of the rule beside
the one for function declarations. normalize drops the format and keeps the tools, whether
the tools are functions the passes see or built-in ones normalize_request sends as they
came."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text, ToolSpec

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}
SCHEMA = {"type": "json_schema", "json_schema": {"name": "summary", "schema": {
    "type": "object", "properties": {"summary": {"type": "string"}},
    "required": ["summary"], "additionalProperties": False}}}
WORDS = "json mode cannot be combined with tool/function calling"


def _body(response_format: Any, tools: list[Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "openai/gpt-oss-20b", "response_format": response_format,
        "messages": [{"role": "user", "content": "Weather in Paris, as a JSON summary?"}]}
    if tools is not None:
        body["tools"] = tools
    return body


@pytest.mark.parametrize("kind", ["json_object", "json_schema"])
def test_groq_refuses_either_json_type_beside_tools_in_its_words(kind: str) -> None:
    fmt = SCHEMA if kind == "json_schema" else {"type": kind}
    (found,) = check(_body(fmt, [WEATHER]), "groq")
    assert (found.rule, found.location, found.message) == (
        "response-format-with-tools", "response_format.type", WORDS)


def test_without_tools_or_with_a_text_format_nothing_is_flagged() -> None:
    assert check(_body({"type": "json_object"}), "groq") == ()
    assert check(_body({"type": "json_object"}, []), "groq") == ()  # declares nothing
    assert check(_body({"type": "text"}, [WEATHER]), "groq") == ()
    assert check(_body(SCHEMA, [WEATHER]), "openai") == ()  # OpenAI takes the pair


def test_normalize_drops_the_format_keeps_the_tools_and_says_so() -> None:
    body = _body(SCHEMA, [WEATHER])
    fixed = normalize_request(body, "openai_chat", "groq")
    assert "response_format" not in fixed.body
    assert fixed.body["tools"] == [WEATHER]
    assert fixed.body["messages"] == body["messages"]
    assert [(c.pass_name, c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("drop_json_response_type_with_tools", "drop-json-response-type", "response_format",
         False)]
    assert "'json_schema'" in fixed.changes[0].what
    assert check(fixed.body, "groq") == ()
    # OpenAI keeps both: the repair is Groq's.
    assert normalize_request(body, "openai_chat", "openai").body["response_format"] == SCHEMA


def test_built_in_tools_only_are_fixed_where_they_are_sent_as_they_came() -> None:
    body = _body({"type": "json_object"}, [{"type": "browser_search"}])
    assert [v.rule for v in check(body, "groq")] == ["response-format-with-tools"]
    fixed = normalize_request(body, "openai_chat", "groq")
    assert fixed.body["tools"] == [{"type": "browser_search"}]
    assert "response_format" not in fixed.body
    assert [c.code for c in fixed.changes] == ["drop-json-response-type"]
    assert check(fixed.body, "groq") == ()


def test_a_responses_body_switched_to_groq_loses_its_text_format_beside_tools() -> None:
    body = {"model": "gpt-4.1", "input": "Weather in Paris, as a JSON summary?",
            "tools": [{"type": "function", "name": "get_weather",
                       "parameters": WEATHER["function"]["parameters"]}],
            "text": {"format": {"type": "json_schema", "name": "summary",
                                "schema": SCHEMA["json_schema"]["schema"]}}}
    fixed = normalize_request(body, "openai_responses", "groq")
    assert "response_format" not in fixed.body
    assert [t["function"]["name"] for t in fixed.body["tools"]] == ["get_weather"]
    assert "drop-json-response-type" in [c.code for c in fixed.changes]
    assert check(fixed.body, "groq") == ()


def test_the_normalize_api_repairs_the_options_it_is_given() -> None:
    history = History((Message("user", (Text("Weather in Paris?"),)),))
    tool = ToolSpec("get_weather", "Current weather for a city.",
                    WEATHER["function"]["parameters"])
    done = normalize(history, "groq", tools=(tool,),
                     options={"response_format": {"type": "json_object"}})
    assert "response_format" not in done.render()
    assert [c.code for c in done.changes] == ["drop-json-response-type"]
    kept = normalize(history, "groq", options={"response_format": {"type": "json_object"}})
    assert kept.render()["response_format"] == {"type": "json_object"}


def test_through_the_groq_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("groq"))
    body = _body({"type": "json_object"}, [WEATHER])
    said = calls.refused("openai_chat", sdk, body)
    assert (said.status, said.message) == (400, WORDS)
    reply = calls.send("openai_chat", sdk, normalize_request(body, "openai_chat", "groq").body)
    assert reply.choices[0].finish_reason in {"stop", "tool_calls"}


GEMINI_JSON = {"contents": [{"role": "user", "parts": [{"text": "Is the user next? JSON."}]}],
               "tools": [{"urlContext": {}}],
               "generationConfig": {"responseMimeType": "application/json",
                                    "responseSchema": {"type": "OBJECT", "properties": {
                                        "next_speaker": {"type": "STRING"}}}}}
BUILT_IN_WORDS = "Tool use with a response mime type: 'application/json' is unsupported"


def test_gemini_2_5_refuses_json_beside_a_built_in_tool_and_gemini_3_takes_it() -> None:
    (found,) = check(GEMINI_JSON, "gemini", model="gemini-2.5-flash")
    assert (found.rule, found.message) == ("response-format-with-tools", BUILT_IN_WORDS)
    assert check(GEMINI_JSON, "gemini", model="gemini-3-flash-preview") == ()
    functions = {**GEMINI_JSON, "tools": [{"functionDeclarations": [
        {"name": "get_weather", "parameters": {"type": "object"}}]}]}
    (found,) = check(functions, "gemini", model="gemini-2.5-flash")
    assert found.message == "Function calling with a response mime type: 'application/json' " \
                            "is unsupported"


def test_normalize_for_gemini_2_5_drops_the_json_type_beside_a_built_in_tool() -> None:
    fixed = normalize_request(GEMINI_JSON, "gemini", "gemini", model="gemini-2.5-flash")
    assert fixed.body["tools"] == [{"urlContext": {}}]
    assert fixed.body["generationConfig"] == {}
    (change,) = fixed.changes
    assert (change.code, change.where, change.lossless) == (
        "drop-json-response-type", "generationConfig.responseMimeType", False)
    assert "built-in tool" in change.what
    assert check(fixed.body, "gemini", model="gemini-2.5-flash") == ()
    kept = normalize_request(GEMINI_JSON, "gemini", "gemini", model="gemini-3-flash-preview")
    assert kept.body == GEMINI_JSON and kept.changes == ()


def test_through_the_genai_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    said = calls.refused("gemini", sdk, GEMINI_JSON, model="gemini-2.5-flash")
    assert (said.status, said.message) == (400, BUILT_IN_WORDS)
    fixed = normalize_request(GEMINI_JSON, "gemini", "gemini", model="gemini-2.5-flash")
    reply = calls.send("gemini", sdk, fixed.body, model="gemini-2.5-flash")
    assert reply.candidates


FUNCTIONS_JSON = {"contents": [{"role": "user", "parts": [{"text": "Look it up; JSON."}]}],
                  "tools": [{"functionDeclarations": [
                      {"name": "search", "parameters": {"type": "object"}}]}],
                  "generationConfig": {"responseMimeType": "application/json"}}


def _mode(mode: str) -> dict[str, Any]:
    return {**FUNCTIONS_JSON, "toolConfig": {"functionCallingConfig": {"mode": mode}}}


def test_gemini_2_5_words_the_forced_pair_its_own_way_and_takes_it_with_calling_off() -> None:
    (forced,) = check(_mode("ANY"), "gemini", model="gemini-2.5-flash")
    assert forced.message == ("Forced function calling (ANY mode) with a response mime "
                              "type: 'application/json' is unsupported")
    (auto,) = check(_mode("AUTO"), "gemini", model="gemini-2.5-flash")
    assert auto.message.startswith("Function calling with a response mime type")
    assert check(_mode("NONE"), "gemini", model="gemini-2.5-flash") == ()
    fixed = normalize_request(_mode("ANY"), "gemini", "gemini", model="gemini-2.5-flash")
    assert "responseMimeType" not in fixed.body["generationConfig"]
    assert fixed.body["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}
    kept = normalize_request(_mode("NONE"), "gemini", "gemini", model="gemini-2.5-flash")
    assert kept.body["generationConfig"] == {"responseMimeType": "application/json"}


FIREWORKS_WORDS = "You cannot specify response format and function call at the same time"


@pytest.mark.parametrize("fmt", [SCHEMA, {"type": "json_object"}, {"type": "text"}])
def test_fireworks_refuses_any_format_beside_tools_and_normalize_drops_it(emu: Any,
                                                                         fmt: Any) -> None:
    body = {**_body(fmt, [WEATHER]), "model": "accounts/fireworks/models/kimi-k2p6"}
    (found,) = check(body, "fireworks")
    assert (found.rule, found.message) == ("response-format-with-tools", FIREWORKS_WORDS)
    sdk = calls.client("openai_chat", emu.sdk_base_url("fireworks"))
    assert calls.refused("openai_chat", sdk, body).message == FIREWORKS_WORDS
    fixed = normalize_request(body, "openai_chat", "fireworks")
    assert "response_format" not in fixed.body and fixed.body["tools"] == [WEATHER]
    assert [c.lossless for c in fixed.changes] == [fmt == {"type": "text"}]
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body)) == "ok"
