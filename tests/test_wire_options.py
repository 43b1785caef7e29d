"""A `wire` scenario's own options in the harness (conformance/bodies.py): in normalized mode
every provider gets them, as they are for the body's protocol and converted for another as
`normalize_request` converts them; in raw mode a provider of another protocol gets the
history only, as a client that carries the messages alone would send it."""

from __future__ import annotations

from pathlib import Path

from conformance.bodies import build, small_output
from conformance.providers import BUILTIN_PROVIDERS
from conformance.scenarios.load import load_scenario
from normalizer import check

ROOT = Path(__file__).resolve().parent.parent
# A real Anthropic body: thinking {enabled, budget_tokens 3000}, max_tokens 4096,
# tool_choice auto (pydantic-ai's recording).
SIGNED = load_scenario(ROOT / "scenarios" / "real" / "anthropic-signed-thinking-to-others.yaml")


def test_the_bodys_own_protocol_keeps_its_options_over_the_small_output_defaults() -> None:
    body = build(SIGNED, BUILTIN_PROVIDERS["anthropic"], "normalized").body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 3000}
    assert body["max_tokens"] == 4096


def test_another_protocol_gets_them_converted_and_said() -> None:
    gemini = build(SIGNED, BUILTIN_PROVIDERS["gemini"], "normalized")
    config = gemini.body["generationConfig"]
    # The body's budget beside the defaults the body does not set (temperature 0).
    assert config["thinkingConfig"] == {"thinkingBudget": 3000, "includeThoughts": True}
    assert (config["maxOutputTokens"], config["temperature"]) == (4096, 0)
    assert gemini.body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    deepseek = build(SIGNED, BUILTIN_PROVIDERS["deepseek"], "normalized")
    assert deepseek.body["reasoning_effort"] == "medium"
    assert "budget-as-effort" in [c.code for c in deepseek.changes]
    # gpt-4.1-mini, the openai provider's model, does not reason: the effort is left out.
    openai = build(SIGNED, BUILTIN_PROVIDERS["openai"], "normalized")
    assert "reasoning_effort" not in openai.body
    assert {"budget-as-effort", "drop-reasoning-effort"} <= {c.code for c in openai.changes}


def test_raw_mode_carries_the_history_only_to_another_protocol() -> None:
    raw = build(SIGNED, BUILTIN_PROVIDERS["gemini"], "raw").body
    assert "thinkingConfig" not in raw["generationConfig"]
    assert build(SIGNED, BUILTIN_PROVIDERS["anthropic"], "raw").body["thinking"] == {
        "type": "enabled", "budget_tokens": 3000}


def test_the_small_output_defaults_are_never_what_the_target_refuses_for_the_model() -> None:
    # A real Responses body for gpt-5, answered 200 without a temperature: the harness's
    # temperature 0 would draw "Unsupported parameter: 'temperature' ..." (#992), so gpt-5
    # gets none, where a model that takes one keeps the default.
    real = load_scenario(ROOT / "scenarios" / "real" / "responses-reasoning-summary-to-others.yaml")
    responses = BUILTIN_PROVIDERS["openai_responses"]
    raw = build(real, responses, "raw").body
    assert (raw["model"], "temperature" in raw, raw["max_output_tokens"]) == ("gpt-5", False, 16)
    assert check(raw, "openai_responses") == ()
    assert small_output(responses, "gpt-4.1-mini") == {"max_output_tokens": 16, "temperature": 0}
    # Chat's GPT-5 takes its limit in max_completion_tokens and no temperature but 1.
    assert small_output(BUILTIN_PROVIDERS["openai"], "gpt-5-mini") == {
        "max_completion_tokens": 16}


def test_a_scenarios_own_limit_replaces_the_default_in_either_field() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "content" / "app-max-tokens-to-gpt-5.yaml")
    openai = BUILTIN_PROVIDERS["openai"]
    raw = build(scenario, openai, "raw").body
    # The scenario's max_tokens 1024 is what GPT-5 refuses, not a default beside it.
    assert (raw["max_tokens"], "max_completion_tokens" in raw, "temperature" in raw) == (
        1024, False, False)
    assert [v.rule for v in check(raw, "openai")] == ["max-tokens-field-unsupported"]
    fixed = build(scenario, openai, "normalized")
    assert (fixed.body["max_completion_tokens"], [c.code for c in fixed.changes]) == (
        1024, ["move-max-tokens"])
