"""Thinking budgets a vendor refuses (normalizer/thinking_budget.py): Anthropic's least budget
and its budget below max_tokens (rules thinking-budget-too-small and
thinking-budget-exceeds-max-tokens, pass fit_thinking_budget), Gemini's budget beside a
level, a level sent to Gemini 2.5 and a budget of 0 for a model that always thinks (rules
thinking-budget-and-level, thinking-level-unsupported and thinking-off-unsupported, pass
fix_gemini_thinking_config), a Gemini budget outside the
model's range (thinking-budget-out-of-range, pass fit_gemini_thinking_budget), a budget for
a Claude model that takes adaptive thinking only (thinking-budget-unsupported, pass
adapt_thinking); and the budgets a vendor switch writes, sent through the official SDKs to
the loopback emulators."""

from __future__ import annotations

from typing import Any

import anthropic as anthropic_sdk
import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.emulator import Emulator
from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Is 391 a prime number?"),)),))
ASK = [{"role": "user", "content": "Is 391 a prime number?"}]


def anthropic(max_tokens: int | None, budget: int, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "claude-sonnet-4-6", "messages": ASK,
                            "thinking": {"type": "enabled", "budget_tokens": budget}, **fields}
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    return body


def gemini(**config: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Is 391 a prime number?"}]}],
            "generationConfig": {"thinkingConfig": config}}


def rules(body: dict[str, Any], provider: str, model: str | None = None) -> list[str]:
    return [v.rule for v in check(body, provider, model=model)]


def fixed(options: dict[str, Any], provider: str, model: str | None = None
          ) -> tuple[dict[str, Any], list[tuple[str, bool]]]:
    result = normalize(QUESTION, provider, options=options, model=model)
    return result.render(), [(c.code, c.lossless) for c in result.changes]


def test_anthropic_refuses_a_budget_below_1024_in_its_own_words() -> None:
    # themaximalist/llm.js#30: half of a max_tokens of 1024, sent to claude-sonnet-4-6.
    (found,) = check(anthropic(1024, 512), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "thinking-budget-too-small", "thinking.budget_tokens",
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
    assert rules(anthropic(2048, 1024), "anthropic") == []
    assert rules({**anthropic(2048, 512), "thinking": {"type": "adaptive"}}, "anthropic") == []


def test_anthropic_refuses_a_budget_not_below_max_tokens() -> None:
    # QwenLM/qwen-code#2508: max_tokens 32000 beside budget_tokens 32000.
    (found,) = check(anthropic(32000, 32000), "anthropic")
    assert found.rule == "thinking-budget-exceeds-max-tokens"
    assert found.message.startswith("`max_tokens` must be greater than `thinking.budget_tokens`.")
    assert rules(anthropic(32001, 32000), "anthropic") == []


def test_a_small_budget_is_raised_and_a_large_one_gives_way_to_the_callers_max_tokens() -> None:
    body, said = fixed({"max_tokens": 4000, "thinking": {"type": "enabled",
                                                         "budget_tokens": 512}}, "anthropic")
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert said == [("raise-thinking-budget", True)]
    body, said = fixed({"max_tokens": 4000, "thinking": {"type": "enabled",
                                                         "budget_tokens": 24576}}, "anthropic")
    assert (body["max_tokens"], body["thinking"]["budget_tokens"]) == (4000, 2000)
    assert said == [("lower-thinking-budget", False)]
    assert check(body, "anthropic") == ()


def test_no_room_for_the_least_budget_switches_thinking_off_and_keeps_a_forced_choice() -> None:
    options = {"max_tokens": 1000, "thinking": {"type": "enabled", "budget_tokens": 2048},
               "tool_choice": {"type": "any"}}
    result = normalize(QUESTION, "anthropic", options=options)
    body = result.render()
    assert body["thinking"] == {"type": "disabled"} and body["tool_choice"] == {"type": "any"}
    assert [(c.code, c.lossless) for c in result.changes] == [("disable-thinking", False)]


def test_without_max_tokens_the_renderers_default_is_raised_not_the_budget() -> None:
    body, said = fixed({"thinking": {"type": "enabled", "budget_tokens": 8192}}, "anthropic")
    assert (body["max_tokens"], body["thinking"]["budget_tokens"]) == (8192 + 256, 8192)
    assert said == [("raise-max-tokens", True)]
    assert check(body, "anthropic") == ()


def test_gemini_refuses_a_budget_beside_a_level_and_keeps_the_budget() -> None:
    both = gemini(thinkingBudget=1024, thinkingLevel="low")
    (found,) = check(both, "gemini", model="gemini-3-flash-preview")
    assert found.message == "You can only set only one of thinking budget and thinking level."
    # google-genai sends the proto spellings; Gemini reads them as the same fields.
    assert rules(gemini(thinking_budget=1024, thinking_level="LOW"), "gemini",
                 model="gemini-3-flash-preview") == ["thinking-budget-and-level"]
    body, said = fixed({"generationConfig": {"thinkingConfig": {"thinkingBudget": 1024,
                                                                 "thinkingLevel": "low"}}},
                       "gemini")
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 1024}
    assert said == [("drop-thinking-level", False)]


