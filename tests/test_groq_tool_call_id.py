"""Groq refuses a tool message without its tool_call_id in its schema words, before any
pairing rule (hackclub/ai#22): "'messages.3' : for 'role:tool' the following must be
satisfied[('messages.3.tool_call_id' : property 'tool_call_id' is missing)]". A Gemini
history, whose calls and results may carry no id, gets ids on its way to Groq."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator, serve
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


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve() as running:
        yield running


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
