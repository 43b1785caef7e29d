"""Responses item ids given twice (rule duplicate-tool-call-id as the Responses API words
it): the later item loses its id and goes by value; the first keeps it. Call ids stay."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize_request

CALL = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}",
        "id": "fc_1"}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
SAID = {"type": "message", "role": "assistant", "id": "msg_1",
        "content": [{"type": "output_text", "text": "Done."}]}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}


def _normalized(*items: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"}, *items]}
    assert {v.rule for v in check(body, "openai_responses")} == {"duplicate-tool-call-id"}
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert not check(out.body, "openai_responses")
    assert all(c.lossless for c in out.changes)
    return out.body["input"][1:], [c.code for c in out.changes]


def test_two_calls_with_one_item_id() -> None:
    # The probe's case: the second call copied the first one's item id.
    second = {**CALL, "call_id": "call_2"}
    items, codes = _normalized(CALL, second, OUTPUT, {**OUTPUT, "call_id": "call_2"})
    assert items[0] == CALL
    assert items[1] == {k: v for k, v in second.items() if k != "id"}
    assert codes == ["drop-duplicate-item-id"]


def test_a_turn_replayed_twice() -> None:
    # vercel/ai#7883: the same reasoning item (and its message) sent twice.
    items, codes = _normalized(REASONING, SAID, {"role": "user", "content": "Again"},
                               REASONING, SAID)
    assert "id" not in items[3] and items[3]["encrypted_content"] == "gAAA"
    assert "id" not in items[4] and items[4]["content"] == SAID["content"]
    assert items[:2] == [REASONING, SAID]
    assert codes == ["drop-duplicate-item-id", "drop-duplicate-item-id"]


def test_other_targets_are_left_alone() -> None:
    body = {"model": "m", "input": [{"role": "user", "content": "Hi"}, CALL, OUTPUT,
                                    {"role": "user", "content": "Again"}, CALL, OUTPUT]}
    out = normalize_request(body, "openai_responses", "anthropic")
    assert not [c for c in out.changes if c.code == "drop-duplicate-item-id"]


def test_only_an_assistant_message_item_id_repeats() -> None:
    # Its id rides on the message's first text (`item.id`).
    items, codes = _normalized(SAID, {"role": "user", "content": "Again"}, SAID)
    assert items[0] == SAID and "id" not in items[2] and items[2]["content"] == SAID["content"]
    assert codes == ["drop-duplicate-item-id"]


def test_only_a_user_message_item_id_repeats() -> None:
    # Its id rides on the message (`id`).
    user = {"type": "message", "role": "user", "id": "msg_u1", "content": "Hi again"}
    items, codes = _normalized(user, {**SAID, "id": "msg_2"}, user)
    assert items[0] == user and "id" not in items[2]
    assert codes == ["drop-duplicate-item-id"]


def test_an_item_kept_verbatim_keeps_its_id_and_a_later_one_loses_it() -> None:
    reference = {"type": "item_reference", "id": "fc_1"}
    items, codes = _normalized(reference, CALL, OUTPUT)
    assert items[0] == reference and "id" not in items[1]
    assert codes == ["drop-duplicate-item-id"]


def test_a_hosted_item_replayed_twice_goes_as_text_the_second_time() -> None:
    # The API's schema requires a web_search_call's id: the later copy cannot go by value.
    # The item is pydantic/pydantic-ai's recorded one (scenarios/real/responses-web-search-
    # call-to-others.yaml).
    search = {"action": {"query": "weather: San Francisco, CA", "type": "search"},
              "id": "ws_028829e50fbcad090068c9c8306aec8195ae9451d32175ed69",
              "status": "completed", "type": "web_search_call"}
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"}, search, SAID,
                                        {"role": "user", "content": "Again"}, search, SAID]}
    assert {v.rule for v in check(body, "openai_responses")} == {"duplicate-tool-call-id"}
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert not check(out.body, "openai_responses")
    items = out.body["input"]
    assert items[1] == search
    assert [item for item in items[2:] if item.get("id") == search["id"]] == []
    assert "weather: San Francisco, CA" in str(items[4:])  # the later search, as text
    assert [(c.code, c.lossless) for c in out.changes] == [
        ("duplicate-item-as-text", False), ("drop-duplicate-item-id", True)]
    again = normalize_request(out.body, "openai_responses", "openai_responses")
    assert again.changes == ()


def test_a_call_id_written_as_the_item_id_is_left_out() -> None:
    # gethnet/litellm-connector-copilot#54: a client that keeps only the call id writes it
    # in both fields; OpenAI wants fc_ ids there. Wei-Shaw/sub2api#3785: a gateway's item_ ids.
    for wrong in ("call_1", "item_A9v0SNfS3VaLrfX0j3y4xhyK"):
        body = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"},
                                            {**CALL, "id": wrong}, OUTPUT]}
        (found,) = check(body, "openai_responses")
        assert (found.rule, found.location, found.message) == (
            "call-item-id-invalid", "input[1].id",
            f"Invalid 'input[1].id': '{wrong}'. Expected an ID that begins with 'fc'.")
        out = normalize_request(body, "openai_responses", "openai_responses")
        assert out.body["input"][1] == {k: v for k, v in CALL.items() if k != "id"}
        assert [(c.code, c.lossless) for c in out.changes] == [("drop-call-item-id", True)]
        assert not check(out.body, "openai_responses")
    # An fc_ id the vendor issued stays, and so does a call sent without one.
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"}, CALL, OUTPUT]}
    assert not check(body, "openai_responses")
    assert normalize_request(body, "openai_responses", "openai_responses").changes == ()


def test_an_item_id_over_64_characters_goes_and_a_hosted_item_goes_as_text() -> None:
    # Wei-Shaw/sub2api#7484: grok-4.7's web_search_call id (83 characters) replayed to OpenAI.
    grok_search = {"type": "web_search_call", "status": "completed",
                   "id": "ws_678a98c5-d185-9fcd-954c-cff17fb7160f_call-0d39efd9-65d8-4295-"
                         "aae7-0a0c439ea2ad-2",
                   "action": {"type": "search", "query": "weather in Paris"}}
    long_call = {**CALL, "id": "fc_" + "0" * 62}
    body = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"}, grok_search, SAID,
                                        {"role": "user", "content": "Again"}, long_call,
                                        OUTPUT]}
    found = check(body, "openai_responses")
    assert [(v.rule, v.location) for v in found] == [("item-id-too-long", "input[1].id"),
                                                     ("item-id-too-long", "input[4].id")]
    assert found[0].message == (
        "Invalid 'input[1].id': string too long. Expected a string with maximum length 64, "
        "but got a string with length 83 instead.")
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert not check(out.body, "openai_responses")
    assert [(c.code, c.lossless) for c in out.changes] == [("long-item-as-text", False),
                                                           ("drop-long-item-id", True)]
    assert "weather in Paris" in str(out.body["input"][1])
    assert {k: v for k, v in long_call.items() if k != "id"} in out.body["input"]
    # An id of 64 stays.
    body["input"][4] = {**CALL, "id": "fc_" + "0" * 61}
    body["input"][1:3] = [SAID]
    assert not check(body, "openai_responses")
