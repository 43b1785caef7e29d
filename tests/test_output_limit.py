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


@pytest.mark.parametrize(("provider", "model", "sent", "maximum", "text"), [
    ("openai", "gpt-4o", 20480, 16384,  # tailcallhq/forgecode#1185
     "max_tokens is too large: 20480. This model supports at most 16384 completion tokens, "
     "whereas you provided 20480."),
    ("anthropic", "claude-sonnet-4-5-20250929", 200000, 64000,  # BerriAI/litellm#15715
     "max_tokens: 200000 > 64000, which is the maximum allowed number of output tokens for "
     "claude-sonnet-4-5-20250929"),
    ("anthropic", "claude-3-haiku-20240307", 8192, 4096,  # continuedev/continue#10724
     "max_tokens: 8192 > 4096, which is the maximum allowed number of output tokens for "
     "claude-3-haiku-20240307"),
    ("deepseek", "deepseek-chat", 16384, 8192,  # deepseek-ai/DeepSeek-V3#69
     "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]"),
    ("groq", "qwen/qwen3.6-27b", 32000, 16384,  # Alishahryar1/free-claude-code#1354
     "`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` "
     "is less than the `context_window` for this model"),
])
def test_a_limit_above_the_models_most_is_refused_in_each_vendors_words(
        provider: str, model: str, sent: int, maximum: int, text: str) -> None:
    body = chat(model, max_tokens=sent)
    (found,) = check(body, provider)
    assert (found.rule, found.location, found.message) == ("max-tokens-too-large",
                                                           "max_tokens", text)
    assert check(chat(model, max_tokens=maximum), provider) == ()
    assert check(chat(model, max_tokens=maximum + 1), provider) != ()


def test_the_limit_is_lowered_to_the_models_most_and_a_thinking_budget_below_it() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64000,
            "thinking": {"type": "enabled", "budget_tokens": 32000},
            "messages": [{"role": "user", "content": "Name a colour."}]}
    to_gpt = normalize_request(body, "anthropic", "openai", model="gpt-4o")
    assert to_gpt.body["max_tokens"] == 16384
    fitted = [c for c in to_gpt.changes if c.pass_name == "fit_max_tokens"]
    assert [(c.where, c.lossless) for c in fitted] == [("max_tokens", True)]
    to_opus = normalize_request({**body, "max_tokens": 200000}, "anthropic", "anthropic",
                                model="claude-opus-4-1")
    assert to_opus.body["max_tokens"] == 32000
    assert to_opus.body["thinking"]["budget_tokens"] < 32000
    assert check(to_opus.body, "anthropic") == ()
    # A model no copy names keeps its limit, and so does a request without a model.
    for model in ("gpt-5-chat-latest", None):
        kept = normalize(HISTORY, "openai", model=model, options={"max_tokens": 64000})
        assert kept.render()["max_tokens"] == 64000 and kept.changes == ()
    # max_completion_tokens is read and lowered alike.
    newer = normalize(HISTORY, "openai", model="gpt-4o-mini",
                      options={"max_completion_tokens": 32000})
    assert newer.render()["max_completion_tokens"] == 16384


def test_a_classifiers_limit_below_16_is_raised_for_the_responses_api() -> None:
    # vectorize-io/hindsight#58: "Invalid 'max_output_tokens': integer below minimum value.
    # Expected a value >= 16, but got 10 instead." (Azure's Responses endpoint).
    (found,) = check({"model": "gpt-4.1-mini", "max_output_tokens": 10, "input": "Spam?"},
                     "openai_responses")
    assert (found.rule, found.error["code"]) == ("max-tokens-too-small",
                                                 "integer_below_min_value")
    assert check({"model": "gpt-4.1-mini", "max_output_tokens": 16, "input": "Spam?"},
                 "openai_responses") == ()
    body = {"model": "claude-haiku-4-5", "max_tokens": 1,
            "messages": [{"role": "user", "content": "Spam? yes or no"}]}
    out = normalize_request(body, "anthropic", "openai_responses", model="gpt-4.1-mini")
    assert out.body["max_output_tokens"] == 16
    raised = [c for c in out.changes if c.code == "raise-max-tokens"]
    assert [(c.where, c.lossless) for c in raised] == [("max_output_tokens", False)]
    # Chat Completions takes a limit of 1: nothing is raised there.
    chat_out = normalize_request(body, "anthropic", "openai", model="gpt-4.1-mini")
    assert chat_out.body["max_tokens"] == 1


def test_mistral_takes_the_limit_in_max_tokens_only() -> None:
    # editor-code-assistant/eca#231: 422 extra_forbidden at ["body", "max_completion_tokens"].
    (found,) = check(chat("mistral-small-latest", max_completion_tokens=32000), "mistral")
    assert (found.rule, found.status, found.message) == (
        "max-completion-tokens-unsupported", 422, "Extra inputs are not permitted")
    assert check(chat("mistral-small-latest", max_tokens=32000), "mistral") == ()
    assert check(chat("gpt-4o", max_completion_tokens=1024), "openai") == ()
    body = chat("gpt-4o", max_completion_tokens=1024)
    for model in ("mistral-small-latest", None):  # every Mistral model: no model needed
        out = normalize_request(body, "openai_chat", "mistral", model=model)
        assert out.body["max_tokens"] == 1024 and "max_completion_tokens" not in out.body
        assert [c.code for c in out.changes if c.pass_name == "move_max_tokens"] == [
            "move-max-tokens"]
