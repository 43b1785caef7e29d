"""DeepSeek's Responses endpoint with thinking on refuses a tool round of the turn in
progress that comes without a reasoning item ("The reasoning_text in the thinking mode must
be passed back to the API.", Kohaku-Lab/KohakuTerrarium#323): one batch of calls split into
call, output, call, output leaves the second call without one. normalize gives such a run a
reasoning item whose reasoning_text is the Chat endpoint's placeholder, " "; calls before
the last user message are left alone, as DeepSeek took them (recorded). Sent through the
openai SDK to the emulator."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import check, normalize_request

PROVIDER = "deepseek_responses"
WORDS = "The `reasoning_text` in the thinking mode must be passed back to the API."
ECHO = {"type": "function", "name": "echo",
        "parameters": {"type": "object", "properties": {"value": {"type": "string"}}}}
ASK = {"role": "user", "content": "Call echo with first and with second."}
REASONING = {"type": "reasoning", "summary": [],
             "content": [{"type": "reasoning_text", "text": "Two calls, then answer."}]}


def _call(cid: str, value: str) -> dict[str, Any]:
    return {"type": "function_call", "call_id": cid, "name": "echo",
            "arguments": f'{{"value":"{value}"}}'}


def _output(cid: str, value: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": cid, "output": value}


def _body(*items: dict[str, Any], model: str = "deepseek-v4-flash") -> dict[str, Any]:
    return {"model": model, "input": list(items), "tools": [ECHO]}


SPLIT = _body(ASK, REASONING, _call("call_a", "first"), _output("call_a", "first"),
              _call("call_b", "second"), _output("call_b", "second"))
WHOLE = _body(ASK, REASONING, _call("call_a", "first"), _call("call_b", "second"),
              _output("call_a", "first"), _output("call_b", "second"))


def test_a_split_batch_is_refused_at_its_second_call() -> None:
    (found,) = check(SPLIT, PROVIDER)
    assert (found.rule, found.location, found.message) == (
        "reasoning-content-required", "input[4]", WORDS)
    assert check(WHOLE, PROVIDER) == ()


def test_only_the_turn_in_progress_is_read() -> None:
    earlier = _body(ASK, _call("call_a", "first"), _output("call_a", "first"),
                    {"role": "user", "content": "Now answer."})
    assert check(earlier, PROVIDER) == ()
    # Thinking off (a model that does not think by default): nothing to pass back.
    assert check({**SPLIT, "thinking": {"type": "disabled"}}, PROVIDER) == ()
    # OpenAI's Responses API has no such rule.
    assert "reasoning-content-required" not in {v.rule for v in check(SPLIT,
                                                                       "openai_responses")}


def test_normalize_gives_the_run_a_reasoning_item_and_changes_nothing_else(emu: Any) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url(PROVIDER))
    assert calls.refused("openai_responses", sdk, SPLIT) == calls.SdkError(400, WORDS)
    fixed = normalize_request(SPLIT, "openai_responses", PROVIDER)
    sent = fixed.body["input"]
    assert sent[4] == {"type": "reasoning", "summary": [],
                       "content": [{"type": "reasoning_text", "text": " "}]}
    assert [i for n, i in enumerate(sent) if n != 4] == SPLIT["input"]
    ((code, lossless),) = [(c.code, c.lossless) for c in fixed.changes]
    assert (code, lossless) == ("fill-reasoning-content", True)
    assert check(fixed.body, PROVIDER) == ()
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, fixed.body))
    # The whole batch needs nothing.
    assert normalize_request(WHOLE, "openai_responses", PROVIDER).changes == ()


def test_a_chat_history_moved_to_deepseek_responses_gets_the_reasoning_it_lacks() -> None:
    chat = {"model": "gpt-4o", "messages": [
        {"role": "user", "content": "Weather in Rome?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "echo", "arguments": '{"value":"Rome"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18C"}],
        "tools": [{"type": "function", "function": {"name": "echo",
                                                    "parameters": ECHO["parameters"]}}]}
    fixed = normalize_request(chat, "openai_chat", PROVIDER, model="deepseek-v4-flash")
    kinds = [i.get("type", "message") for i in fixed.body["input"]]
    assert kinds == ["message", "reasoning", "function_call", "function_call_output"]
    assert check(fixed.body, PROVIDER) == ()
