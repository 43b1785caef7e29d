"""An assembled stream is the next assistant turn of a history as it is: a stream cut in the
middle of a call, followed by a new user turn, is the "calls without results" history, and
check / normalize treat it exactly as they treat that history written by hand."""

from __future__ import annotations

from typing import Any

import pytest

import normalizer
from normalizer.model import History, Message, Text, ToolCall, ToolSpec
from normalizer.normalize import normalize
from normalizer.streaming import StreamResult, assemble, emit

TOOLS = (ToolSpec("get_weather", input_schema={"type": "object",
                                               "properties": {"city": {"type": "string"}}}),
         ToolSpec("get_time"))
ANSWER = Message("assistant", (Text("Checking both."),
                               ToolCall("get_weather", {"city": "Paris"}, "call_a1"),
                               ToolCall("get_time", {"tz": "Europe/Paris"}, "call_b2")))
USER = Message("user", (Text("Weather and time in Paris?"),))
AGAIN = Message("user", (Text("Hello? Are you there?"),))


def _cut_in_second_call(protocol: str) -> StreamResult:
    """The stream as it stood when the connection dropped inside call_b2's arguments."""
    events = emit(ANSWER, protocol, split=lambda s: [s[:6], s[6:]])
    first_fragment = next(i for i, e in enumerate(events) if '"tz"' in str(e))
    return assemble(events[: first_fragment + 1], protocol)


@pytest.mark.parametrize("protocol", ["openai_chat", "anthropic", "openai_responses"])
def test_cut_stream_plus_user_turn_is_calls_without_results(protocol: str) -> None:
    result = _cut_in_second_call(protocol)
    history = History((USER, result.message, AGAIN))
    assistant = history.messages[1]
    assert assistant.role == "assistant" and not result.complete
    assert [c.id for c in assistant.tool_calls][-1] == "call_b2"
    assert result.incomplete_calls[-1].id == "call_b2"
    answered = {r.call_id for m in history.messages for r in m.tool_results}
    assert not answered and history.messages[2].role == "user"


@pytest.mark.parametrize(("protocol", "provider"), [("openai_chat", "openai"),
                                                    ("anthropic", "anthropic"),
                                                    ("openai_responses", "openai_responses")])
def test_check_and_normalize_see_the_hand_written_case(protocol: str, provider: str) -> None:
    streamed = History((USER, _cut_in_second_call(protocol).message, AGAIN))
    by_hand = History((USER, Message("assistant", ANSWER.parts[: 1 + len(
        streamed.messages[1].tool_calls)]), AGAIN))
    # The cut call's arguments are its raw fragment (a string): where the wire needs an
    # object (Anthropic tool_use.input) that is one more defect than the hand-written case.
    cut_text = {"tool-arguments-not-object"}
    assert set(_rules(streamed, protocol, provider)) - cut_text == set(
        _rules(by_hand, protocol, provider))
    assert "missing-tool-result" in _rules(streamed, protocol, provider)
    repaired = normalize(streamed, provider, tools=TOOLS)
    codes = {c.code for c in repaired.changes}
    assert "insert-missing-tool-result" in codes
    answered = {r.call_id for m in repaired.history for r in m.tool_results}
    assert answered == {c.id for c in streamed.messages[1].tool_calls}


def _rules(history: History, protocol: str, provider: str) -> list[Any]:
    body = normalizer.render(history, protocol, tools=TOOLS)
    return sorted({v.rule for v in normalizer.check(body, provider)})


def test_gemini_interrupted_stream_keeps_whole_calls_with_derived_ids() -> None:
    anonymous = Message("assistant", tuple(
        ToolCall(c.name, c.arguments) if isinstance(c, ToolCall) else c for c in ANSWER.parts))
    events = emit(anonymous, "gemini")
    result = assemble(events[:-1], "gemini")  # the final chunk (finishReason) never came
    history = History((USER, result.message, AGAIN))
    calls = history.messages[1].tool_calls
    assert not result.complete and not result.incomplete_calls
    assert len({c.id for c in calls}) == 2 and all(c.extras["derived_id"] for c in calls)
