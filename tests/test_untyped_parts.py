"""A content part without a `type` (a bare {"text": ...}, or a whole message put where a
part goes, as crewAI once sent) is refused by OpenAI in its missing-parameter words
("Missing required parameter: 'messages[1].content[0].type'.", a recorded crewAI cassette);
the repair types it as text, and a crossing to another protocol keeps its words."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request, parse, render

NESTED = {"role": "system", "content": "You are Say Hi. You just say hi to the user."}
BARE = {"text": "Say hi to the user.", "cache_control": {"type": "ephemeral"}}


def body(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": list(parts)}]}


def test_each_part_without_a_type_is_refused_by_its_path() -> None:
    found = [(v.rule, v.location, v.message, v.error["param"])
             for v in check(body(NESTED, {"type": "text", "text": "ok"}, BARE), "openai")]
    assert found == [
        ("content-part-type-missing", "messages[1].content[0].type",
         "Missing required parameter: 'messages[1].content[0].type'.",
         "messages[1].content[0].type"),
        ("content-part-type-missing", "messages[1].content[2].type",
         "Missing required parameter: 'messages[1].content[2].type'.",
         "messages[1].content[2].type")]
    assert check(body({"type": "text", "text": "ok"}), "openai") == ()


def test_a_part_without_a_type_is_read_and_sent_back_as_it_came() -> None:
    raw = body(NESTED, BARE)
    assert render(parse(raw, "openai_chat"), "openai_chat", model="gpt-4o-mini") == raw


def test_the_repair_types_them_and_openai_takes_the_request(emu: Emulator) -> None:
    raw = body(NESTED, BARE)
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, raw)
    error = refused.value.body
    assert isinstance(error, dict) and (error["message"], error["code"], error["param"]) == (
        "Missing required parameter: 'messages[1].content[0].type'.",
        "missing_required_parameter", "messages[1].content[0].type")
    fixed = normalize_request(raw, "openai_chat", "openai")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("type-untyped-part", "messages[1].parts[0]", False),  # the role is lost
        ("type-untyped-part", "messages[1].parts[1]", True)]
    assert fixed.body["messages"][1]["content"] == [
        {"type": "text", "text": NESTED["content"]},
        {"type": "text", "text": BARE["text"], "cache_control": {"type": "ephemeral"}}]
    assert check(fixed.body, "openai") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, fixed.body))


@pytest.mark.parametrize("provider", ["anthropic", "gemini", "openai_responses", "mistral"])
def test_the_words_cross_to_every_vendor(provider: str) -> None:
    fixed = normalize_request(body(NESTED, {"text": "Hello"}, {"image": 3}), "openai_chat",
                              provider)
    said = [(c.code, c.lossless) for c in fixed.changes if c.code == "type-untyped-part"]
    assert said == [("type-untyped-part", False), ("type-untyped-part", True),
                    ("type-untyped-part", False)]
    sent = repr(fixed.body)
    assert NESTED["content"] in sent and "Hello" in sent and '"image": 3' in sent
    assert check(fixed.body, provider) == ()


def test_a_tool_results_parts_are_typed_too() -> None:
    raw = {"model": "gpt-4o-mini", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": [{"text": "18C"}]}]}
    (found,) = check(raw, "openai")
    assert found.location == "messages[2].content[0].type"
    fixed = normalize_request(raw, "openai_chat", "openai")
    assert fixed.body["messages"][2]["content"] in ("18C", [{"type": "text", "text": "18C"}])
    assert check(fixed.body, "openai") == ()
