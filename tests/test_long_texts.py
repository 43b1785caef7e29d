"""A text longer than the vendor takes in one string (rule text-too-long): OpenAI refuses
"Invalid 'messages[5].content': string too long. Expected a string with maximum length
10485760, but got a string with length 10605342 instead." (Shopify/roast#52; 1,048,576
in 2024, gptscript-ai/clio#41). normalize keeps both ends of the text and says, in the
text and in the change, how many characters it left out."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request
from normalizer.profiles import profile_from_mapping

LIMIT = 10_485_760
RUN = {"type": "function", "function": {
    "name": "run", "description": "Run a shell command.",
    "parameters": {"type": "object", "properties": {"command": {"type": "string"}},
                   "required": ["command"]}}}


def _chat(output: str, *, model: str = "gpt-4.1-mini") -> dict[str, Any]:
    return {"model": model, "tools": [RUN], "messages": [
        {"role": "user", "content": "List the files here."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "aB3dE5gH1", "type": "function",
             "function": {"name": "run", "arguments": '{"command":"ls -R ."}'}}]},
        {"role": "tool", "tool_call_id": "aB3dE5gH1", "content": output}]}


def _long(length: int) -> str:
    """A text whose two ends can be told apart from its middle."""
    return "HEAD" + "m" * (length - 8) + "TAIL"


def test_openai_refuses_a_tool_output_over_10_mib_in_its_words() -> None:
    (found,) = check(_chat(_long(10_605_342)), "openai")
    assert (found.rule, found.location) == ("text-too-long", "messages[2].content")
    assert found.message == ("Invalid 'messages[2].content': string too long. Expected a "
                             "string with maximum length 10485760, but got a string with "
                             "length 10605342 instead.")
    assert found.error["param"] == "messages[2].content"
    assert check(_chat(_long(LIMIT)), "openai") == ()


def test_the_limit_was_a_tenth_of_that_in_2024() -> None:
    (found,) = check(_chat(_long(1_744_259)), "openai", on="2024-08-08")
    assert "maximum length 1048576" in found.message
    assert check(_chat(_long(1_744_259)), "openai") == ()


def test_text_parts_and_responses_items_are_read_too() -> None:
    body = _chat("ok")
    body["messages"][0]["content"] = [{"type": "text", "text": _long(LIMIT + 1)}]
    assert [v.location for v in check(body, "openai")] == ["messages[0].content[0].text"]
    responses = {"model": "gpt-4.1-mini", "input": [
        {"role": "user", "content": [{"type": "input_text", "text": _long(LIMIT + 1)}]},
        {"type": "function_call", "call_id": "call_1", "name": "run", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": _long(LIMIT + 2)}]}
    assert [v.location for v in check(responses, "openai_responses")] == [
        "input[0].content[0].text", "input[2].output"]


def test_normalize_keeps_both_ends_and_says_exactly_how_much_went() -> None:
    long = _long(10_605_342)
    fixed = normalize_request(_chat(long), "openai_chat", "openai")
    sent = fixed.body["messages"][2]["content"]
    assert len(sent) == LIMIT and sent.startswith("HEAD") and sent.endswith("TAIL")
    cut = int(re.search(r"\[… ([\d,]+) characters left out", sent)[1].replace(",", ""))
    mark = re.search(r"\n\[… .*?…\]\n", sent)[0]
    assert cut == len(long) - (len(sent) - len(mark))
    (change,) = fixed.changes
    assert (change.pass_name, change.code, change.lossless) == (
        "shorten_long_texts", "shorten-long-text", False)
    assert f"left out {cut:,} of the 10,605,342 characters" in change.what
    assert check(fixed.body, "openai") == ()
    again = normalize_request(fixed.body, "openai_chat", "openai")
    assert again.body == fixed.body and again.changes == ()


def test_a_user_message_is_shortened_never_dropped() -> None:
    body = _chat("ok")
    body["messages"][0]["content"] = _long(LIMIT + 10)
    fixed = normalize_request(body, "openai_chat", "openai")
    first = fixed.body["messages"][0]
    assert first["role"] == "user" and len(first["content"]) == LIMIT
    assert len(fixed.body["messages"]) == 3


def test_a_vendor_without_the_rule_gets_the_text_whole() -> None:
    long = _long(LIMIT + 5)
    fixed = normalize_request(_chat(long), "openai_chat", "groq")
    assert fixed.body["messages"][2]["content"] == long
    assert not [c for c in fixed.changes if c.code == "shorten-long-text"]


@pytest.mark.parametrize("limit", [40, 99, 100, 1000])
def test_the_shortened_text_fits_and_its_count_is_exact_across_digit_boundaries(
        limit: int) -> None:
    profile = profile_from_mapping({
        "provider": "tiny", "protocol": "openai_chat", "error_format": "openai",
        "rules": [{"id": "text-too-long", "forbids": "a long text", "status": 400,
                   "message": "too long", "source": "test", "last_verified": "2026-11-29",
                   "confidence": "high", "params": {"max_length": limit}}]})
    for length in (limit + 1, limit + 7, limit + 95, limit * 10 + 3, 100_003, 999_999):
        text = "A" * length
        out = normalize_request(_chat(text), "openai_chat", profile).body
        sent = out["messages"][2]["content"]
        found = re.search(r"\[… ([\d,]+) characters", sent)
        assert len(sent) <= limit, (limit, length)
        if found is None:  # a limit shorter than the mark itself: a plain cut
            assert sent == text[:limit] and limit < 120
            continue
        mark = re.search(r"\n\[… .*?…\]\n", sent)[0]
        assert int(found[1].replace(",", "")) == length - (len(sent) - len(mark))


def test_through_the_openai_sdk_seam_raw_is_refused_and_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    body = _chat(_long(LIMIT + 1))
    said = calls.refused("openai_chat", sdk, body)
    assert said.status == 400 and said.message.startswith(
        "Invalid 'messages[2].content': string too long.")
    reply = calls.send("openai_chat", sdk, normalize_request(body, "openai_chat", "openai").body)
    assert reply.choices


def _responses_call(arguments: str) -> dict[str, Any]:
    return {"model": "gpt-4.1-mini", "input": [
        {"role": "user", "content": "Write the notes file."},
        {"type": "function_call", "call_id": "call_1", "name": "write_file",
         "arguments": arguments},
        {"type": "function_call_output", "call_id": "call_1", "output": "written"}]}


ARGS_LIMIT = 1_048_576


def test_responses_refuses_arguments_over_1_mib_in_its_words() -> None:
    arguments = '{"text":"' + " " * (ARGS_LIMIT + 100) + '"}'
    (found,) = check(_responses_call(arguments), "openai_responses")
    assert (found.rule, found.location) == ("tool-arguments-too-long", "input[1].arguments")
    assert found.message == (
        "Invalid 'input[1].arguments': string too long. Expected a string with maximum "
        f"length 1048576, but got a string with length {len(arguments)} instead.")
    assert check(_responses_call('{"text":"' + "x" * 1000 + '"}'), "openai_responses") == ()


@pytest.mark.parametrize("arguments", [
    '{"text":"' + " " * (ARGS_LIMIT + 100) + '"}',  # JSON: parsed, its own string kept
    '{"text":"' + " " * (ARGS_LIMIT + 100),  # not JSON: kept verbatim
])
def test_normalize_leaves_the_arguments_out_and_keeps_the_call_and_its_result(
        arguments: str) -> None:
    fixed = normalize_request(_responses_call(arguments), "openai_responses",
                              "openai_responses")
    call, output = fixed.body["input"][1], fixed.body["input"][2]
    assert (call["call_id"], call["name"], output["output"]) == ("call_1", "write_file",
                                                                 "written")
    sent = json.loads(call["arguments"])
    assert sent["start"] == arguments[:2000]
    assert f"{len(arguments):,} characters, were left out" in sent["left_out"]
    (change,) = fixed.changes
    assert (change.code, change.lossless) == ("leave-out-long-arguments", False)
    assert check(fixed.body, "openai_responses") == ()
    assert normalize_request(fixed.body, "openai_responses", "openai_responses").changes == ()


def test_arguments_built_from_another_vendor_are_measured_as_they_will_be_sent() -> None:
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": "Write the notes file."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "write_file",
                                           "input": {"text": "é" * (ARGS_LIMIT + 1)}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "written"}]}]}
    fixed = normalize_request(anthropic, "anthropic", "openai_responses")
    assert "leave-out-long-arguments" in [c.code for c in fixed.changes]
    assert check(fixed.body, "openai_responses") == ()
    # Chat has no such rule: the arguments go whole.
    whole = normalize_request(anthropic, "anthropic", "openai")
    assert "leave-out-long-arguments" not in [c.code for c in whole.changes]


@pytest.mark.parametrize("value", ["\x01" * 20, "x" * 95, "é" * 60, 7, ["a"] * 30,
                                   {"deep": "y" * 90}])
def test_what_the_pass_lets_through_check_lets_through_too(value: Any) -> None:
    # A limit of 100 and arguments built from an Anthropic input (no wire string): escapes
    # (a control character is six characters as JSON) and nesting are measured as sent.
    profile = profile_from_mapping({
        "provider": "tiny", "protocol": "openai_responses", "error_format": "openai",
        "rules": [{"id": "tool-arguments-too-long", "forbids": "long arguments",
                   "status": 400, "message": "too long", "source": "test",
                   "last_verified": "2026-11-29", "confidence": "high",
                   "params": {"max_length": 100}}]})
    anthropic = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": "Go."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1",
                                           "name": "write_file", "input": {"t": value}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "written"}]}]}
    fixed = normalize_request(anthropic, "anthropic", profile)
    sent = fixed.body["input"][1]["arguments"]
    assert check(fixed.body, profile) == ()
    left_out = "leave-out-long-arguments" in [c.code for c in fixed.changes]
    assert left_out == (len(json.dumps({"t": value}, ensure_ascii=False,
                                       separators=(",", ":"))) > 100), sent