def test_gemini_2_5_refuses_a_thinking_level_in_its_own_words() -> None:
    # Kilo-Org/kilocode#4490 (gemini-2.5-flash), microsoft/vscode#334581 (Gemini 2.5 Pro).
    (found,) = check(gemini(thinkingLevel="low"), "gemini", model="gemini-2.5-flash")
    assert found.message == "Thinking level is not supported for this model."
    assert found.location == "generationConfig.thinkingConfig.thinkingLevel"
    for model in ("gemini-2.5-pro", "gemini-2.5-flash-lite", "models/gemini-2.5-flash"):
        assert rules(gemini(thinking_level="HIGH"), "gemini", model=model) == [
            "thinking-level-unsupported"], model
    for model in ("gemini-3-flash-preview", "gemini-3-pro-preview"):
        assert rules(gemini(thinkingLevel="high"), "gemini", model=model) == [], model
    assert rules(gemini(thinkingBudget=1024), "gemini", model="gemini-2.5-flash") == []


def test_a_level_reaches_gemini_2_5_as_our_tables_budget() -> None:
    for level, budget in (("low", 1024), ("MEDIUM", 8192), ("high", 24576), ("minimal", 1024)):
        options = {"generationConfig": {"thinkingConfig": {"thinkingLevel": level,
                                                           "includeThoughts": True}}}
        body, said = fixed(options, "gemini", model="gemini-2.5-flash")
        assert body["generationConfig"]["thinkingConfig"] == {"includeThoughts": True,
                                                              "thinkingBudget": budget}
        assert said == [("thinking-level-as-budget", False)]
        assert check(body, "gemini", model="gemini-2.5-flash") == ()
    # google-genai's proto spelling stays the proto spelling.
    options = {"generationConfig": {"thinkingConfig": {"thinking_level": "LOW"}}}
    body, _ = fixed(options, "gemini", model="gemini-2.5-pro")
    assert body["generationConfig"]["thinkingConfig"] == {"thinking_budget": 1024}
    # Beside a budget the level is left out, once (not again as a budget beside a level).
    options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 2048,
                                                       "thinkingLevel": "high"}}}
    body, said = fixed(options, "gemini", model="gemini-2.5-flash")
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 2048}
    assert said == [("drop-thinking-level", False)]
    # Gemini 3 takes its level; with no model nothing is repaired on a guess.
    level = {"generationConfig": {"thinkingConfig": {"thinkingLevel": "high"}}}
    assert fixed(level, "gemini", model="gemini-3-flash-preview")[1] == []
    assert fixed(level, "gemini")[1] == []


