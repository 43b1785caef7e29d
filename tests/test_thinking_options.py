"""Thinking settings across protocols (normalizer/thinking_options.py, through
`options.convert`): what the source says is carried, what it leaves unsaid stays unsaid,
and every setting not carried as it was is said."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer.options import convert, thinking_enabled
from normalizer.thinking_options import Thinking, read_thinking

GEN = "generationConfig"


def gemini(**config: Any) -> dict[str, Any]:
    return {GEN: {"thinkingConfig": config}}


def codes(changes: Any) -> list[tuple[str, bool]]:
    return [(c.code, c.lossless) for c in changes]


@pytest.mark.parametrize(("options", "protocol", "reading"), [
    ({"reasoning_effort": "none"}, "openai_chat", Thinking(on=False)),
    ({"reasoning_effort": "xhigh"}, "openai_chat", Thinking(on=True, effort="xhigh")),
    ({"reasoning": {"effort": "low", "summary": "auto"}}, "openai_responses",
     Thinking(on=True, effort="low", summaries=True)),
    ({"reasoning": {"summary": "detailed"}}, "openai_responses", Thinking(summaries=True)),
    ({"thinking": {"type": "enabled", "budget_tokens": 2048}}, "anthropic",
     Thinking(on=True, budget=2048)),
    ({"thinking": {"type": "adaptive"}}, "anthropic", Thinking(on=True, budget=-1)),
    ({"thinking": {"type": "adaptive"}, "output_config": {"effort": "low"}}, "anthropic",
     Thinking(on=True, effort="low")),
    ({"thinking": {"type": "disabled"}}, "anthropic", Thinking(on=False)),
    (gemini(thinkingLevel="HIGH"), "gemini", Thinking(on=True, effort="high")),
    (gemini(thinkingBudget=0), "gemini", Thinking(on=False)),
    (gemini(thinkingBudget=-1), "gemini", Thinking(on=True, budget=-1)),
    # The proto spellings, as google-genai sends them (a recorded body, pydantic-ai).
    (gemini(thinking_level="HIGH", include_thoughts=True), "gemini",
     Thinking(on=True, effort="high", summaries=True)),
    (gemini(thinking_budget=0), "gemini", Thinking(on=False)),
    (gemini(thinkingBudget=4096, includeThoughts=True), "gemini",
     Thinking(on=True, budget=4096, summaries=True)),
    # includeThoughts only chooses whether summaries come back: thinking stays the model's.
    (gemini(includeThoughts=False), "gemini", Thinking(summaries=False)),
])
def test_each_protocol_is_read_for_what_it_says(options: dict[str, Any], protocol: str,
                                               reading: Thinking) -> None:
    assert read_thinking(options, protocol) == reading


def test_a_gemini_3_level_is_carried_and_no_longer_read_as_thinking_off() -> None:
    # Before: a thinkingLevel alone read as "off", written as reasoning_effort "none" and
    # thinking disabled, and nothing said.
    options = gemini(thinkingLevel="high")
    assert thinking_enabled(options, "gemini")
    assert convert(options, "gemini", "openai_chat") == ({"reasoning_effort": "high"}, ())
    assert convert(options, "gemini", "openai_responses")[0] == {"reasoning": {"effort": "high"}}
    out, said = convert(options, "gemini", "anthropic")
    assert out == {"thinking": {"type": "enabled", "budget_tokens": 24576}}
    assert codes(said) == [("effort-as-budget", False)]


def test_a_request_only_for_summaries_switches_nothing_off() -> None:
    options = gemini(includeThoughts=False)
    for target in ("openai_chat", "openai_responses", "anthropic"):
        out, said = convert(options, "gemini", target)
        assert out == {}, target
        assert codes(said) == [("drop-option", True)], target


def test_adaptive_thinking_and_its_effort_reach_openai_as_a_level() -> None:
    options = {"thinking": {"type": "adaptive"}, "output_config": {"effort": "medium"}}
    assert convert(options, "anthropic", "openai_chat") == ({"reasoning_effort": "medium"}, ())
    out, said = convert(options, "anthropic", "gemini")
    assert out == gemini(thinkingBudget=8192, includeThoughts=True)
    assert codes(said) == [("effort-as-budget", False)]
    # Without a level the model decides: OpenAI's default effort, Gemini's dynamic budget.
    adaptive = {"thinking": {"type": "adaptive"}}
    out, said = convert(adaptive, "anthropic", "openai_chat")
    assert (out, codes(said)) == ({}, [("default-thinking-effort", True)])
    assert convert(adaptive, "anthropic", "gemini")[0] == gemini(thinkingBudget=-1,
                                                                 includeThoughts=True)


def test_thinking_off_is_written_as_each_target_switches_it_off() -> None:
    options = {"thinking": {"type": "disabled"}}
    assert convert(options, "anthropic", "openai_chat")[0] == {"reasoning_effort": "none"}
    assert convert(options, "anthropic", "openai_responses")[0] == {"reasoning":
                                                                     {"effort": "none"}}
    # includeThoughts false does not stop Gemini thinking; a zero budget does.
    assert convert(options, "anthropic", "gemini")[0] == gemini(thinkingBudget=0)
    assert convert(gemini(thinkingBudget=0), "gemini", "anthropic")[0] == {
        "thinking": {"type": "disabled"}}


def test_budgets_and_levels_cross_through_our_table_and_it_is_said() -> None:
    out, said = convert({"thinking": {"type": "enabled", "budget_tokens": 5000}},
                        "anthropic", "openai_chat")
    assert (out, codes(said)) == ({"reasoning_effort": "medium"}, [("budget-as-effort", False)])
    out, said = convert({"reasoning_effort": "xhigh"}, "openai_chat", "anthropic")
    assert out == {"thinking": {"type": "enabled", "budget_tokens": 32768}}
    # More than every Gemini 2.5 model takes ("The thinking budget (52428) is invalid."):
    out, said = convert({"reasoning_effort": "xhigh"}, "openai_chat", "gemini")
    assert out == gemini(thinkingBudget=24576, includeThoughts=True)
    assert codes(said) == [("clamp-thinking-budget", False)]
    # A budget crosses between Anthropic and Gemini as it is.
    out, said = convert(gemini(thinkingBudget=4096), "gemini", "anthropic")
    assert (out, said) == ({"thinking": {"type": "enabled", "budget_tokens": 4096}}, ())


def test_summaries_cross_between_responses_and_gemini_and_are_said_elsewhere() -> None:
    options = {"reasoning": {"effort": "high", "summary": "auto"}}
    out, said = convert(options, "openai_responses", "gemini")
    assert out == gemini(thinkingBudget=24576, includeThoughts=True)
    back, again = convert(gemini(thinkingLevel="low", includeThoughts=True), "gemini",
                          "openai_responses")
    assert (back, again) == ({"reasoning": {"effort": "low", "summary": "auto"}}, ())
    out, said = convert(options, "openai_responses", "openai_chat")
    assert (out, codes(said)) == ({"reasoning_effort": "high"}, [("drop-option", False)])
    assert all(c.where == "reasoning" for c in said)


def test_anthropics_highest_effort_reaches_openai_as_its_highest() -> None:
    options = {"thinking": {"type": "adaptive"}, "output_config": {"effort": "max"}}
    out, said = convert(options, "anthropic", "openai_chat")
    assert (out, codes(said)) == ({"reasoning_effort": "xhigh"}, [("rename-effort", True)])
    assert convert(options, "anthropic", "gemini")[0] == gemini(thinkingBudget=24576,
                                                                includeThoughts=True)
