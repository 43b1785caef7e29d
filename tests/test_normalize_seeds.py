"""The seed cases (the seed documents 000, 002 and 003 in shared/seeds) hold, with least loss.

000: the OpenAI pairing plan's cases (valid pair, orphan, partial match, none matched,
non-tool messages, tool at start, Groq). The plan dropped things; our default keeps them
as text or answers them, and the `drop` policy reproduces the plan's expectations.
002: a valid consecutive tool-call sequence is left untouched for Gemini; repeated identical
id-less calls keep distinct, deterministic ids. 003: a message wedged between a call and
its result is moved after the result, not deleted. Plus the Anthropic tail after a
20-message window over many Gemini parallel calls.
"""

from __future__ import annotations

import pytest

from normalizer import check
from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.normalize import Normalized, normalize
from normalizer.passes import Policy

DROP = Policy(orphan_results="drop", unanswered_calls="drop")
OPENAI_FAMILY = ("openai", "groq", "cerebras", "fireworks")


def user(text: str) -> Message:
    return Message("user", (Text(text),))


def assistant(*parts: Text | ToolCall, origin: str | None = None) -> Message:
    return Message("assistant", parts, origin=origin)


def call(cid: str | None, name: str = "test", **args: object) -> ToolCall:
    return ToolCall(name, args, cid)


def result(cid: str | None, content: str = "result", name: str | None = None) -> Message:
    return Message("tool", (ToolResult(cid, content, name=name),))


def clean(out: Normalized) -> Normalized:
    assert check(out.render(), out.profile) == ()
    return out


@pytest.mark.parametrize("provider", OPENAI_FAMILY)
def test_valid_pair_is_kept_unchanged(provider: str) -> None:
    history = History((user("go"), assistant(call("call_1")), result("call_1")))
    out = clean(normalize(history, provider))
    assert out.history == history and out.changes == ()


def test_orphan_is_kept_as_text_by_default_and_dropped_under_drop() -> None:
    history = History((assistant(Text("response")), result("call_999")))
    kept = clean(normalize(history, "openai"))
    assert [m.role for m in kept.history] == ["assistant", "user"]
    assert "call_999" in kept.history.messages[1].text
    assert "result" in kept.history.messages[1].text
    assert [c.code for c in kept.changes] == ["orphan-tool-result-to-text"]
    dropped = clean(normalize(history, "openai", policy=DROP))
    assert [m.role for m in dropped.history] == ["assistant"]
    assert [c.code for c in dropped.changes] == ["drop-orphan-tool-result"]
    assert not dropped.changes[0].lossless


def test_partial_match_answers_the_missing_call_or_drops_it() -> None:
    history = History((user("go"), assistant(call("call_1", "test1"), call("call_2", "test2")),
                       result("call_1", "result1")))
    out = clean(normalize(history, "openai"))
    results = out.history.messages[2].tool_results
    assert [r.call_id for r in results] == ["call_1", "call_2"]
    assert "interrupted" in results[1].text and results[1].is_error
    assert [c.code for c in out.changes] == ["insert-missing-tool-result"]
    assert "call_2" in out.changes[0].what and "interrupted" in out.changes[0].what
    dropped = clean(normalize(history, "openai", policy=DROP))
    assert [c.id for c in dropped.history.messages[1].tool_calls] == ["call_1"]
    assert len(dropped.history) == 3


def test_no_call_matched_keeps_the_assistant_text() -> None:
    history = History((user("go"), assistant(Text("I will call functions"), call("call_1"))))
    dropped = clean(normalize(history, "openai", policy=DROP))
    assert dropped.history.messages[1].tool_calls == ()
    assert dropped.history.messages[1].text == "I will call functions"
    answered = clean(normalize(history, "openai"))
    assert answered.history.messages[2].tool_results[0].call_id == "call_1"


def test_non_tool_messages_are_untouched() -> None:
    history = History((user("Hello"), assistant(Text("Hi")),
                       Message("system", (Text("You are helpful"),))))
    out = clean(normalize(history, "openai"))
    assert out.history == history and out.changes == ()