def test_a_level_is_refused_by_the_emulator_and_its_budget_taken(emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(genai_errors.ClientError) as refused:
        calls.send("gemini", sdk, gemini(thinkingLevel="low"), model="gemini-2.5-flash")
    said = calls.sdk_error(refused.value)
    assert (said.status, said.message) == (400, "Thinking level is not supported for this model.")
    options = {"generationConfig": {"thinkingConfig": {"thinkingLevel": "low"}}}
    body, _ = fixed(options, "gemini", model="gemini-2.5-flash")
    reply = calls.send("gemini", sdk, body, model="gemini-2.5-flash")
    assert calls.text_of("gemini", reply) == "ok"


def test_gemini_2_5_pro_cannot_stop_thinking_and_gets_its_least_budget() -> None:
    off = gemini(thinkingBudget=0)
    (found,) = check(off, "gemini", model="gemini-2.5-pro")
    assert found.message == "Budget 0 is invalid. This model only works in thinking mode."
    assert rules(off, "gemini", model="gemini-2.5-flash") == []
    options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}}
    body, said = fixed(options, "gemini", model="gemini-2.5-pro")
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 128}
    assert said == [("keep-thinking-on", False)]
    assert fixed(options, "gemini", model="gemini-2.5-flash")[1] == []


def test_each_gemini_2_5_model_refuses_a_budget_outside_its_range() -> None:
    (found,) = check(gemini(thinkingBudget=52428), "gemini", model="gemini-2.5-pro")
    assert found.message == "The thinking budget (52428) is invalid."  # Roo-Code#4399
    assert found.location == "generationConfig.thinkingConfig.thinkingBudget"
    refused = {("gemini-2.5-pro", 100), ("gemini-2.5-flash", 32768),
               ("gemini-2.5-flash-lite", 256), ("gemini-2.5-flash-lite-preview-09-2025", 30000)}
    taken = {("gemini-2.5-pro", 32768), ("gemini-2.5-pro", 128), ("gemini-2.5-pro", -1),
             ("gemini-2.5-flash", 24576), ("gemini-2.5-flash", 0), ("gemini-2.5-flash", 1),
             ("gemini-2.5-flash-lite", 512), ("gemini-2.5-flash-lite", 0),
             ("gemini-3-pro-preview", 52428)}  # no range is known for Gemini 3
    for model, budget in refused | taken:
        said = rules(gemini(thinkingBudget=budget), "gemini", model=model)
        assert ("thinking-budget-out-of-range" in said) == ((model, budget) in refused), \
            (model, budget)
    # google-genai's proto spelling is read too.
    assert rules(gemini(thinking_budget=52428), "gemini", model="gemini-2.5-pro") == [
        "thinking-budget-out-of-range"]


def test_a_budget_out_of_range_becomes_the_nearest_end_for_a_named_model() -> None:
    for model, budget, fitted in (("gemini-2.5-pro", 52428, 32768),
                                  ("gemini-2.5-flash", 32768, 24576),
                                  ("gemini-2.5-flash-lite", 256, 512)):
        options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": budget,
                                                           "includeThoughts": True}}}
        body, said = fixed(options, "gemini", model=model)
        assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": fitted,
                                                              "includeThoughts": True}
        assert said == [("fit-thinking-budget-range", False)]
        assert check(body, "gemini", model=model) == ()
    options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 52428}}}
    assert fixed(options, "gemini")[1] == []  # no model: nothing to fit to


def test_a_budget_out_of_range_is_refused_by_the_emulator_and_fitted_one_taken(
        emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(genai_errors.ClientError) as refused:
        calls.send("gemini", sdk, gemini(thinkingBudget=52428), model="gemini-2.5-pro")
    said = calls.sdk_error(refused.value)
    assert (said.status, said.message) == (400, "The thinking budget (52428) is invalid.")
    options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 52428}}}
    body, _ = fixed(options, "gemini", model="gemini-2.5-pro")
    reply = calls.send("gemini", sdk, body, model="gemini-2.5-pro")
    assert calls.text_of("gemini", reply) == "ok"


