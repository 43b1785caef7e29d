"""Moonshot refuses an assistant turn without content or calls (rule empty-content): "Invalid
request: the message at position 72 with role 'assistant' must not be empty"
(AIDotNet/OpenCowork#10, the whole error object; the same words for kimi-k3 in
MoonshotAI/kimi-code#1985). normalize drops the empty turn; a turn with calls is never
empty."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request


def _body(turn: dict[str, Any]) -> dict[str, Any]:
    return {"model": "kimi-k2-0905-preview", "messages": [
        {"role": "user", "content": "Say hello."}, turn,
        {"role": "user", "content": "Say it again."}]}


@pytest.mark.parametrize("turn", [
    {"role": "assistant", "content": ""}, {"role": "assistant", "content": None},
    {"role": "assistant"}, {"role": "assistant", "content": []}])
def test_each_empty_form_is_refused_in_moonshots_words(turn: dict[str, Any]) -> None:
    (found,) = check(_body(turn), "moonshot")
    assert (found.rule, found.location, found.message) == (
        "empty-content", "messages[1].content",
        "Invalid request: the message at position 1 with role 'assistant' must not be empty")


def test_text_or_calls_are_not_empty() -> None:
    assert check(_body({"role": "assistant", "content": "Hello."}), "moonshot") == ()
    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "hi", "arguments": "{}"}}]}
    body = {**_body(call), "tools": [{"type": "function", "function": {
        "name": "hi", "parameters": {"type": "object", "properties": {}}}}]}
    body["messages"].insert(2, {"role": "tool", "tool_call_id": "call_1", "content": "hi"})
    assert check(body, "moonshot") == ()


def test_through_the_sdk_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("moonshot"))
    body = _body({"role": "assistant", "content": ""})
    said = calls.refused("openai_chat", sdk, body)
    assert said.status == 400 and "must not be empty" in said.message
    fixed = normalize_request(body, "openai_chat", "moonshot")
    assert [c.code for c in fixed.changes] == ["drop-empty-message"]
    assert [m["role"] for m in fixed.body["messages"]] == ["user", "user"]
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body)) == "ok"
