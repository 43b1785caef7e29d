"""The repair passes of the rule families found in the evidence (docs/profiles.md, "Rule
families added from the evidence"): each, on the smallest history that breaks its rule,
reports its change, gives a body check() accepts, is idempotent and leaves other providers'
histories alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from normalizer import check, parse, render
from normalizer.model import History, JsonMap, ToolSpec
from normalizer.normalize import normalize
from normalizer.passes import Draft, Policy
from normalizer.passes.options import drop_json_response_type_with_tools
from normalizer.profiles import load_profile

WEATHER = ToolSpec("get_weather", "Current weather for a city.",
                   {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"]})


def _chat_call(**extra: Any) -> dict[str, Any]:
    return {"id": "aB3dE5gH1", **extra, "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}


def _chat(assistant: dict[str, Any]) -> History:
    return parse({"messages": [{"role": "user", "content": "Weather in Paris?"}, assistant,
                               {"role": "tool", "tool_call_id": "aB3dE5gH1",
                                "content": "18C"}]}, "openai_chat")


def _fixed(history: History, provider: str, protocol: str, model: str,
           **kw: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
    out = normalize(history, provider, tools=(WEATHER,), model=model, **kw)
    again = normalize(out.history, provider, tools=out.tools, model=model, **kw)
    assert again.changes == (), "not idempotent"
    body = render(out.history, protocol, tools=out.tools, model=model)
    return body, tuple(c.code for c in out.changes)


def test_text_beside_calls_is_split_for_devstral_only() -> None:
    history = _chat({"role": "assistant", "content": "Checking.", "tool_calls": [_chat_call()]})
    body, codes = _fixed(history, "mistral", "openai_chat", "devstral-latest")
    assert codes == ("split-text-from-tool-calls",)
    assert check(body, "mistral", model="devstral-latest") == ()
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "assistant", "tool"]
    assert body["messages"][1]["content"] == "Checking."
    _, small = _fixed(history, "mistral", "openai_chat", "mistral-small-latest")
    assert small == ()  # mistral-small-latest accepts text beside calls (recorded 2026-08)


def test_unknown_call_fields_are_dropped_for_fireworks() -> None:
    history = _chat({"role": "assistant", "content": None,
                     "tool_calls": [_chat_call(call_id="aB3dE5gH1", response_item_id="fc_1")]})
    raw = render(history, "openai_chat", tools=(WEATHER,))
    assert check(raw, "fireworks")[0].rule == "unknown-tool-call-field"
    body, codes = _fixed(history, "fireworks", "openai_chat", "m")
    assert codes == ("drop-tool-call-field",)
    assert check(body, "fireworks") == ()


def test_only_calls_with_unknown_fields_are_touched_for_fireworks() -> None:
    """Messages whose calls carry no field to drop are passed on as they are (the pass skips
    their parts); in a message with both kinds, only the call with unknown fields changes."""
    from normalizer.model import Message, Text, ToolCall
    from normalizer.passes.call_fields import drop_unknown_tool_call_fields

    plain = Message("assistant", (Text("a"), ToolCall("get_weather", {}, "c1")))
    gemini = Message("assistant", (ToolCall("get_weather", {}, "c2",
                                            {"thought_signature": "sig"}),))
    mixed = Message("assistant", (ToolCall("get_weather", {}, "c3"),
                                  ToolCall("get_weather", {}, "c4", {"call_id": "c4"})))
    out, changes = drop_unknown_tool_call_fields(Draft(History((plain, gemini, mixed))),
                                                 load_profile("fireworks"), Policy())
    assert [c.where for c in changes] == ["messages[2].parts[1]"]
    kept = out.history.messages
    assert kept[0] is plain and kept[1] is gemini
    assert kept[2].parts[0] is mixed.parts[0] and kept[2].parts[1].extras == JsonMap()


def test_unknown_result_fields_are_dropped_when_the_message_has_none() -> None:
    """A tool message whose own fields are all known still loses a result's unknown field
    (Groq): the pass's shortcut for messages without unknown fields looks at results too."""
    from normalizer.model import Message, ToolCall, ToolResult
    from normalizer.passes.call_fields import drop_unknown_message_fields

    call = Message("assistant", (ToolCall("get_weather", {}, "c1"),))
    tool = Message("tool", (ToolResult("c1", "ok", extras={"x_trace": "t1"}),))
    out, changes = drop_unknown_message_fields(Draft(History((call, tool))),
                                               load_profile("groq"), Policy())
    assert [(c.code, c.where) for c in changes] == [("drop-message-field", "messages[1]")]
    assert out.history.messages[0] is call
    assert out.history.messages[1].tool_results[0].extras == JsonMap()


def test_empty_arguments_become_an_object_for_xai() -> None:
    call = _chat_call()
    call["function"]["arguments"] = ""
    history = _chat({"role": "assistant", "content": None, "tool_calls": [call]})
    body, codes = _fixed(history, "xai", "openai_chat", "grok-3-mini")
    assert codes == ("parse-string-arguments",)
    assert body["messages"][1]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert check(body, "xai") == ()


