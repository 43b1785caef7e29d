"""OpenAI's reasoning models refuse a presence or frequency penalty (rule
sampling-parameter-unsupported, params.taken): any value but 0, which is taken. Sent through
the official SDK to the emulator."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

PROVIDER = "openai"


def _body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "max_completion_tokens": 64, **options,
            "messages": [{"role": "user", "content": "Name a colour."}]}


@pytest.mark.parametrize("field", ["presence_penalty", "frequency_penalty"])
def test_a_penalty_is_refused_and_zero_is_taken(field: str) -> None:
    (found,) = check(_body("gpt-5", **{field: 0.4}), PROVIDER)
    assert (found.rule, found.location, found.message) == (
        "sampling-parameter-unsupported", field,
        f"Unsupported parameter: '{field}' is not supported with this model.")
    assert check(_body("gpt-5", **{field: 0}), PROVIDER) == ()
    assert check(_body("gpt-4o", **{field: 0.4}), PROVIDER) == ()  # not a reasoning model


def test_normalize_leaves_out_what_is_refused_and_keeps_zero(emu: Any) -> None:
    body = _body("gpt-5-mini", presence_penalty=0.6, frequency_penalty=0)
    fixed = normalize_request(body, "openai_chat", PROVIDER)
    assert "presence_penalty" not in fixed.body and fixed.body["frequency_penalty"] == 0
    assert [(c.code, c.where) for c in fixed.changes] == \
        [("drop-unsupported-sampling", "presence_penalty")]
    sdk = calls.client("openai_chat", emu.sdk_base_url(PROVIDER))
    assert calls.send("openai_chat", sdk, fixed.body).choices
    assert calls.refused("openai_chat", sdk, body) == calls.SdkError(
        400, "Unsupported parameter: 'presence_penalty' is not supported with this model.")