@pytest.mark.parametrize("provider", OPENAI_FAMILY)
def test_tool_at_start(provider: str) -> None:
    history = History((result("call_orphan", "orphan"), user("Hello")))
    dropped = clean(normalize(history, provider, policy=DROP))
    assert [m.text for m in dropped.history] == ["Hello"]
    kept = clean(normalize(history, provider))
    assert kept.history.messages[0].role == "user" and "orphan" in kept.history.messages[0].text
    assert kept.history.messages[-1].text == "Hello"


def test_groq_lone_orphan() -> None:
    history = History((result("call_999", "orphan"),))
    assert len(clean(normalize(history, "groq", policy=DROP)).history) == 0
    kept = clean(normalize(history, "groq"))
    assert [m.role for m in kept.history] == ["user"]


def test_wedged_message_moves_after_the_result_not_deleted() -> None:
    """Seed 003: the PR deleted "Let me check that..."; we keep it, after the result."""
    history = History((user("q"), assistant(call("call_123")),
                       assistant(Text("Let me check that...")), result("call_123")))
    out = clean(normalize(history, "openai"))
    assert [m.role for m in out.history] == ["user", "assistant", "tool", "assistant"]
    assert out.history.messages[3].text == "Let me check that..."
    assert [(c.code, c.lossless) for c in out.changes] == [("move-tool-result", True)]


def test_wedged_user_message_is_kept_for_every_provider() -> None:
    history = History((user("q"), assistant(call("call_1")), user("still there?"),
                       result("call_1")))
    for provider in ("openai", "anthropic", "gemini", "mistral", "deepseek"):
        out = clean(normalize(history, provider))
        assert "still there?" in [m.text for m in out.history], provider


def _gemini_loop() -> History:
    return History((
        user("plan a trip"),
        assistant(call(None, "search", q="flights"), origin="gemini"),
        result(None, "3 flights", name="search"),
        assistant(call(None, "book", id=2), origin="gemini"),
        result(None, "booked", name="book"),
        assistant(Text("Done."), origin="gemini"),
    ))


def test_valid_consecutive_tool_calls_untouched_for_gemini() -> None:
    """Seed 002: the over-strict validator rejected call turn after call turn's results."""
    out = clean(normalize(_gemini_loop(), "gemini"))
    assert out.changes == () or {c.code for c in out.changes} == {
        "add-placeholder-thought-signature"}
    assert [m.role for m in out.history] == [m.role for m in _gemini_loop()]


def test_repeated_identical_calls_get_distinct_stable_ids() -> None:
    same = call(None, "get_weather", city="Paris")
    history = History((user("twice"), assistant(same, same, origin="gemini"),
                       Message("tool", (ToolResult(None, "18C", name="get_weather"),
                                        ToolResult(None, "19C", name="get_weather")))))
    first = clean(normalize(history, "mistral"))
    ids = [c.id for c in first.history.messages[1].tool_calls]
    assert len(set(ids)) == 2 and None not in ids
    assert [r.call_id for r in first.history.messages[2].tool_results] == ids
    assert normalize(history, "mistral").history == first.history
    assert clean(normalize(history, "gemini")).history.messages[2] == history.messages[2]


def test_anthropic_tail_after_window_over_gemini_parallel_calls() -> None:
    messages = [user("research")]
    for turn in range(12):
        calls = tuple(call(None, "fetch", page=turn * 3 + k) for k in range(3))
        messages.append(assistant(*calls, origin="gemini"))
        messages.extend(result(None, f"page {turn}-{k}", name="fetch") for k in range(3))
    messages.append(assistant(Text("Summary."), origin="gemini"))
    history = History(tuple(messages))
    out = clean(normalize(history, "anthropic", budget=20))
    assert len(out.history) <= 20
    assert out.history.messages[0].role != "tool"  # the window never opens on results
    assert out.history.messages[-1].text == "Summary."
    assert "window-cut" in {c.code for c in out.changes}
