"""OpenAI's o1, o3 and o4-mini reasoning models and GPT-5, its mini and nano refuse stop
sequences (rule sampling-parameter-unsupported, OpenAI's copy; pass
drop_unsupported_sampling): agent frameworks send their stop sequence to every model
(huggingface/smolagents#1671, langchain-ai/langchain#26433)."""

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
STOP = {"stop": ["<end_code>"]}


def body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            **options}


@pytest.fixture(scope="module")
def emu() -> Iterator[Emulator]:
    with serve() as running:
        yield running


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


def test_gpt_5_mini_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body("gpt-5-mini", **STOP))
    assert "'stop' is not supported with this model" in str(refused.value)
    sent = normalize(QUESTION, "openai", options=STOP, model="gpt-5-mini").render()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
