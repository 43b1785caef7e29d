"""A second opinion from the vendor's own code: bodies normalized for Mistral pass
`mistral-common`'s strictest request validator (V11, serving mode).

The Mistral profile has no first-message-role rule yet, while mistral-common rejects a
conversation that opens with an assistant message ("Conversation must start with a user
message or system message"), so the rule is added here, from that validator, to a copy of
the profile: the passes pick it up from the profile alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings

from normalizer.model import History
from normalizer.normalize import normalize
from normalizer.profiles import Profile, Rule, load_profile
from normalizer.testing import damaged_histories

request = pytest.importorskip("mistral_common.protocol.instruct.request")
validator = pytest.importorskip("mistral_common.protocol.instruct.validator")

FIRST_ROLE = Rule(
    id="first-message-role", forbids="a first non-system message that is not a user message",
    status=400, message="Conversation must start with a user message or system message",
    source="mistral-common 1.13.1 (MistralRequestValidator._validate_message_list_structure)",
    last_verified="2026-11-22", confidence="low", params={"allowed": ["user"]})


def mistral_profile() -> Profile:
    base = load_profile("mistral")
    if base.enforces("first-message-role"):
        return base
    return replace(base, rules=(*base.rules, FIRST_ROLE))


PROFILE = mistral_profile()
VALIDATOR = validator.MistralRequestValidatorV11(mode=validator.ValidationMode.serving)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(damaged_histories())
def test_mistral_common_accepts_normalized_bodies(history: History) -> None:
    body = normalize(history, PROFILE).render()
    req = request.ChatCompletionRequest.from_openai(body["messages"], tools=body.get("tools"),
                                                    model="m")
    if body["messages"] and body["messages"][-1].get("prefix"):
        # from_openai does not read `prefix`; the API does
        req.messages[-1].prefix = True
    VALIDATOR.validate_request(req)
