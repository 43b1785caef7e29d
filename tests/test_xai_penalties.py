"""Grok 3 Mini and the Grok 4 models refuse presence_penalty and frequency_penalty, at any
value (rule sampling-parameter-unsupported, xAI's copy; pass drop_unsupported_sampling):
chat apps send both, set to 0, to every OpenAI-compatible vendor
(miaoxworld/NativeTavern#83, yym68686/uni-api#105)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator, serve
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))
PENALTIES = {"presence_penalty": 0, "frequency_penalty": 0}


def body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            **options}


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve() as running:
        yield running


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


def test_grok_4_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("xai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body("grok-4.3", **PENALTIES))
    assert "does not support parameter presencePenalty" in str(refused.value)
    sent = normalize(QUESTION, "xai", options=PENALTIES, model="grok-4.3").render()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
