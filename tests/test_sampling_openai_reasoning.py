"""OpenAI's reasoning models and the sampling parameters apps send to every model: top_p is
refused on both OpenAI wires (braintrustdata/lingua's recorded gpt-5-nano snapshots), and the
Responses API refuses a temperature other than 1 in other words than Chat Completions
("Unsupported parameter", OpenHands/software-agent-sdk#992 and #1837)."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

TOP_P = "Unsupported parameter: 'top_p' is not supported with this model."
TEMPERATURE = "Unsupported parameter: 'temperature' is not supported with this model."


def responses(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "input": "Name a colour.", **options}


def chat(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            **options}


def test_top_p_is_refused_for_gpt_5_models_on_both_wires() -> None:
    for model in ("gpt-5", "gpt-5-2025-08-07", "gpt-5-mini", "gpt-5-nano"):
        (found,) = check(responses(model, top_p=0.9), "openai_responses")
        assert (found.rule, found.location, found.message) == (
            "sampling-parameter-unsupported", "top_p", TOP_P), model
        (found,) = check(chat(model, top_p=0.9), "openai")
        assert (found.rule, found.location, found.message, found.error["code"]) == (
            "sampling-parameter-unsupported", "top_p", TOP_P, "unsupported_parameter"), model
    # The o-series takes none either on Chat Completions; a non-reasoning model takes it.
    assert [v.rule for v in check(chat("o1-preview", top_p=0.9), "openai")] == [
        "sampling-parameter-unsupported"]
    assert check(chat("gpt-4o-mini", top_p=0.9), "openai") == ()
    assert check(responses("gpt-4o-mini", top_p=0.9), "openai_responses") == ()


def test_responses_pins_temperature_in_its_own_words() -> None:
    (found,) = check(responses("gpt-5-2025-08-07", temperature=0.1), "openai_responses")
    assert (found.rule, found.location, found.message) == (
        "sampling-parameter-fixed", "temperature", TEMPERATURE)
    assert found.error == {"type": "invalid_request_error", "param": "temperature",
                           "code": None}
    for model in ("gpt-5.2-codex", "codex-mini-latest", "gpt-5-mini"):
        assert [v.rule for v in check(responses(model, temperature=0), "openai_responses")] == [
            "sampling-parameter-fixed"], model
    # 1 is taken (#992); models the rule does not name keep theirs.
    assert check(responses("gpt-5", temperature=1), "openai_responses") == ()
    assert check(responses("gpt-4.1", temperature=0.2, top_p=0.5), "openai_responses") == ()
    # Chat Completions says the same of gpt-5 as an unsupported value.
    (found,) = check(chat("gpt-5", temperature=0.1), "openai")
    assert found.message.startswith("Unsupported value: 'temperature' does not support 0.1")


def test_a_chat_apps_sampling_reaches_gpt_5_on_responses_without_both(emu: Emulator) -> None:
    sdk = calls.client("openai_responses", emu.sdk_base_url("openai_responses"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_responses", sdk, responses("gpt-5", temperature=0.2))
    assert TEMPERATURE in str(refused.value)
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_responses", sdk, responses("gpt-5", top_p=0.9))
    assert TOP_P in str(refused.value)
    sent = normalize_request(chat("gpt-4.1", temperature=0.2, top_p=0.9), "openai_chat",
                             "openai_responses", model="gpt-5")
    assert "temperature" not in sent.body and "top_p" not in sent.body
    said = {c.code: c.lossless for c in sent.changes if c.code != "replace-model"}
    assert said == {"drop-unfixed-sampling": False, "drop-unsupported-sampling": False}
    assert check(sent.body, "openai_responses") == ()
    assert calls.text_of("openai_responses",
                         calls.send("openai_responses", sdk, sent.body)) == "ok"


def test_gpt_5_nano_on_chat_completions_gets_its_top_p_left_out(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, chat("gpt-5-nano", top_p=0.9))
    assert TOP_P in str(refused.value)
    sent = normalize_request(chat("gpt-5-nano", top_p=0.9), "openai_chat", "openai",
                             model="gpt-5-nano")
    assert "top_p" not in sent.body
    assert [c.code for c in sent.changes] == ["drop-unsupported-sampling"]
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent.body)) == "ok"
