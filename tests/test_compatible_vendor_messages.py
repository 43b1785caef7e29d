"""Messages OpenAI-compatible vendors refuse in their own words.

Groq refuses a tool message without its tool_call_id in its schema words, before any
pairing rule (hackclub/ai#22): "'messages.3' : for 'role:tool' the following must be
satisfied[('messages.3.tool_call_id' : property 'tool_call_id' is missing)]". A Gemini
history, whose calls and results may carry no id, gets ids on its way to Groq.

xAI refuses an empty system message (BoltAI/BoltAI#235, grok-2-1212), in words that changed
twice (n8n-io/n8n#14797, charmbracelet/crush#964); the repair leaves the message out."""

from __future__ import annotations

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.tool_spec import ToolSpec

WORDS = ("'messages.{0}' : for 'role:tool' the following must be satisfied"
         "[('messages.{0}.tool_call_id' : property 'tool_call_id' is missing)]")
GEMINI_TURN = History((
    Message("user", (Text("Weather in Paris?"),)),
    Message("assistant", (ToolCall("get_weather", {"city": "Paris"}, None),), origin="gemini"),
    Message("tool", (ToolResult(None, "18C", name="get_weather"),)),
))
TOOLS = (ToolSpec("get_weather", "Current weather for a city.",
                  {"type": "object", "properties": {"city": {"type": "string"}}}),)


def test_the_schema_words_come_before_the_pairing() -> None:
    # The proxy in hackclub/ai#22 dropped the id and the call: Groq answered the schema
    # words, where the inherited base would have answered orphan-tool-result first.
    body = {"model": "llama-3.3-70b-versatile", "messages": [
        {"role": "user", "content": "news?"}, {"role": "assistant", "content": "one moment"},
        {"role": "tool", "content": "headlines"}]}
    found = check(body, "groq")
    assert [v.rule for v in found] == ["tool-call-id-missing", "orphan-tool-result"]
    assert (found[0].message, found[0].location) == (WORDS.format(2), "messages[2].tool_call_id")


def test_a_gemini_turn_gets_ids_for_groq_and_is_taken(emu: Emulator) -> None:
    raw = normalize(GEMINI_TURN, "vllm", tools=TOOLS).render()
    assert "tool_call_id" not in raw["messages"][2]  # vLLM takes it as it is
    raw["model"] = "llama-3.3-70b-versatile"
    assert [v.rule for v in check(raw, "groq")][:1] == ["tool-call-id-missing"]
    sdk = calls.client("openai_chat", emu.sdk_base_url("groq"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, raw)
    assert WORDS.format(2) in refused.value.response.text
    result = normalize(GEMINI_TURN, "groq", tools=TOOLS)
    assert [c.code for c in result.changes] == ["assign-tool-call-id", "pair-tool-result-id"]
    fixed = result.render()
    call_id = fixed["messages"][1]["tool_calls"][0]["id"]
    assert fixed["messages"][2]["tool_call_id"] == call_id
    assert result.id_map[call_id] is None  # there was no id to map back to
    assert check(fixed, "groq") == ()
    answer = calls.send("openai_chat", sdk, fixed)
    assert answer.choices[0].message.role == "assistant"


XAI_WORDS = {
    "2024-12-20": "An empty message was provided. Every message needs at least one non-empty "
                  "content element.",
    "2025-04-22": "Each message must have at least one content element.",
    "2026-11-28": "Invalid request content: Each message must have at least one content "
                  "element.",
}


def test_xai_refuses_an_empty_system_message_in_the_words_of_the_day(emu: Emulator) -> None:
    body = {"model": "grok-4", "messages": [{"role": "system", "content": ""},
                                            {"role": "user", "content": "hi"}]}
    for day, words in XAI_WORDS.items():
        assert [(v.rule, v.message, v.location) for v in check(body, "xai", on=day)] == [
            ("empty-content", words, "messages[0].content")], day
    assert check(body, "openai") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url("xai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body)
    assert XAI_WORDS["2026-11-28"] in refused.value.response.text
    history = History((Message("system", (Text(""),)), Message("user", (Text("hi"),))))
    result = normalize(history, "xai")
    [change] = result.changes
    assert (change.code, change.where, change.lossless) == (
        "drop-empty-message", "messages[0]", True)
    fixed = result.render()
    assert [m["role"] for m in fixed["messages"]] == ["user"]
    assert calls.send("openai_chat", sdk, fixed).choices[0].message.content
