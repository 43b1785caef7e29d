"""Sampling fields a model takes none of (rule sampling-parameter-unsupported; pass
drop_unsupported_sampling). OpenAI's o1, o3 and o4-mini reasoning models and GPT-5, its mini
and nano refuse stop sequences: agent frameworks send their stop sequence to every model
(huggingface/smolagents#1671, langchain-ai/langchain#26433). xAI's Grok 3 Mini and Grok 4
models refuse presence_penalty and frequency_penalty at any value: chat apps send both, set
to 0, to every OpenAI-compatible vendor (miaoxworld/NativeTavern#83,
yym68686/uni-api#105)."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))
STOP = {"stop": ["<end_code>"]}
PENALTIES = {"presence_penalty": 0, "frequency_penalty": 0}


def body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            **options}


def test_the_reasoning_models_refuse_stop_in_openais_words() -> None:
    for model in ("gpt-5-mini", "gpt-5", "gpt-5-nano-2025-08-07", "o1-mini", "o3", "o4-mini"):
        found = [(v.rule, v.location, v.message, v.error.get("param"))
                 for v in check(body(model, **STOP), "openai")]
        assert found == [("sampling-parameter-unsupported", "stop",
                          "Unsupported parameter: 'stop' is not supported with this model.",
                          "stop")], model
    # gpt-4o-mini and gpt-4.1-mini take it; o3-mini kept it (smolagents#1211); no stop is
    # no refusal.
    for model in ("gpt-4o-mini", "gpt-4.1-mini", "o3-mini"):
        assert check(body(model, **STOP), "openai") == (), model
    assert check(body("gpt-5-mini", stop=None), "openai") == ()


def test_normalize_leaves_stop_out_for_those_models_only() -> None:
    result = normalize(QUESTION, "openai", options=STOP, model="gpt-5-mini")
    assert "stop" not in result.render()
    assert [(c.code, c.lossless) for c in result.changes] == [("drop-unsupported-sampling", False)]
    kept = normalize(QUESTION, "openai", options=STOP, model="gpt-4.1-mini")
    assert kept.changes == () and kept.render()["stop"] == ["<end_code>"]


def test_grok_4_and_3_mini_refuse_each_penalty_naming_the_model_and_the_camelcase_field(
        ) -> None:
    for model in ("grok-4.3", "grok-4-0709", "grok-4.20-0309-non-reasoning", "grok-3-mini"):
        found = [(v.rule, v.location, v.message) for v in check(body(model, **PENALTIES), "xai")]
        assert found == [
            ("sampling-parameter-unsupported", "presence_penalty",
             f"Model {model} does not support parameter presencePenalty."),
            ("sampling-parameter-unsupported", "frequency_penalty",
             f"Model {model} does not support parameter frequencyPenalty.")], model
    # grok-2 took both (ChatGPTNextWeb/NextChat#6593); other sampling fields pass.
    assert check(body("grok-2-1212", **PENALTIES), "xai") == ()
    assert check(body("grok-4.3", temperature=0.2, top_p=0.9), "xai") == ()


def test_normalize_leaves_them_out_for_those_models_only_and_says_so() -> None:
    result = normalize(QUESTION, "xai", options={**PENALTIES, "temperature": 0.2},
                       model="grok-4.3")
    assert set(result.render()) == {"model", "messages", "temperature"}
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unsupported-sampling", "presence_penalty", False),
        ("drop-unsupported-sampling", "frequency_penalty", False)]
    kept = normalize(QUESTION, "xai", options=PENALTIES, model="grok-2-1212")
    assert kept.changes == () and kept.render()["presence_penalty"] == 0


@pytest.mark.parametrize(("provider", "model", "options", "words"), [
    ("openai", "gpt-5-mini", STOP, "'stop' is not supported with this model"),
    ("xai", "grok-4.3", PENALTIES, "does not support parameter presencePenalty")])
def test_the_raw_request_is_refused_and_the_normalized_one_taken_through_the_sdk(
        emu: Emulator, provider: str, model: str, options: dict[str, Any], words: str) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url(provider))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body(model, **options))
    # Read off the error body: xAI's message is a string under "error", which openai's
    # exception text leaves out (it quotes error.message only).
    assert words in calls.sdk_error(refused.value).message
    sent = normalize(QUESTION, provider, options=options, model=model).render()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
