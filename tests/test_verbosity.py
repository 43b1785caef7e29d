"""A GPT-5 app's verbosity sent to a model before GPT-5 (rule verbosity-value-unsupported,
pass fit_verbosity): "Unsupported value: 'verbosity' does not support 'low' with this model.
Supported values are: 'medium'." (google-deepmind/concordia#164, gpt-4o); on the Responses API
the older models answered only medium with 200 (enricoros/big-AGI#947), in words not quoted."""

from __future__ import annotations

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

WORDS = ("Unsupported value: 'verbosity' does not support 'low' with this model. Supported "
         "values are: 'medium'.")


def chat(model: str, verbosity: str) -> dict[str, object]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            "verbosity": verbosity}


def test_the_models_before_gpt_5_take_medium_only() -> None:
    (found,) = check(chat("gpt-4o", "low"), "openai")
    assert (found.rule, found.location, found.message, found.error["code"]) == (
        "verbosity-value-unsupported", "verbosity", WORDS, "unsupported_value")
    assert check(chat("gpt-4o", "medium"), "openai") == ()
    assert check(chat("gpt-5", "low"), "openai") == ()
    responses = {"model": "gpt-4.1", "input": "Name a colour.", "text": {"verbosity": "high"}}
    (found,) = check(responses, "openai_responses")
    assert (found.rule, found.location, found.message) == (
        "verbosity-value-unsupported", "text.verbosity", "unknown")


def test_the_level_becomes_medium_said_as_lossy() -> None:
    sent = normalize_request(chat("gpt-5", "low"), "openai_chat", "openai", model="gpt-4o")
    assert sent.body["verbosity"] == "medium"
    assert [(c.code, c.where, c.lossless) for c in sent.changes if c.code != "replace-model"] == [
        ("fit-verbosity", "verbosity", False)]
    # Chat's verbosity crosses to Responses' text.verbosity, and is fitted there too.
    sent = normalize_request(chat("gpt-5", "high"), "openai_chat", "openai_responses",
                             model="gpt-4.1")
    assert sent.body["text"] == {"verbosity": "medium"}
    assert check(sent.body, "openai_responses") == ()


def test_a_gpt_5_apps_verbosity_reaches_gpt_4o_through_the_sdk(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, chat("gpt-4o", "low"))
    assert WORDS in str(refused.value)
    sent = normalize_request(chat("gpt-4o", "low"), "openai_chat", "openai", model="gpt-4o")
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent.body)) == "ok"
