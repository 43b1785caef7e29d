"""JSON mode while no message says "json" (rule response-format-json-word): refused by
OpenAI (Chat and Responses), DeepSeek and DashScope in their words; normalize adds a
system message that says it, or moves Responses instructions that say it into the input."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize_request

CHAT_JSON = {"type": "json_object"}


def _chat(*contents: Any, model: str = "gpt-4o") -> dict[str, Any]:
    return {"model": model, "response_format": CHAT_JSON,
            "messages": [{"role": "system", "content": contents[0]},
                         *({"role": "user", "content": c} for c in contents[1:])]}


def test_each_vendor_refuses_in_its_words() -> None:
    body = _chat("Summarise as an object with a title.", "Text.")
    said = {p: check(body, p)[0].message for p in ("openai", "deepseek", "dashscope")}
    assert said == {
        "openai": "'messages' must contain the word 'json' in some form, to use "
                  "'response_format' of type 'json_object'.",
        "deepseek": "Prompt must contain the word 'json' in some form to use "
                    "'response_format' of type 'json_object'.",
        "dashscope": "<400> InternalError.Algo.InvalidParameter: 'messages' must contain the "
                     "word 'json' in some form, to use 'response_format' of type "
                     "'json_object'."}
    assert check(body, "groq") == ()  # no refusal observed: not checked


def test_the_word_counts_in_any_case_in_any_message_and_in_text_parts() -> None:
    assert check(_chat("Summarise.", "Reply as JSON."), "openai") == ()
    assert check(_chat("Summarise.", [{"type": "text", "text": "a Json object"}]),
                 "openai") == ()
    assert check({**_chat("Summarise.", "Text."), "response_format": {"type": "text"}},
                 "openai") == ()


def test_responses_looks_in_the_input_messages_not_the_instructions() -> None:
    body = {"model": "gpt-4o", "instructions": "Answer in JSON.",
            "input": [{"role": "user", "content": "Go."}],
            "text": {"format": {"type": "json_object"}}}
    (found,) = check(body, "openai_responses")
    assert (found.rule, found.location) == ("response-format-json-word", "input")
    assert check({**body, "input": "Go, in json."}, "openai_responses") == ()
    fixed = normalize_request(body, "openai_responses", "openai_responses")
    assert fixed.body["input"][0] == {"role": "system", "content": "Answer in JSON."}
    assert "instructions" not in fixed.body
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("instructions-as-input-message", True)]
    assert check(fixed.body, "openai_responses") == ()


def test_normalize_adds_the_instruction_after_the_leading_system_messages() -> None:
    body = _chat("Summarise as an object with a title.", "Text.")
    fixed = normalize_request(body, "openai_chat", "deepseek")
    assert [m["content"] for m in fixed.body["messages"]] == [
        "Summarise as an object with a title.", "Respond in JSON.", "Text."]
    (change,) = fixed.changes
    assert (change.code, change.where, change.lossless) == ("add-json-instruction",
                                                             "messages[1]", True)
    assert check(fixed.body, "deepseek") == ()
    assert normalize_request(fixed.body, "openai_chat", "deepseek").changes == ()


def test_nothing_is_added_where_a_message_already_says_it() -> None:
    body = _chat("Summarise as JSON.", "Text.")
    assert normalize_request(body, "openai_chat", "openai").changes == ()
    assert normalize_request(_chat("Summarise.", "Text."), "openai_chat", "groq").changes == ()


def test_a_chat_tool_result_saying_json_counts_as_the_vendor_reads_it() -> None:
    body = {"model": "gpt-4o", "response_format": CHAT_JSON, "messages": [
        {"role": "user", "content": "Look it up."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": '{"format": "json"}'}],
        "tools": [{"type": "function", "function": {
            "name": "lookup", "parameters": {"type": "object", "properties": {}}}}]}
    assert check(body, "openai") == ()
    assert normalize_request(body, "openai_chat", "openai").changes == ()
