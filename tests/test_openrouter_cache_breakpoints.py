"""OpenRouter passes cache_control on to Anthropic and answers Anthropic's four-breakpoint
refusal in its own words, Anthropic's body in metadata.raw ("Provider returned error",
pydantic/pydantic-ai#4604): for anthropic/* models only. A Chat message's own mark counts
as one block (oguzbilgic/kern-ai#317)."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

CLAUDE = "anthropic/claude-sonnet-4.6"
MARK = {"type": "ephemeral"}


def part(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words, "cache_control": MARK}


def body(model: str = CLAUDE, *, user_marks: int = 5) -> dict[str, Any]:
    """A marked system part and one user message with `user_marks` marked parts (six marks
    in all by default, as in the pydantic-ai report)."""
    return {"model": model, "messages": [
        {"role": "system", "content": [part("Answer briefly.")]},
        {"role": "user", "content": [part(f"Part {n}.") for n in range(user_marks)]}]}


def test_six_marks_are_refused_for_claude_only() -> None:
    (found,) = check(body(), "openrouter")
    assert (found.rule, found.location, found.message) == (
        "too-many-cache-breakpoints", "messages[1].content[3].cache_control",
        "Provider returned error")
    raw = json.loads(found.error["metadata"]["raw"])
    assert raw["error"]["message"] == \
        "A maximum of 4 blocks with cache_control may be provided. Found 6."
    assert check(body(user_marks=3), "openrouter") == ()
    assert check(body("google/gemini-2.5-flash"), "openrouter") == ()  # taken (the report)


def test_a_messages_own_mark_counts_after_its_parts() -> None:
    marked = body(user_marks=3)
    marked["messages"] += [{"role": "assistant", "content": "Done."},
                           {"role": "user", "content": "More?", "cache_control": MARK}]
    (found,) = check(marked, "openrouter")
    assert found.location == "messages[3].cache_control"
    assert "Found 5." in found.error["metadata"]["raw"]


def test_the_last_four_are_kept_and_openrouter_takes_them(emu: Emulator) -> None:
    raw = body()
    raw["messages"].append({"role": "assistant", "content": "Noted.", "cache_control": MARK})
    sdk = calls.client("openai_chat", emu.sdk_base_url("openrouter"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, raw)
    error = refused.value.body
    assert isinstance(error, dict) and error["message"] == "Provider returned error"
    assert "Found 7." in error["metadata"]["raw"]
    fixed = normalize_request(raw, "openai_chat", "openrouter")
    dropped = [(c.where, c.lossless) for c in fixed.changes
               if c.code == "drop-cache-breakpoint"]
    assert dropped == [("messages[0].parts[0]", False), ("messages[1].parts[0]", False),
                       ("messages[1].parts[1]", False)]
    out = fixed.body["messages"]
    assert [p.get("cache_control") for p in out[1]["content"]] == [None, None, MARK, MARK, MARK]
    assert out[2]["cache_control"] == MARK  # the last mark, the message's own, is kept
    assert check(fixed.body, "openrouter") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body))


def test_other_models_keep_every_mark() -> None:
    fixed = normalize_request(body("google/gemini-2.5-flash"), "openai_chat", "openrouter")
    assert all(c.code != "drop-cache-breakpoint" for c in fixed.changes)
    assert sum("cache_control" in p for m in fixed.body["messages"]
               for p in m["content"]) == 6