def test_system_parts_are_joined_into_a_string_for_groq() -> None:
    history = parse({"messages": [
        {"role": "system", "content": [{"type": "text", "text": "Be brief."},
                                       {"type": "text", "text": "Answer in French."}]},
        {"role": "user", "content": "Hello"}]}, "openai_chat")
    body, codes = _fixed(history, "groq", "openai_chat", "llama-3.3-70b-versatile",
                         on="2025-03-01")  # before Groq took lists (2025-07-11)
    assert codes == ("join-text-parts",)
    assert body["messages"][0]["content"] == "Be brief.\nAnswer in French."
    assert check(body, "groq", on="2025-03-01") == ()


def test_made_up_reasoning_ids_are_removed_for_responses() -> None:
    history = parse({"input": [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "reasoning", "id": "reasoning_1", "encrypted_content": "gAAAAABo3Xk9cmVh",
         "summary": [{"type": "summary_text", "text": "Call get_weather."}]},
        {"type": "function_call", "call_id": "aB3dE5gH1", "name": "get_weather",
         "arguments": '{"city":"Paris"}'},
        {"type": "function_call_output", "call_id": "aB3dE5gH1", "output": "18C"}]},
        "openai_responses")
    body, codes = _fixed(history, "openai_responses", "openai_responses", "gpt-5-mini")
    assert codes == ("drop-reasoning-item-id",)
    assert "id" not in body["input"][1] and body["input"][1]["type"] == "reasoning"
    assert check(body, "openai_responses") == ()


def test_empty_function_response_name_takes_the_call_name_for_gemini() -> None:
    history = parse({"contents": [
        {"role": "user", "parts": [{"text": "Capital of Peru?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "search", "args": {"q": "x"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "",
                                                         "response": {"result": "Lima"}}}]}]},
        "gemini")
    out = normalize(history, "gemini", tools=(ToolSpec("search"),), model="gemini-2.5-flash")
    assert "name-function-response" in [c.code for c in out.changes]
    body = render(out.history, "gemini", tools=(ToolSpec("search"),))
    assert body["contents"][2]["parts"][0]["functionResponse"]["name"] == "search"
    assert check(body, "gemini", model="gemini-2.5-flash") == ()


def test_server_tool_call_and_its_result_become_text_for_anthropic() -> None:
    history = parse({"max_tokens": 64, "messages": [
        {"role": "user", "content": "What day is today?"},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me search."},
            {"type": "tool_use", "id": "srvtoolu_01A", "name": "web_search",
             "input": {"query": "today"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "srvtoolu_01A",
                                      "content": "Friday"}]}]}, "anthropic")
    out = normalize(history, "anthropic", tools=(ToolSpec("web_search"),))
    codes = [c.code for c in out.changes]
    assert codes == ["server-tool-call-to-text", "server-tool-call-to-text"]
    assert not any(c.lossless for c in out.changes)
    body = render(out.history, "anthropic", tools=out.tools, model="claude-haiku-4-5")
    assert check(body, "anthropic") == ()
    assert "srvtoolu_01A" not in str(body)


def test_whitespace_only_assistant_text_is_dropped_for_anthropic() -> None:
    history = parse({"messages": [{"role": "user", "content": "Hello"},
                                  {"role": "assistant", "content": "\n\n"},
                                  {"role": "user", "content": "Go on."}]}, "openai_chat")
    raw = render(history, "anthropic", model="claude-haiku-4-5")
    assert check(raw, "anthropic")[0].rule == "whitespace-text-block"
    out = normalize(history, "anthropic")
    assert "drop-empty-message" in [c.code for c in out.changes]
    assert check(render(out.history, "anthropic", model="claude-haiku-4-5"), "anthropic") == ()


@pytest.mark.parametrize(("model", "dropped"), [("gemini-2.5-flash", True),
                                                ("gemini-3-pro-preview", False)])
def test_json_response_type_is_dropped_beside_tools_for_gemini_2_5(model: str,
                                                                  dropped: bool) -> None:
    options = {"generationConfig": {"maxOutputTokens": 16,
                                    "responseMimeType": "application/json"}}
    draft = Draft(History(), (WEATHER,), JsonMap(options))
    policy, gemini = Policy(model=model), load_profile("gemini")
    kept, changes = drop_json_response_type_with_tools(draft, gemini, policy)
    assert bool(changes) is dropped
    assert ("responseMimeType" in kept.options["generationConfig"]) is not dropped
    assert options["generationConfig"]["responseMimeType"] == "application/json"  # pure
    assert drop_json_response_type_with_tools(replace(draft, tools=()), gemini,
                                              policy)[1] == ()


def test_strict_schema_findings_name_the_context_and_the_missing_key() -> None:
    body = {"model": "gpt-4o-mini", "input": "hi", "tools": [{
        "type": "function", "name": "f", "strict": True, "parameters": {
            "type": "object", "additionalProperties": False, "required": ["a"],
            "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                           "o": {"type": "object", "properties": {}}}}}]}
    found = check(body, "openai_responses")
    assert [v.message for v in found] == [
        "Invalid schema for function 'f': In context=(), 'required' is required to be "
        "supplied and to be an array including every key in properties. Missing 'b'.",
        "Invalid schema for function 'f': In context=('properties', 'o'), "
        "'additionalProperties' is required to be supplied and to be false."]
    assert JsonMap(found[0].error)["param"] == "tools[0].parameters"
