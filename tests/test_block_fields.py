"""Fields a message or content block does not have (rules unknown-message-field and
unknown-block-field, Anthropic and Gemini): refused in each vendor's words at the field's
own path; normalize drops the ones no protocol owns with a change naming them (a field
another protocol owns is not written anyway, and the crossing pass reports a content one)."""

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


def _gemini(*contents: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Hi!"}]}, *contents,
                         {"role": "user", "parts": [{"text": "And then?"}]}]}


def test_gemini_names_an_unknown_part_or_content_field_at_its_place() -> None:
    part = _gemini({"role": "model", "parts": [{"text": "Hello!", "id": "p_1"}]})
    (found,) = check(part, "gemini")
    assert (found.rule, found.message) == (
        "unknown-block-field",
        "Invalid JSON payload received. Unknown name \"id\" at 'contents[1].parts[0]': "
        "Cannot find field.")
    content = _gemini({"role": "model", "saved_at": "t", "parts": [{"text": "Hello!"}]})
    (found,) = check(content, "gemini")
    assert (found.rule, found.location) == ("unknown-message-field", "contents[1].saved_at")


def test_gemini_takes_its_part_fields_in_either_spelling() -> None:
    body = _gemini({"role": "model", "parts": [
        {"text": "Let me look.", "thought": True, "thoughtSignature": "c2ln"},
        {"function_call": {"name": "search", "args": {}}, "thought_signature": "c2ln"}]})
    assert [v.rule for v in check(body, "gemini")
            if v.rule.startswith("unknown-")] == []


def test_gemini_normalize_drops_what_no_protocol_owns() -> None:
    body = _gemini({"role": "model", "x_saved_at": "t",
                    "parts": [{"text": "Hello!", "x_trace": "t-1"}]})
    out = normalize_request(body, "gemini", "gemini")
    assert sorted((c.code, c.lossless) for c in out.changes) == [
        ("drop-block-field", False), ("drop-message-field", False)]
    assert out.body["contents"][1] == {"role": "model", "parts": [{"text": "Hello!"}]}
    assert check(out.body, "gemini") == ()


def test_gemini_normalize_sends_a_part_with_no_field_it_has_as_text() -> None:
    # An Anthropic server_tool_use block stored among a Gemini turn's parts: the parser keeps
    # it verbatim (no field it knows), and Gemini refuses each of its fields by name.
    block = {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
             "input": {"query": "weather"}}
    body = _gemini({"role": "model", "parts": [block, {"text": "Sunny.", "x_ref": "r1"}]})
    assert {v.location for v in check(body, "gemini")} == {
        f"contents[1].parts[0].{k}" for k in block} | {"contents[1].parts[1].x_ref"}
    out = normalize_request(body, "gemini", "gemini")
    assert check(out.body, "gemini") == ()
    (kept_as_text, sunny) = out.body["contents"][1]["parts"]
    assert "web_search" in kept_as_text["text"] and "weather" in kept_as_text["text"]
    assert sunny == {"text": "Sunny."}
    assert sorted((c.code, c.lossless) for c in out.changes) == [
        ("drop-block-field", False), ("unknown-part-as-text", False)]
    assert normalize_request(out.body, "gemini", "gemini").changes == ()


def test_gemini_normalize_keeps_a_kept_parts_known_fields() -> None:
    # A part the parser does not know but whose fields Gemini has keeps them; an unknown one
    # beside them goes.
    body = _gemini({"role": "model", "parts": [
        {"videoMetadata": {"fps": 1}, "x_ref": "r1"}, {"text": "Done."}]})
    out = normalize_request(body, "gemini", "gemini")
    assert check(out.body, "gemini") == ()
    assert out.body["contents"][1]["parts"][0] == {"videoMetadata": {"fps": 1}}
    assert [c.code for c in out.changes] == ["drop-block-field"]


