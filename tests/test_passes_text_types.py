"""Text part types across the two OpenAI protocols: an assistant text a Responses body typed
`input_text` (rule assistant-content-type) is retyped for OpenAI Responses, and a type one
protocol keeps is never written into the other's body."""

from __future__ import annotations

from normalizer import check, normalize_request, parse, render

TYPED = {"model": "gpt-5", "input": [
    {"role": "user", "content": "Hi"},
    {"role": "assistant", "content": [{"type": "input_text", "text": "Hello."}]},
    {"role": "user", "content": "Bye"}]}


def test_an_input_text_assistant_item_is_retyped_for_responses() -> None:
    assert [v.rule for v in check(TYPED, "openai_responses")] == ["assistant-content-type"]
    out = normalize_request(TYPED, "openai_responses", "openai_responses")
    assert out.body["input"][1] == {"role": "assistant", "content": "Hello."}
    [change] = out.changes
    assert change.code == "retype-assistant-text" and change.lossless
    assert change.where == "messages[1].parts[0]"
    assert not check(out.body, "openai_responses")


def test_a_responses_type_is_not_written_in_chat() -> None:
    # The Chat body used to carry {"type": "input_text"}, a type Chat does not have.
    out = render(parse(TYPED, "openai_responses"), "openai_chat", model="m")
    assert out["messages"][1]["content"] == [{"type": "text", "text": "Hello."}]


def test_a_refusal_part_keeps_its_type_in_both() -> None:
    body = {"model": "m", "messages": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]}]}
    history = parse(body, "openai_chat")
    assert render(history, "openai_chat", model="m") == body
    assert render(history, "openai_responses", model="m")["input"][1]["content"] == [
        {"type": "refusal", "refusal": "No."}]


def test_an_assistant_refusal_is_left_alone_for_responses() -> None:
    body = {"model": "gpt-5", "input": [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]},
        {"role": "user", "content": "Why?"}]}
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert out.body == body and out.changes == ()
