"""xAI's Responses endpoint refuses a reasoning item whose `content` is null, as Codex
replays it ("Failed to deserialize the JSON body into the target type: data did not match
any variant of untagged enum ModelInput", 422, Wei-Shaw/sub2api#4237): the same body without
it was answered 200. OpenAI takes the null (its SDK types make the field optional). The
repair leaves the null field out, lossless."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request
from normalizer.errors import WireFormatError

WORDS = ("Failed to deserialize the JSON body into the target type: data did not match any "
         "variant of untagged enum ModelInput")


def codex_turn(**reasoning: Any) -> dict[str, Any]:
    """Codex's second turn: its first turn's reasoning item replayed with null fields."""
    item = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Plan it."}],
            "content": None, "encrypted_content": None, **reasoning}
    return {"model": "grok-4.5", "input": [
        {"role": "user", "content": "Plan the trip."}, item,
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Day one: Rome."}]},
        {"role": "user", "content": "And day two?"}]}


def test_xai_refuses_a_null_reasoning_content_and_openai_takes_it() -> None:
    (found,) = check(codex_turn(), "xai_responses")
    assert (found.rule, found.location, found.status, found.message) == (
        "item-field-null", "input[1].content", 422, WORDS)
    assert check(codex_turn(), "openai_responses", model="gpt-5-mini") == ()
    without = codex_turn()
    del without["input"][1]["content"]
    assert check(without, "xai_responses") == ()  # encrypted_content: null stays: taken


def test_a_null_content_was_off_the_skeleton_and_is_not() -> None:
    # check() once refused the body as unreadable ("input: expected a string or an array
    # of items, got an array"): its reasoning items took the role items' content type.
    assert check(codex_turn(id="rs_1"), "openai_responses", model="gpt-5-mini") == ()
    try:
        check({"input": [{"role": "user", "content": None}]}, "openai_responses")
    except WireFormatError as exc:  # a role item's content may not be null: said where
        assert str(exc).startswith("input[0].content: expected a string or an array of")
    else:
        raise AssertionError("a role item without content was read as clean")


def test_the_null_goes_for_xai_through_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("xai_responses"))
    refused = calls.refused("openai_responses", sdk, codex_turn())
    assert (refused.status, refused.message) == (422, WORDS)
    fixed = normalize_request(codex_turn(), "openai_responses", "xai_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("drop-null-item-field", "messages[1].parts[0]", True)]
    assert fixed.body["input"][1] == {"type": "reasoning", "encrypted_content": None,
                                      "summary": [{"type": "summary_text", "text": "Plan it."}]}
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, fixed.body))
    kept = normalize_request(codex_turn(encrypted_content="gAAAAB-demo"), "openai_responses",
                             "openai_responses", model="gpt-5-mini")
    assert kept.changes == () and kept.body["input"][1]["content"] is None
