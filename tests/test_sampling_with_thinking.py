"""Claude takes top_k only while thinking is off (rule sampling-parameter-with-thinking, pass
drop_sampling_with_thinking): "`top_k` must be unset when thinking is enabled. Please consult
our documentation at ..." (quarkiverse/quarkus-langchain4j#1812, claude-opus-4-1). Apps keep a
top_k for every model and turn thinking on per request; a Gemini topK crosses with it."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

WORDS = "`top_k` must be unset when thinking is enabled."
THINKING = {"type": "enabled", "budget_tokens": 1024}


def body(model: str = "claude-sonnet-4-6", **options: Any) -> dict[str, Any]:
    return {"model": model, "max_tokens": 2048,
            "messages": [{"role": "user", "content": "Name a colour."}], **options}


def test_top_k_is_refused_only_while_thinking_is_on() -> None:
    (found,) = check(body("claude-opus-4-1-20250805", thinking=THINKING, top_k=40), "anthropic")
    assert (found.rule, found.location) == ("sampling-parameter-with-thinking", "top_k")
    assert found.message.startswith(WORDS)
    assert check(body(top_k=40), "anthropic") == ()
    assert check(body(thinking={"type": "disabled"}, top_k=40), "anthropic") == ()
    # Opus 4.7 refuses top_k whatever the thinking, in its own words: one finding, not two.
    assert [v.message for v in check(body("claude-opus-4-7", thinking={"type": "adaptive"},
                                          top_k=40), "anthropic")] == [
        "`top_k` is deprecated for this model."]


def test_a_gemini_top_k_beside_a_thinking_budget_reaches_claude_without_it(
        emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError) as refused:
        calls.send("anthropic", sdk, body(thinking=THINKING, top_k=40))
    assert WORDS in str(refused.value)
    gemini = {"contents": [{"role": "user", "parts": [{"text": "Name a colour."}]}],
              "generationConfig": {"topK": 40, "thinkingConfig": {"thinkingBudget": 2048}}}
    sent = normalize_request(gemini, "gemini", "anthropic", model="claude-sonnet-4-6")
    assert "top_k" not in sent.body and sent.body["thinking"]["type"] == "enabled"
    said = [c for c in sent.changes if c.code == "drop-sampling-with-thinking"]
    assert [(c.where, c.lossless) for c in said] == [("top_k", False)]
    assert check(sent.body, "anthropic") == ()
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, sent.body)) == "ok"
