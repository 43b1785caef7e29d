"""Thinking another vendor signed never reaches Gemini as a thoughtSignature: Gemini verifies
the signatures it is sent ("Corrupted thought signature.", google-gemini/gemini-cli#13467)."""

from __future__ import annotations

import json

from normalizer import Policy, normalize_request

_ANTHROPIC = {
    "model": "claude-haiku-4-5", "max_tokens": 100,
    "messages": [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "let me call", "signature": "EqQBCkYIBxgCKkD"},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
             "input": {"city": "Paris"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]}],
}


def test_anthropic_signed_thinking_is_dropped_for_gemini_and_the_change_says_so() -> None:
    out = normalize_request(_ANTHROPIC, "anthropic", "gemini")
    assert "EqQBCkYIBxgCKkD" not in json.dumps(out.body)
    dropped = [c for c in out.changes if c.code == "drop-foreign-thinking"]
    assert len(dropped) == 1 and not dropped[0].lossless
    assert "anthropic" in dropped[0].what


def test_as_text_keeps_the_reasoning_without_the_signature() -> None:
    out = normalize_request(_ANTHROPIC, "anthropic", "gemini",
                            policy=Policy(foreign_thinking="as-text"))
    text = json.dumps(out.body)
    assert "let me call" in text and "EqQBCkYIBxgCKkD" not in text


def test_gemini_own_thought_signatures_are_kept() -> None:
    body = {"contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [
            {"text": "hmm", "thought": True, "thoughtSignature": "EqQBCkYIBxgCKkD"},
            {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "Eq11"}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "f",
                                                         "response": {"output": "x"}}}]}],
        "tools": [{"functionDeclarations": [{"name": "f", "description": "d",
                                              "parameters": {"type": "OBJECT",
                                                             "properties": {}}}]}]}
    out = normalize_request(body, "gemini", "gemini")
    assert out.body == body and out.changes == ()
