"""A `wire` scenario's own options in the harness (conformance/bodies.py): in normalized mode
every provider gets them, as they are for the body's protocol and converted for another as
`normalize_request` converts them; in raw mode a provider of another protocol gets the
history only, as a client that carries the messages alone would send it."""

from __future__ import annotations

from pathlib import Path

from conformance.bodies import build
from conformance.providers import BUILTIN_PROVIDERS
from conformance.scenarios.load import load_scenario

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
