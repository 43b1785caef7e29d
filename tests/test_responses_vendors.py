"""Vendors that serve OpenAI's Responses wire besides OpenAI: xAI, DeepSeek and Azure.

DeepSeek reads the input items as chat messages: a message item between a function_call and
its output ends the call turn, and the call is reported unanswered although its output
follows ("No tool output found for tool call call-a.", recorded with deepseek-v4-flash in
pydantic/pydantic-ai's cassette, 2026-08). A body in a vendor's own wire is taken as written
for it: its reasoning items are the vendor's own, not OpenAI's. Through the official SDK
against the emulator where a vendor answers."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from conformance.evidence.agree import profile_for
from conformance.evidence.load import load_observation
from normalizer import check, load_profile, normalize, normalize_request
from normalizer.model import History, Message, Opaque, Text, Thinking, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes.call_order import move_text_before_calls

THINK_A = {"role": "assistant", "content": "<think>\ninspect inputs\n</think>"}
THINK_B = {"role": "assistant", "content": "<think>\ninspect views\n</think>"}
CALL_A = {"type": "function_call", "call_id": "call-a", "name": "read",
          "arguments": '{"path":"a"}'}
CALL_B = {"type": "function_call", "call_id": "call-b", "name": "view",
          "arguments": '{"path":"b"}'}
OUTPUTS = [{"type": "function_call_output", "call_id": "call-a", "output": "contents"},
           {"type": "function_call_output", "call_id": "call-b", "output": "rendered"},
           {"role": "user", "content": "Reply exactly: done"}]


def interleaved() -> dict[str, Any]:
    """The recorded body DeepSeek refused: a think message between the two calls."""
    return {"model": "deepseek-v4-flash", "input": [THINK_A, CALL_A, THINK_B, CALL_B, *OUTPUTS]}


def test_deepseek_refuses_a_message_between_a_call_and_its_output() -> None:
    (found,) = check(interleaved(), "deepseek_responses")
    assert (found.rule, found.location, found.message) == (
        "missing-tool-result", "input[1].call_id", "No tool output found for tool call call-a.")
    adjacent = {**interleaved(), "input": [THINK_A, THINK_B, CALL_A, CALL_B, *OUTPUTS]}
    assert check(adjacent, "deepseek_responses") == ()
    # OpenAI pairs calls and outputs by call_id in any order (its profile's notes).
    assert check(interleaved(), "openai_responses") == ()
    assert check(interleaved(), "xai_responses") == ()


def test_a_call_never_answered_is_refused_with_or_without_a_message_after_it() -> None:
    body = {"model": "deepseek-v4-flash", "input": [CALL_A, THINK_A]}
    # First: the round without reasoning (reasoning-content-required) is refused after it.
    assert [v.message for v in check(body, "deepseek_responses")] == [
        "No tool output found for tool call call-a.",
        "The `reasoning_text` in the thinking mode must be passed back to the API."]
    # A reasoning item between a call and its output ends nothing (not seen either way).
    reasoning = {"type": "reasoning", "id": "rs-1", "summary": [],
                 "content": [{"type": "reasoning_text", "text": "look"}]}
    body = {"model": "deepseek-v4-flash", "input": [CALL_A, reasoning, *OUTPUTS[:1]]}
    assert check(body, "deepseek_responses") == ()


def test_the_text_goes_ahead_of_the_calls_for_deepseek_only() -> None:
    fixed = normalize_request(interleaved(), "openai_responses", "deepseek_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("move-text-before-calls", "messages[0]", True)]
    kinds = [item.get("type", item.get("role")) for item in fixed.body["input"]]
    assert kinds == ["assistant", "function_call", "function_call", "function_call_output",
                     "function_call_output", "user"]
    texts = [part["text"] for part in fixed.body["input"][0]["content"]]
    assert texts == ["<think>\ninspect inputs\n</think>", "<think>\ninspect views\n</think>"]
    assert check(fixed.body, "deepseek_responses") == ()
    for other in ("openai_responses", "xai_responses", "azure_openai_responses"):
        assert normalize_request(interleaved(), "openai_responses", other).changes == ()


def test_the_pass_moves_text_and_reasoning_not_hosted_items() -> None:
    hosted = Opaque("openai_responses", "web_search_call", {"type": "web_search_call"},
                    hosted=True, slot="item")
    turn = Message("assistant", (Text("a"), ToolCall("read", {}, id="c1"), Thinking("why"),
                                 hosted, Text("b"), ToolCall("view", {}, id="c2")))
    results = Message("tool", (ToolResult("c1", "x"), ToolResult("c2", "y")))
    draft = Draft(History((Message("user", (Text("go"),)), turn, results)))
    policy = Policy()
    out, changes = move_text_before_calls(draft, load_profile("deepseek_responses"), policy)
    parts = out.history.messages[1].parts
    assert [type(p).__name__ for p in parts] == ["Text", "Thinking", "Text", "ToolCall",
                                                 "Opaque", "ToolCall"]
    assert [c.what for c in changes] == [
        "moved 2 part(s) written after a tool call ahead of the turn's first call, so no "
        "message comes between a call and its output"]
    assert move_text_before_calls(out, load_profile("deepseek_responses"), policy) == (out, ())
    assert move_text_before_calls(draft, load_profile("openai_responses"), policy) == (draft, ())


def test_the_sdk_is_refused_and_takes_the_repair(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("deepseek_responses"))
    assert calls.refused("openai_responses", sdk, interleaved()) == calls.SdkError(
        400, "No tool output found for tool call call-a.")
    fixed = normalize_request(interleaved(), "openai_responses", "deepseek_responses")
    assert calls.send("openai_responses", sdk, fixed.body) is not None


REASONING = {"type": "reasoning", "id": "rs_1", "summary": [],
             "encrypted_content": "gAAAAAB-xai-or-openai"}


def with_reasoning() -> dict[str, Any]:
    return {"model": "grok-4.3", "input": [
        {"role": "user", "content": "Weather in Paris?"}, REASONING,
        {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "18C"}]}


@pytest.mark.parametrize("provider", ["xai_responses", "deepseek_responses",
                                      "azure_openai_responses", "openai_responses"])
def test_a_body_in_the_targets_own_wire_keeps_its_reasoning(provider: str) -> None:
    fixed = normalize_request(with_reasoning(), "openai_responses", provider)
    assert fixed.changes == ()
    assert fixed.body == with_reasoning()


def test_reasoning_named_as_another_vendors_stays_another_vendors() -> None:
    # A history whose messages name their origin (a scenario's, or an app's own record of
    # who answered) is taken as it is: OpenAI's reasoning is not Azure's to verify, and
    # Azure's profile checks reasoning items (it knows a message item's fields). xAI's
    # profile has no rule about reasoning it did not make: it is sent as it is.
    turn = Message("assistant", (Thinking("why", signature="gAAAA", vendor="openai_responses"),
                                 ToolCall("weather", {}, id="call_1")), origin="openai_responses")
    history = History((Message("user", (Text("Weather?"),)), turn,
                       Message("tool", (ToolResult("call_1", "18C"),))))
    assert [c.code for c in normalize(history, "azure_openai_responses").changes] == [
        "drop-foreign-thinking"]
    assert normalize(history, "xai_responses").changes == ()


def test_responses_evidence_of_chat_vendors_reads_their_responses_profile() -> None:
    obs = load_observation(
        "evidence/deepseek/responses-interleaved-calls-rejected-deepseek-v4-flash-2026.yaml")
    profile, why = profile_for(obs)
    assert (profile.provider if profile else None, why) == ("deepseek_responses", "")
    chat = load_observation("evidence/xai/empty-system-message-rejected-grok-2-1212-2024-12.yaml")
    assert profile_for(chat)[0].provider == "xai"  # type: ignore[union-attr]
