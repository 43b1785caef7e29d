"""Claude models older than 4.6 refuse what the newer ones take: adaptive thinking (rule
thinking-adaptive-unsupported, pass budget_thinking) and an effort (rule effort-unsupported,
pass drop_effort). Apps that ask Opus 4.6 for adaptive thinking at some effort and hand a
subagent or a summary to Haiku 4.5 send both there (oratis/LISA#218, pensarai/apex#890)."""

from __future__ import annotations

from typing import Any

import anthropic as anthropic_sdk
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Is 391 a prime number?"),)),))
ASK = [{"role": "user", "content": "Is 391 a prime number?"}]
ADAPTIVE_LOW = {"max_tokens": 2048, "thinking": {"type": "adaptive"},
                "output_config": {"effort": "low"}}


def body(model: str, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": ASK, **options}


def fixed(options: dict[str, Any], model: str | None
          ) -> tuple[dict[str, Any], list[tuple[str, bool]]]:
    """The body normalize writes for `model` (as sent to it), and its changes."""
    result = normalize(QUESTION, "anthropic", options=options, model=model)
    sent = result.render()
    return ({**sent, "model": model} if model else sent), [(c.code, c.lossless)
                                                           for c in result.changes]


def test_haiku_4_5_refuses_adaptive_thinking_and_an_effort_in_anthropics_words() -> None:
    found = {v.rule: (v.location, v.message)
             for v in check(body("claude-haiku-4-5", **ADAPTIVE_LOW), "anthropic")}
    assert found == {
        "thinking-adaptive-unsupported": ("thinking.type",
                                          "adaptive thinking is not supported on this model"),
        "effort-unsupported": ("output_config.effort",
                               "This model does not support the effort parameter."),
    }
    # The models that take both: nothing to say.
    for model in ("claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7"):
        assert check(body(model, **ADAPTIVE_LOW), "anthropic") == (), model
    # Opus 4.5 takes an effort but not adaptive thinking; Sonnet 4.5 neither.
    assert [v.rule for v in check(body("claude-opus-4-5", **ADAPTIVE_LOW), "anthropic")] == [
        "thinking-adaptive-unsupported"]
    effort_only = body("claude-sonnet-4-5-20250929", max_tokens=1024,
                       output_config={"effort": "high"})
    assert [v.rule for v in check(effort_only, "anthropic")] == ["effort-unsupported"]
    # Thinking with a budget is what Haiku 4.5 takes.
    budget = body("claude-haiku-4-5", max_tokens=2048,
                  thinking={"type": "enabled", "budget_tokens": 1024})
    assert check(budget, "anthropic") == ()


def test_adaptive_thinking_at_an_effort_reaches_haiku_as_the_tables_budget() -> None:
    sent, said = fixed(ADAPTIVE_LOW, "claude-haiku-4-5")
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert "output_config" not in sent and sent["max_tokens"] == 2048
    assert said == [("budget-thinking", False), ("drop-effort", False)]
    assert check(sent, "anthropic") == ()
    # No effort: medium's budget; a display setting stays; a budget the limit cannot hold
    # is fitted after (half of max_tokens).
    sent, said = fixed({"max_tokens": 4096, "thinking": {"type": "adaptive",
                                                         "display": "summarized"}},
                       "claude-haiku-4-5")
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": 2048,
                                "display": "summarized"}
    assert said == [("budget-thinking", False), ("lower-thinking-budget", False)]
    assert check(sent, "anthropic") == ()


def test_the_effort_goes_and_the_rest_of_output_config_stays() -> None:
    schema = {"type": "json_schema", "schema": {
        "type": "object", "properties": {"prime": {"type": "boolean"}},
        "required": ["prime"], "additionalProperties": False}}
    sent, said = fixed({"max_tokens": 1024, "output_config": {"effort": "max",
                                                              "format": schema}},
                       "claude-sonnet-4-5")
    assert sent["output_config"] == {"format": schema}
    assert said == [("drop-effort", False)]
    assert check(sent, "anthropic") == ()


def test_opus_4_5_keeps_its_effort_and_gets_a_budget() -> None:
    sent, said = fixed({**ADAPTIVE_LOW, "max_tokens": 16000, "output_config": {"effort": "high"}},
                       "claude-opus-4-5")
    assert sent["thinking"] == {"type": "enabled", "budget_tokens": 8000}
    assert sent["output_config"] == {"effort": "high"}
    assert said == [("budget-thinking", False), ("lower-thinking-budget", False)]
    assert check(sent, "anthropic") == ()


def test_without_a_named_model_nothing_is_repaired_on_a_guess() -> None:
    sent, said = fixed(ADAPTIVE_LOW, None)
    assert said == []
    assert (sent["thinking"], sent["output_config"]) == ({"type": "adaptive"}, {"effort": "low"})
    assert fixed(ADAPTIVE_LOW, "claude-opus-4-6")[1] == []


def test_haiku_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    raw = body("claude-haiku-4-5", **ADAPTIVE_LOW)
    with pytest.raises(anthropic_sdk.BadRequestError) as refused:
        calls.send("anthropic", sdk, raw)
    assert refused.value.status_code == 400
    sent, _ = fixed(ADAPTIVE_LOW, "claude-haiku-4-5")
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, sent)) == "ok"
