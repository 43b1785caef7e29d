"""move_max_tokens (rule max-tokens-field-unsupported): OpenAI's reasoning models take the
output limit in max_completion_tokens only ("Unsupported parameter: 'max_tokens' is not
supported with this model. Use 'max_completion_tokens' instead.",
griptape-ai/ComfyUI-Griptape#312, gpt-5; teilomillet/gollm#33, o1 and o3-mini), while
conversions write max_tokens, the field every OpenAI-compatible vendor reads."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text

HISTORY = History((Message("user", (Text("Name a colour."),)),))


def chat(model: str, **fields: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Name a colour."}],
            **fields}


@pytest.mark.parametrize("model", ["gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-5.2-2025-12-11",
                                   "gpt-5.4-mini", "o1", "o3-mini", "o4-mini-2025-04-16"])
def test_the_reasoning_models_refuse_max_tokens_in_openais_words(model: str) -> None:
    (found,) = check(chat(model, max_tokens=16), "openai")
    assert (found.rule, found.location, found.message) == (
        "max-tokens-field-unsupported", "max_tokens",
        "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.")
    assert found.error["param"] == "max_tokens"
    assert check(chat(model, max_completion_tokens=16), "openai") == ()


def test_other_models_and_other_vendors_take_max_tokens() -> None:
    for model in ("gpt-4o", "gpt-4.1-mini", "gpt-5-chat-latest", "gpt-3.5-turbo"):
        assert check(chat(model, max_tokens=16), "openai") == (), model
    assert check(chat("gpt-5", max_tokens=16), "groq") == ()
    assert check(chat("o3-mini", max_tokens=None), "openai") == ()


def test_a_limit_from_anthropic_reaches_gpt_5_in_the_field_it_takes() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    out = normalize_request(body, "anthropic", "openai", model="gpt-5")
    assert out.body["max_completion_tokens"] == 1024 and "max_tokens" not in out.body
    moved = [c for c in out.changes if c.pass_name == "move_max_tokens"]
    assert [(c.code, c.where, c.lossless) for c in moved] == [
        ("move-max-tokens", "max_tokens", True)]
    assert check(out.body, "openai") == ()
    kept = normalize_request(body, "anthropic", "openai", model="gpt-4o")
    assert kept.body["max_tokens"] == 1024
    assert not any(c.pass_name == "move_max_tokens" for c in kept.changes)


def test_where_both_fields_are_sent_the_newer_one_is_kept_and_a_difference_said() -> None:
    out = normalize(HISTORY, "openai", model="o3-mini",
                    options={"max_tokens": 100, "max_completion_tokens": 200})
    assert out.render()["max_completion_tokens"] == 200
    assert "max_tokens" not in out.render()
    (change,) = out.changes
    assert change.lossless is False and "200" in change.what
    same = normalize(HISTORY, "openai", model="o3-mini",
                     options={"max_tokens": 200, "max_completion_tokens": 200})
    assert [c.lossless for c in same.changes] == [True]


def test_an_unknown_model_keeps_what_was_sent() -> None:
    out = normalize(HISTORY, "openai", options={"max_tokens": 100})
    assert out.changes == () and out.render()["max_tokens"] == 100
