"""Azure OpenAI's body names the deployment, not the model: the rules of OpenAI's reasoning
models apply where the deployment is named after its model, or where check or normalize is
given the model; a deployment named otherwise is not checked (no false refusal). Sent
through the official SDK to the Azure emulator, which reads the model off the body as the
profile does."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import check, normalize, parse

PROVIDER = "azure_openai"
OPTIONS = {"max_tokens": 256, "temperature": 0.2}
BOTH = {"max-tokens-field-unsupported", "sampling-parameter-fixed"}


def _body(model: str) -> dict[str, Any]:
    return {"model": model, **OPTIONS,
            "messages": [{"role": "user", "content": "Name a colour."}]}


def test_a_deployment_named_after_its_model_is_checked() -> None:
    assert {v.rule for v in check(_body("gpt-5-mini"), PROVIDER)} == BOTH


def test_a_deployment_named_otherwise_is_checked_only_with_the_model_given() -> None:
    assert check(_body("prod-chat"), PROVIDER) == ()
    assert {v.rule for v in check(_body("prod-chat"), PROVIDER, model="gpt-5-mini")} == BOTH


def test_normalize_for_the_model_and_render_for_the_deployment(emu: Any) -> None:
    fixed = normalize(parse(_body("prod-chat"), "openai_chat"), PROVIDER, model="gpt-5-mini",
                      options=OPTIONS)
    assert {c.code for c in fixed.changes} == {"move-max-tokens", "drop-unfixed-sampling"}
    out = fixed.render(model="prod-chat")
    assert out["model"] == "prod-chat" and out["max_completion_tokens"] == 256
    assert "max_tokens" not in out and "temperature" not in out
    assert check(out, PROVIDER, model="gpt-5-mini") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url(PROVIDER))
    assert calls.send("openai_chat", sdk, out).choices
    assert calls.send("openai_chat", sdk, {**out, "model": "gpt-5-mini"}).choices
    # The unrepaired body, for a deployment named after its model: refused in OpenAI's words.
    (first,) = check(_body("gpt-5-mini"), PROVIDER)[:1]
    assert calls.refused("openai_chat", sdk, _body("gpt-5-mini")) == \
        calls.SdkError(400, first.message)