def test_responses_names_an_unknown_message_item_field_and_normalize_drops_it() -> None:
    # microsoft/agent-framework#2203: a client's `metadata` on a user message item.
    body = {"model": "gpt-4o-mini", "input": [
        {"role": "user", "content": "Weather in Tokyo?", "metadata": {"client": "ChatClient"}}]}
    (found,) = check(body, "openai_responses")
    assert (found.rule, found.message, found.error["code"]) == (
        "unknown-message-field", "Unknown parameter: 'input[0].metadata'.", "unknown_parameter")
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert [(c.code, c.lossless) for c in out.changes] == [("drop-message-field", False)]
    assert out.body["input"] == [{"role": "user", "content": "Weather in Tokyo?"}]
    kept = {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
            "phase": "final_answer", "content": [{"type": "output_text", "text": "Sunny."}]}
    # The fields recorded Responses requests put on message items pass (id, status, phase).
    assert check({"model": "gpt-5.4", "input": [{"role": "user", "content": "Hi"}, kept]},
                 "openai_responses") == ()


def test_gemini_names_an_unknown_field_inside_a_call_or_response_at_the_proto_path() -> None:
    # 0x4m4/hexstrike-ai#70: an MCP client's `content` beside `response`.
    body = _gemini(
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "search",
                                                      "args": {}, "thought_signature": "x"}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "search",
                                                         "response": {"hits": 3},
                                                         "content": "3 hits"}}]})
    found = [(v.rule, v.location, v.message) for v in check(body, "gemini")
             if v.rule == "unknown-block-field"]
    assert found == [
        ("unknown-block-field", "contents[1].parts[0].functionCall.thought_signature",
         "Invalid JSON payload received. Unknown name \"thought_signature\" at "
         "'contents[1].parts[0].function_call': Cannot find field."),
        ("unknown-block-field", "contents[2].parts[0].functionResponse.content",
         "Invalid JSON payload received. Unknown name \"content\" at "
         "'contents[2].parts[0].function_response': Cannot find field.")]


def test_gemini_takes_every_field_of_its_call_and_response_messages() -> None:
    body = _gemini(
        {"role": "model", "parts": [{"function_call": {
            "id": "c1", "name": "search", "args": {}, "partial_args": [],
            "will_continue": False}}]},
        {"role": "user", "parts": [{"functionResponse": {
            "id": "c1", "name": "search", "response": {"hits": 3}, "parts": [],
            "willContinue": False, "scheduling": "SILENT"}}]})
    assert [v for v in check(body, "gemini") if v.rule == "unknown-block-field"] == []


def test_gemini_normalize_drops_the_inner_fields_and_keeps_the_rest_of_the_call() -> None:
    body = _gemini(
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "search",
                                                      "args": {"q": "x"}, "index": 0},
                                     "x_trace": "t-1"}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "search",
                                                         "response": {"hits": 3},
                                                         "content": "3 hits",
                                                         "scheduling": "SILENT"}}]})
    body["tools"] = [{"functionDeclarations": [{"name": "search",
                                                "parameters": {"type": "object"}}]}]
    out = normalize_request(body, "gemini", "gemini", model="gemini-2.5-flash")
    dropped = [(c.where, c.what) for c in out.changes if c.code == "drop-block-field"]
    assert dropped == [
        ("messages[1].parts[0]", "dropped 'x_trace' from a part and 'index' from a part's "
                                 "function_call (the target rejects fields it does not have)"),
        ("messages[2].parts[0]", "dropped 'content' from a part's function_response (the "
                                 "target rejects fields it does not have)")]
    call, response = (out.body["contents"][k]["parts"][0] for k in (1, 2))
    assert call == {"functionCall": {"id": "c1", "name": "search", "args": {"q": "x"}}}
    assert response["functionResponse"]["scheduling"] == "SILENT"
    assert "content" not in response["functionResponse"]
    assert [v.rule for v in check(out.body, "gemini")] == []
