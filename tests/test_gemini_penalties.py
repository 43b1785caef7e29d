"""Gemini's penalties (rule sampling-parameter-fixed, params.within generationConfig): taken
by Gemini 2.0 Flash only, refused at any value but 0 by the other models, in words that name
Gemini 1.x and 2.x models and not Gemini 3. Sent through google-genai to the emulator."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

PROVIDER = "gemini"
PROMPT = [{"role": "user", "parts": [{"text": "Suggest a name for a grey cat."}]}]


def _body(config: dict[str, Any], key: str = "generationConfig") -> dict[str, Any]:
    return {"contents": PROMPT, key: config}


@pytest.mark.parametrize(("model", "words"), [
    ("gemini-2.5-flash", "Penalty is not enabled for models/gemini-2.5-flash"),
    ("models/gemini-1.5-pro", "Penalty is not enabled for models/gemini-1.5-pro"),
    ("gemini-3-flash-preview", "Penalty is not enabled for this model"),
])
def test_a_penalty_is_refused_in_the_models_words(model: str, words: str) -> None:
    (found,) = check(_body({"presencePenalty": 0.5, "frequencyPenalty": 0}), PROVIDER,
                     model=model)
    assert (found.rule, found.location, found.message) == \
        ("sampling-parameter-fixed", "generationConfig.presencePenalty", words)


def test_zero_and_gemini_2_0_flash_are_taken() -> None:
    assert check(_body({"presencePenalty": 0, "frequencyPenalty": 0.0}), PROVIDER,
                 model="gemini-2.5-flash") == ()
    assert check(_body({"presencePenalty": 0.5}), PROVIDER, model="gemini-2.0-flash") == ()


def test_the_snake_case_spelling_is_read_and_repaired() -> None:
    body = _body({"presence_penalty": 0.5, "temperature": 0.2}, key="generation_config")
    (found,) = check(body, PROVIDER, model="gemini-2.5-pro")
    assert found.location == "generation_config.presence_penalty"
    fixed = normalize_request(body, "gemini", PROVIDER, model="gemini-2.5-pro")
    assert fixed.body["generation_config"] == {"temperature": 0.2}
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == \
        [("drop-unfixed-sampling", "generation_config.presence_penalty", False)]


def test_an_openai_body_moved_to_gemini_2_5_loses_its_penalties(emu: Any) -> None:
    body = {"model": "gpt-4o", "temperature": 0.2, "presence_penalty": 0.6,
            "frequency_penalty": 0.3, "messages": [{"role": "user", "content": "Hi."}]}
    fixed = normalize_request(body, "openai_chat", PROVIDER, model="gemini-2.5-flash")
    assert fixed.body["generationConfig"] == {"temperature": 0.2}
    assert [c.code for c in fixed.changes] == ["drop-unfixed-sampling"] * 2
    sdk = calls.client("gemini", emu.sdk_base_url(PROVIDER))
    assert calls.text_of("gemini", calls.send("gemini", sdk, fixed.body,
                                              model="gemini-2.5-flash"))
    # Without the model the penalties stay (nothing is repaired on a guess), and the
    # emulator, which reads the model off the URL, refuses them in its words.
    kept = normalize_request(body, "openai_chat", PROVIDER)
    assert kept.body["generationConfig"]["presencePenalty"] == 0.6
    assert calls.refused("gemini", sdk, kept.body, model="gemini-2.5-flash") == \
        calls.SdkError(400, "Penalty is not enabled for models/gemini-2.5-flash")


def test_a_config_left_empty_is_left_out() -> None:
    fixed = normalize_request(_body({"frequencyPenalty": 1.0}), "gemini", PROVIDER,
                              model="gemini-3-flash-preview")
    assert "generationConfig" not in fixed.body
    assert check(fixed.body, PROVIDER, model="gemini-3-flash-preview") == ()
