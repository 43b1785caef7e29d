"""Mistral's Small 4 and Medium 3.5 refuse Magistral's reasoning switch, `prompt_mode:
"reasoning"` (rule prompt-mode-unsupported, pass prompt_mode_as_reasoning_effort): apps wrote
it for Magistral and kept it when magistral-small-latest came to mean Small 4
(earendil-works/pi#3096, spring-projects/spring-ai#6208)."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Is 391 a prime number?"),)),))
ASK = [{"role": "user", "content": "Is 391 a prime number?"}]


def body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": ASK, **options}


def fixed(options: dict[str, Any], model: str | None
          ) -> tuple[dict[str, Any], list[tuple[str, bool]]]:
    result = normalize(QUESTION, "mistral", options=options, model=model)
    return result.render(), [(c.code, c.lossless) for c in result.changes]


def test_small_4_and_medium_3_5_refuse_the_mode_in_mistrals_words() -> None:
    for model in ("mistral-small-latest", "mistral-small-2603", "magistral-small-latest",
                  "mistral-medium-latest", "mistral-medium-2604"):
        found = [(v.rule, v.location, v.message, v.error.get("code"))
                 for v in check(body(model, prompt_mode="reasoning"), "mistral")]
        assert found == [("prompt-mode-unsupported", "prompt_mode",
                          "Reasoning prompt mode is not enabled for this model", "3051")], model
    # Magistral Medium, which the mode was made for, and GLM 5.2 take it; no mode is no mode.
    for model in ("magistral-medium-latest", "zai-glm-5-2"):
        assert check(body(model, prompt_mode="reasoning"), "mistral") == (), model
    assert check(body("mistral-small-latest", prompt_mode=None), "mistral") == ()


def test_the_mode_becomes_a_high_effort_said_as_lossy() -> None:
    sent, said = fixed({"prompt_mode": "reasoning"}, "mistral-small-latest")
    assert "prompt_mode" not in sent and sent["reasoning_effort"] == "high"
    assert said == [("prompt-mode-as-reasoning-effort", False)]
    assert check(sent, "mistral") == ()


def test_an_effort_named_already_stays_and_the_mode_goes_losslessly() -> None:
    sent, said = fixed({"prompt_mode": "reasoning", "reasoning_effort": "none"},
                       "mistral-medium-latest")
    assert "prompt_mode" not in sent and sent["reasoning_effort"] == "none"
    assert said == [("drop-prompt-mode", True)]
    # An effort the model does not take is fitted after, as any effort is.
    sent, said = fixed({"prompt_mode": "reasoning", "reasoning_effort": "medium"},
                       "mistral-small-latest")
    assert sent["reasoning_effort"] == "high"
    assert said == [("drop-prompt-mode", True), ("fit-reasoning-effort", False)]
    assert check(sent, "mistral") == ()


def test_magistral_medium_and_an_unnamed_model_keep_the_mode() -> None:
    assert fixed({"prompt_mode": "reasoning"}, "magistral-medium-latest")[1] == []
    sent, said = fixed({"prompt_mode": "reasoning"}, None)
    assert said == [] and sent["prompt_mode"] == "reasoning"  # not on a guess


def test_small_4_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("mistral"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body("mistral-small-latest", prompt_mode="reasoning"))
    assert refused.value.status_code == 400
    assert "Reasoning prompt mode is not enabled" in str(refused.value)
    sent, _ = fixed({"prompt_mode": "reasoning"}, "mistral-small-latest")
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