def test_an_openai_effort_beside_a_small_cap_reaches_claude_accepted(emu: Emulator) -> None:
    # Before: reasoning_effort "high" became a budget of 24,576 beside max_tokens 4,000,
    # which Anthropic refuses; now the budget gives way to the caller's bound, said.
    chat = {"model": "gpt-5", "messages": ASK, "reasoning_effort": "high",
            "max_completion_tokens": 4000}
    fixed_body = normalize_request(chat, "openai_chat", "anthropic",
                                   model="claude-sonnet-4-6")
    assert fixed_body.body["thinking"] == {"type": "enabled", "budget_tokens": 2000}
    assert [c.code for c in fixed_body.changes if c.code != "replace-model"] == [
        "effort-as-budget", "lower-thinking-budget"]
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    reply = calls.send("anthropic", sdk, fixed_body.body)
    assert calls.text_of("anthropic", reply) == "ok"


def test_a_gemini_3_level_reaches_claude_as_a_budget_it_takes(emu: Emulator) -> None:
    body = {**gemini(thinkingLevel="high")}
    fixed_body = normalize_request(body, "gemini", "anthropic", model="claude-sonnet-4-6")
    assert fixed_body.body["thinking"] == {"type": "enabled", "budget_tokens": 24576}
    assert fixed_body.body["max_tokens"] == 24576 + 256
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed_body.body)) == "ok"


def test_opus_4_7_refuses_a_thinking_budget_in_its_own_words() -> None:
    (found,) = check(anthropic(2048, 1024, model="claude-opus-4-7"), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "thinking-budget-unsupported", "thinking.type",
        '"thinking.type.enabled" is not supported for this model. Use '
        '"thinking.type.adaptive" and "output_config.effort" to control thinking behavior.')
    adaptive = {**anthropic(2048, 1024, model="claude-opus-4-7"),
                "thinking": {"type": "adaptive"}}
    assert check(adaptive, "anthropic") == ()
    assert rules(anthropic(2048, 1024, model="claude-opus-4-6"), "anthropic") == []


def test_a_budget_reaches_opus_4_7_as_adaptive_thinking_at_the_tables_level() -> None:
    for budget, level in ((1024, "low"), (8192, "medium"), (24576, "high"), (60000, "high")):
        body, said = fixed({"max_tokens": 64000, "thinking": {"type": "enabled",
                                                              "budget_tokens": budget}},
                           "anthropic", model="claude-opus-4-7")
        assert (body["thinking"], body["output_config"]) == ({"type": "adaptive"},
                                                             {"effort": level}), budget
        assert said == [("adaptive-thinking", False)]
        # As sent to Opus 4.7 (the body names the renderer's default model).
        assert check({**body, "model": "claude-opus-4-7"}, "anthropic") == ()
    # An effort the request sets is kept; a budget below max_tokens is no longer fitted.
    body, said = fixed({"max_tokens": 1000, "output_config": {"effort": "max"},
                        "thinking": {"type": "enabled", "budget_tokens": 24576}},
                       "anthropic", model="claude-opus-4-7")
    assert (body["thinking"], body["output_config"], body["max_tokens"]) == (
        {"type": "adaptive"}, {"effort": "max"}, 1000)
    assert said == [("adaptive-thinking", False)]
    # Without a model, or for Opus 4.6, the budget stays.
    options = {"max_tokens": 4096, "thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert fixed(options, "anthropic")[1] == []
    assert fixed(options, "anthropic", model="claude-opus-4-6")[1] == []


def test_an_openai_effort_reaches_opus_4_7_accepted_through_the_sdk(emu: Emulator) -> None:
    chat = {"model": "gpt-5", "messages": ASK, "reasoning_effort": "high",
            "max_completion_tokens": 32000}
    fixed_body = normalize_request(chat, "openai_chat", "anthropic", model="claude-opus-4-7")
    assert fixed_body.body["thinking"] == {"type": "adaptive"}
    assert fixed_body.body["output_config"] == {"effort": "high"}
    assert [c.code for c in fixed_body.changes if c.code != "replace-model"] == [
        "effort-as-budget", "adaptive-thinking"]
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = {**fixed_body.body, "thinking": {"type": "enabled", "budget_tokens": 24576}}
    with pytest.raises(anthropic_sdk.BadRequestError):
        calls.send("anthropic", sdk, raw)
    reply = calls.send("anthropic", sdk, fixed_body.body)
    assert calls.text_of("anthropic", reply) == "ok"
