"""Claude Opus 4.1 to Sonnet 4.6 take temperature or top_p, not both (rule
sampling-parameters-exclusive, pass keep_one_sampling_parameter): apps send both to every
model, often top_p at 1 (charmbracelet/mods#618, Vali-98/ChatterUI#564; Anthropic's migration
guide for Claude 4.5)."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))
WORDS = "`temperature` and `top_p` cannot both be specified for this model. Please use only one."


def body(model: str = "claude-sonnet-4-5", **options: Any) -> dict[str, Any]:
    return {"model": model, "max_tokens": 64,
            "messages": [{"role": "user", "content": "Name a colour."}], **options}


def fixed(model: str | None, **options: Any) -> tuple[dict[str, Any], list[tuple[str, str, bool]]]:
    result = normalize(QUESTION, "anthropic", options=options, model=model)
    return result.render(), [(c.code, c.where, c.lossless) for c in result.changes]


def test_both_are_refused_for_the_models_the_rule_names_in_anthropics_words() -> None:
    for model in ("claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5",
                  "claude-opus-4-1-20250805", "claude-opus-4-5-20251101", "claude-sonnet-4-6"):
        (found,) = check(body(model, temperature=0.7, top_p=0.9), "anthropic")
        assert (found.rule, found.location, found.message) == (
            "sampling-parameters-exclusive", "top_p", WORDS), model
    # One of them is taken; an older model takes both; null is not sent.
    assert check(body(temperature=0.7), "anthropic") == ()
    assert check(body(top_p=0.9), "anthropic") == ()
    assert check(body(temperature=0.7, top_p=None), "anthropic") == ()
    assert check(body("claude-sonnet-4-20250514", temperature=0.7, top_p=0.9), "anthropic") == ()
    # Opus 4.7 takes neither: its own rule names each, this one stays silent.
    assert [v.rule for v in check(body("claude-opus-4-7", temperature=0.7, top_p=0.9),
                                  "anthropic")] == ["sampling-parameter-unsupported"] * 2


def test_the_one_at_its_default_goes_first_and_losslessly() -> None:
    sent, said = fixed("claude-sonnet-4-5", temperature=0.7, top_p=1)
    assert (sent["temperature"], "top_p" in sent) == (0.7, False)
    assert said == [("drop-exclusive-sampling", "top_p", True)]
    sent, said = fixed("claude-sonnet-4-5", temperature=1.0, top_p=0.9)
    assert ("temperature" in sent, sent["top_p"]) == (False, 0.9)
    assert said == [("drop-exclusive-sampling", "temperature", True)]
    # Neither at its default: temperature stays, as in Anthropic's migration guide; lossy.
    sent, said = fixed("claude-haiku-4-5", temperature=0.2, top_p=0.9)
    assert (sent["temperature"], "top_p" in sent) == (0.2, False)
    assert said == [("drop-exclusive-sampling", "top_p", False)]
    assert check(sent, "anthropic") == ()
    # No model, or one that takes both: nothing is repaired.
    assert fixed(None, temperature=0.2, top_p=0.9)[1] == []
    assert fixed("claude-sonnet-4-20250514", temperature=0.2, top_p=0.9)[1] == []


def test_a_chat_apps_pair_reaches_claude_with_one_and_is_taken_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError) as refused:
        calls.send("anthropic", sdk, body("claude-sonnet-4-6", temperature=0.3, top_p=0.95))
    assert WORDS in str(refused.value)
    chat = {"model": "gpt-4.1", "temperature": 0.3, "top_p": 0.95,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    sent = normalize_request(chat, "openai_chat", "anthropic", model="claude-sonnet-4-6")
    assert (sent.body["temperature"], "top_p" in sent.body) == (0.3, False)
    assert [c.code for c in sent.changes if c.code != "replace-model"] == [
        "drop-exclusive-sampling"]
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, sent.body)) == "ok"
