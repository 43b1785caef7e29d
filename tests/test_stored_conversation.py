"""xAI's Responses endpoint refuses `instructions` beside `previous_response_id` ("Argument
not supported: instructions and previous_response_id together", 10-X-eng/vibecad#4): its
API reference says the stored conversation's own system prompt is used. OpenAI clients send
instructions every turn (OpenAI does not carry them over), so the pair is what they send.
The repair leaves the instructions out for xAI; OpenAI keeps them."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text
from normalizer.passes import Draft, Policy
from normalizer.passes.stored_conversation import drop_instructions_beside_previous_response
from normalizer.profiles import load_profile

WORDS = "Argument not supported: instructions and previous_response_id together"


def next_turn(**fields: Any) -> dict[str, Any]:
    """The turn an OpenAI client sends after its first: the instructions again, the stored
    conversation by id, the user's next words."""
    return {"model": "grok-4.3", "instructions": "You are a concise weather assistant.",
            "previous_response_id": "resp_0a1b2c3d4e5f",
            "input": [{"role": "user", "content": "And Oslo?"}], **fields}


def test_xai_refuses_the_pair_and_openai_takes_it() -> None:
    (found,) = check(next_turn(), "xai_responses")
    assert (found.rule, found.location, found.message) == (
        "instructions-with-previous-response", "instructions", WORDS)
    assert check(next_turn(), "openai_responses") == ()
    assert check(next_turn(previous_response_id=None), "xai_responses") == ()
    assert check(next_turn(instructions=None), "xai_responses") == ()
    alone = next_turn()
    del alone["instructions"]
    assert check(alone, "xai_responses") == ()


def test_the_instructions_go_for_xai_through_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("xai_responses"))
    assert WORDS in calls.refused("openai_responses", sdk, next_turn()).message
    fixed = normalize_request(next_turn(), "openai_responses", "xai_responses")
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("drop-instructions-beside-previous-response", "messages[0]", False)]
    assert "You are a concise weather assistant." in fixed.changes[0].what
    assert "instructions" not in fixed.body
    assert fixed.body["previous_response_id"] == "resp_0a1b2c3d4e5f"
    assert fixed.body["input"] == [{"role": "user", "content": "And Oslo?"}]
    assert calls.text_of("openai_responses", calls.send("openai_responses", sdk, fixed.body))
    kept = normalize_request(next_turn(), "openai_responses", "openai_responses")
    assert kept.changes == () and kept.body["instructions"] == next_turn()["instructions"]


def test_only_the_instructions_go_never_a_system_message_of_the_input() -> None:
    # A system message item the input holds is the conversation's own, not `instructions`.
    body = next_turn(input=[{"role": "system", "content": "Answer in French."},
                            {"role": "user", "content": "And Oslo?"}])
    del body["instructions"]
    assert normalize_request(body, "openai_responses", "xai_responses").changes == ()
    # Without a stored conversation nothing is refused, so nothing goes.
    history = History((Message("system", (Text("Be brief."),), extras={"instructions": True}),
                       Message("user", (Text("Hi"),))))
    draft = Draft(history=history)
    assert drop_instructions_beside_previous_response(
        draft, load_profile("xai_responses"), Policy()) == (draft, ())
    assert normalize(history, "xai_responses").changes == ()
