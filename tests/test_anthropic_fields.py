"""Fields an Anthropic message or content block does not have (rules unknown-message-field
and unknown-block-field): refused in Anthropic's words, each at its own path; normalize
drops the ones no protocol owns with a change naming them (a field another protocol owns
is already not written, and the crossing pass reports a content one)."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request

SIGNATURE = "EqQBCkgIARABGAIiQL" + "A" * 200  # the shape Anthropic issues


def _body(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 2048,
            "thinking": {"type": "enabled", "budget_tokens": 1024},
            "messages": [{"role": "user", "content": "Hi!"}, *messages,
                         {"role": "user", "content": "And then?"}]}


def test_a_message_field_is_refused_at_its_path() -> None:
    body = _body({"role": "assistant", "content": "Hello!", "reasoning_details": []})
    (found,) = check(body, "anthropic")
    assert (found.rule, found.message) == (
        "unknown-message-field", "messages.1.reasoning_details: Extra inputs are not permitted")


@pytest.mark.parametrize(("block", "field"), [
    ({"type": "text", "text": "Hello!", "index": 0}, "text.index"),
    ({"type": "thinking", "thinking": "Greet back.", "signature": SIGNATURE,
      "cache_control": {"type": "ephemeral"}}, "thinking.cache_control")])
def test_a_block_field_is_refused_with_the_blocks_type_in_the_path(
        block: dict[str, Any], field: str) -> None:
    (found,) = check(_body({"role": "assistant", "content": [block]}), "anthropic")
    assert (found.rule, found.message) == (
        "unknown-block-field", f"messages.1.content.0.{field}: Extra inputs are not permitted")


def test_the_fields_a_block_has_pass() -> None:
    blocks = [{"type": "thinking", "thinking": "Greet back.", "signature": SIGNATURE},
              {"type": "text", "text": "Hello!", "cache_control": {"type": "ephemeral"},
               "citations": None}]
    assert check(_body({"role": "assistant", "content": blocks}), "anthropic") == ()


def test_normalize_drops_fields_no_protocol_owns_and_names_them() -> None:
    blocks = [{"type": "thinking", "thinking": "Greet back.", "signature": SIGNATURE,
               "cache_control": {"type": "ephemeral"}},
              {"type": "text", "text": "Hello!", "x_trace": "t-1"}]
    body = _body({"role": "assistant", "content": blocks, "x_saved_at": "2026-01-15"})
    out = normalize_request(body, "anthropic", "anthropic")
    assert sorted((c.code, c.where) for c in out.changes) == [
        ("drop-block-field", "messages[1].parts[0]"), ("drop-block-field", "messages[1].parts[1]"),
        ("drop-message-field", "messages[1]")]
    assert all(not c.lossless for c in out.changes)
    said = " ".join(c.what for c in out.changes)
    assert "'cache_control'" in said and "'x_trace'" in said and "'x_saved_at'" in said
    assert check(out.body, "anthropic") == ()
    assert out.body["messages"][1] == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Greet back.", "signature": SIGNATURE},
        {"type": "text", "text": "Hello!"}]}
    assert normalize_request(out.body, "anthropic", "anthropic").changes == ()
