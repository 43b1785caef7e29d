"""Reasoning items nothing follows (rule reasoning-item-orphan, OpenAI Responses): a turn
whose stream broke after its reasoning. `drop_orphan_thinking` drops them, lossy and named;
a reasoning item before its call or assistant message stays. The histories go to gpt-5-mini:
gpt-4.1-mini takes no reasoning item at all (reasoning-input-unsupported)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from test_normalize_contract import accounted, kept_user_words

from normalizer import (
    History,
    Message,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    check,
    normalize,
    normalize_request,
)
from normalizer.testing import cuts_after_thinking

REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}


def _input(*items: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-5", "input": list(items)}


def test_a_turn_cut_after_its_reasoning_loses_the_reasoning() -> None:
    body = _input({"role": "user", "content": "Hi"}, REASONING,
                  {"role": "user", "content": "Again"})
    assert [v.rule for v in check(body, "openai_responses")] == ["reasoning-item-orphan"]
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.body["input"] == [{"role": "user", "content": "Hi"},
                                 {"role": "user", "content": "Again"}]
    [change] = out.changes
    assert change.code == "drop-orphan-reasoning" and not change.lossless
    assert change.where == "messages[1].parts[0]"
    assert not check(out.body, "openai_responses")


def test_reasoning_before_its_call_or_message_stays() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    said = {"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Done."}]}
    later = {**REASONING, "id": "rs_2", "encrypted_content": "gBBB"}
    body = _input({"role": "user", "content": "Hi"}, REASONING, call,
                  {"type": "function_call_output", "call_id": "c1", "output": "ok"},
                  later, said)
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.changes == () and out.body == body


def test_of_two_reasoning_items_in_a_row_the_first_goes() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
    later = {**REASONING, "id": "rs_2", "encrypted_content": "gBBB"}
    body = _input({"role": "user", "content": "Hi"}, REASONING, later, call,
                  {"type": "function_call_output", "call_id": "c1", "output": "ok"})
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.body["input"][1:3] == [later, call]
    assert [c.where for c in out.changes] == ["messages[1].parts[0]"]


def test_other_protocols_are_left_alone() -> None:
    body = _input({"role": "user", "content": "Hi"}, REASONING,
                  {"role": "user", "content": "Again"})
    out = normalize_request(body, "openai_responses", "openai")
    assert not [c for c in out.changes if c.code == "drop-orphan-reasoning"]


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(history=cuts_after_thinking())
def test_a_cut_after_thinking_is_repaired_for_responses(history: History) -> None:
    result = normalize(history, "openai_responses", model="gpt-5-mini")
    assert check(result.render(), "openai_responses") == ()
    assert kept_user_words(history, result.history)
    assert accounted(history, result) == []
    again = normalize(result.history, "openai_responses", tools=result.tools,
                      model="gpt-5-mini")
    assert again.changes == ()


def test_reasoning_before_an_item_that_is_no_call_goes() -> None:
    # What follows must be a call or an assistant message: an mcp_list_tools item is neither.
    listed = {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "docs", "tools": []}
    body = _input({"role": "user", "content": "Hi"}, REASONING, listed,
                  {"role": "user", "content": "Again"})
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.body["input"][1] == listed
    assert [c.code for c in out.changes] == ["drop-orphan-reasoning"]
    assert not check(out.body, "openai_responses")


def test_the_next_message_decides_for_a_message_ending_in_thinking() -> None:
    # Two assistant messages in a row (built by hand; parse groups such items into one):
    # the first ends in reasoning, and the next begins with reasoning, not its answer.
    first = Thinking("a", signature="gAAA", vendor="openai_responses", extras={"id": "rs_1"})
    second = Thinking("b", signature="gBBB", vendor="openai_responses", extras={"id": "rs_2"})
    history = History((Message("user", (Text("Hi"),)), Message("assistant", (first,)),
                       Message("assistant", (second, ToolCall("f", {}, "c1"))),
                       Message("tool", (ToolResult("c1", "ok"),))))
    result = normalize(history, "openai_responses", model="gpt-5-mini")
    assert [c.where for c in result.changes] == ["messages[1].parts[0]"]
    assert check(result.render(), "openai_responses") == ()


def test_id_less_reasoning_items_stay_wherever_they_are() -> None:
    # gpt-5.6-luna took five id-less reasoning items (encrypted_content alone) before a user
    # message (braintrustdata/lingua's recording): the refusal names an item by its id.
    idless = [{"type": "reasoning", "summary": [], "encrypted_content": f"g{n}"} for n in "AB"]
    body = _input({"role": "user", "content": "Hi"}, *idless,
                  {"role": "user", "content": "Again"})
    assert check(body, "openai_responses") == ()
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.changes == () and out.body["input"][1:3] == idless


def test_reasoning_before_a_program_item_stays() -> None:
    # Programmatic tool calling: the reasoning item was produced for the program item
    # (gpt-5.6-terra took it back, braintrustdata/lingua's recorded follow-up).
    program = {"type": "program", "id": "cm_1", "call_id": "call_p", "code": "text(1);"}
    body = _input({"role": "user", "content": "Hi"}, REASONING, program)
    assert check(body, "openai_responses") == ()
