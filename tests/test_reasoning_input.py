"""OpenAI's Responses API refuses reasoning items sent to a model that does not reason
("Reasoning input items can only be provided to a reasoning or computer use model. Remove
reasoning items from your input and try again.", openai/openai-agents-python#2602): met when
an agent hands a conversation from o4-mini or gpt-5 to gpt-4.1. For those models the repair
leaves the reasoning items out; a model that reasons keeps them."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

WORDS = ("Reasoning input items can only be provided to a reasoning or computer use model. "
         "Remove reasoning items from your input and try again.")


def handed_off(model: str) -> dict[str, Any]:
    """A gpt-5 turn (its reasoning item, then its answer) handed to `model`."""
    return {"model": model, "input": [
        {"role": "user", "content": "Is 391 a prime number?"},
        {"type": "reasoning", "id": "rs_1", "summary": [],
         "encrypted_content": "gAAAAABdemo-encrypted-reasoning"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "No: 17 times 23."}]},
        {"role": "user", "content": "And 397?"}]}


def test_models_that_do_not_reason_refuse_each_reasoning_item() -> None:
    for model in ("gpt-4.1", "gpt-4.1-mini", "gpt-4o-mini"):
        (found,) = check(handed_off(model), "openai_responses")
        assert (found.rule, found.location, found.message) == (
            "reasoning-input-unsupported", "input[1]", WORDS)
    for model in ("gpt-5-mini", "o4-mini"):
        assert check(handed_off(model), "openai_responses") == ()
    body = handed_off("gpt-4.1")
    body.pop("model")
    assert check(body, "openai_responses") == ()  # no model: nothing is assumed


def test_the_reasoning_goes_for_gpt_4_1_and_stays_for_gpt_5(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_responses", sdk, handed_off("gpt-4.1-mini"))
    assert WORDS in str(refused.value)
    fixed = normalize_request(handed_off("gpt-4.1-mini"), "openai_responses",
                              "openai_responses")
    dropped = [(c.where, c.lossless) for c in fixed.changes if "reasoning" in c.code]
    assert dropped == [("messages[1].parts[0]", False)]
    assert [item.get("type", "message") for item in fixed.body["input"]] == [
        "message", "message", "message"]
    assert check(fixed.body, "openai_responses") == ()
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, fixed.body))
    kept = normalize_request(handed_off("gpt-5-mini"), "openai_responses", "openai_responses")
    assert [c for c in kept.changes if "reasoning" in c.code] == []
    assert kept.body["input"][1]["type"] == "reasoning"


def turn_by_id(model: str) -> dict[str, Any]:
    """A gpt-5 turn replayed by id: its reasoning item, a search, its answer and a call (the
    order a reasoning model gives them in), then the call's output."""
    return {"model": model, "input": [
        {"role": "user", "content": "Find the release date, then file it."},
        {"type": "reasoning", "id": "rs_0a4d5126", "summary": [],
         "encrypted_content": "gAAAAABdemo-encrypted-reasoning"},
        {"type": "web_search_call", "id": "ws_0a4d5126", "status": "completed",
         "action": {"type": "search", "query": "release date"}},
        {"type": "message", "id": "msg_0a4d5126", "role": "assistant",
         "content": [{"type": "output_text", "text": "Filing it now."}]},
        {"type": "function_call", "id": "fc_0a4d5126", "call_id": "call_1",
         "name": "file_date", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "filed"}]}


def test_the_items_of_a_dropped_reasoning_item_go_by_value(emu: Emulator) -> None:
    # OpenAI pairs an item sent by id with the reasoning item it came after ("Item 'fc_…' of
    # type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
    # cline/cline#12242): the reasoning left out for gpt-4.1 takes its turn's ids with it.
    fixed = normalize_request(turn_by_id("gpt-4.1"), "openai_responses", "openai_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes
            if c.pass_name == "drop_foreign_thinking"] == [
        ("drop-unsupported-reasoning", "messages[1].parts[0]", False),
        ("item-without-reasoning-as-text", "messages[1].parts[1]", False),
        ("drop-item-id-with-reasoning", "messages[1].parts[2]", True),
        ("drop-item-id-with-reasoning", "messages[1].parts[3]", True)]
    items = fixed.body["input"]
    assert [item.get("type", "message") for item in items] == [
        "message", "message", "message", "function_call", "function_call_output"]
    assert not [item for item in items if "id" in item]
    assert items[1]["content"].startswith("[openai_responses web_search_call: ")
    assert items[2]["content"] == [{"type": "output_text", "text": "Filing it now."}]
    assert (items[3]["call_id"], items[4]["call_id"]) == ("call_1", "call_1")
    assert check(fixed.body, "openai_responses") == ()
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, fixed.body))


def test_ids_stay_where_the_reasoning_stays_or_had_no_id() -> None:
    kept = normalize_request(turn_by_id("gpt-5"), "openai_responses", "openai_responses")
    assert [item.get("id") for item in kept.body["input"]] == [
        None, "rs_0a4d5126", "ws_0a4d5126", "msg_0a4d5126", "fc_0a4d5126", None]
    idless = turn_by_id("gpt-4.1")
    del idless["input"][1]["id"]  # encrypted_content alone: nothing stored to pair with
    fixed = normalize_request(idless, "openai_responses", "openai_responses")
    assert [c.code for c in fixed.changes if c.pass_name == "drop_foreign_thinking"] == [
        "drop-unsupported-reasoning"]
    assert [item.get("id") for item in fixed.body["input"]][1:4] == [
        "ws_0a4d5126", "msg_0a4d5126", "fc_0a4d5126"]
