"""Thinking budgets a vendor refuses (normalizer/thinking_budget.py).

`thinking-budget-too-small` and `thinking-budget-exceeds-max-tokens` (Anthropic: enabled
thinking's `budget_tokens` at least params.minimum and below `max_tokens`);
`thinking-budget-and-level` (Gemini: a thinkingBudget beside a thinkingLevel);
`thinking-level-unsupported` (Gemini: a thinkingLevel, at any level, for the models the rule
names, which take a budget only);
`thinking-off-unsupported` (Gemini: a thinkingBudget of 0 for a model that always thinks,
the models the rule names; Anthropic: thinking disabled at an effort level of params.levels,
at which Claude Opus 5 cannot stop thinking); `thinking-budget-out-of-range` (Gemini: a
thinkingBudget outside params.minimum to params.maximum, for the models each copy names);
`thinking-budget-unsupported` (Anthropic: thinking of type enabled, with its budget, for the
models that take adaptive thinking only).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.effort_levels import off_at_level
from normalizer.profiles import Rule
from normalizer.thinking_budget import (
    ANTHROPIC_MIN_BUDGET,
    LEVEL,
    budget_and_level,
    budget_below_minimum,
    budget_not_below_cap,
    budget_off,
    budget_out_of_range,
    config_field,
    gemini_config,
)


def budget_too_small(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """Enabled thinking whose budget is below params.minimum."""
    minimum = int(rule.params.get("minimum", ANTHROPIC_MIN_BUDGET))
    budget = budget_below_minimum(body, minimum) if isinstance(body, Mapping) else None
    if budget is not None:
        yield Finding("thinking.budget_tokens", {"budget": budget, "minimum": minimum})


def budget_exceeds_max_tokens(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """Enabled thinking whose budget is not below the body's `max_tokens`."""
    found = budget_not_below_cap(body) if isinstance(body, Mapping) else None
    if found is not None:
        yield Finding("thinking.budget_tokens", {"budget": found[0], "max_tokens": found[1]})


def gemini_budget_and_level(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """A thinkingConfig with both a thinkingBudget and a thinkingLevel."""
    if isinstance(body, Mapping) and budget_and_level(body):
        yield Finding("generationConfig.thinkingConfig")


def gemini_level_unsupported(body: Mapping[str, Any], rule: Rule,
                             model: str | None) -> Iterator[Finding]:
    """A thinkingLevel, whatever its value (the rule's models take a budget only)."""
    found = config_field(gemini_config(body), LEVEL) if isinstance(body, Mapping) else None
    if found is not None:
        yield Finding(f"generationConfig.thinkingConfig.{found[0]}",
                      {"level": found[1], "model": model or body.get("model")})


def gemini_thinking_off(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """A thinkingBudget of 0 (the rule's models refuse it)."""
    if isinstance(body, Mapping) and budget_off(body):
        yield Finding("generationConfig.thinkingConfig.thinkingBudget", {"budget": 0})


def anthropic_thinking_off(body: Mapping[str, Any], rule: Rule,
                           model: str | None) -> Iterator[Finding]:
    """Thinking disabled at an effort level of params.levels (the rule's models refuse it)."""
    found = off_at_level(body, rule.params["levels"]) if isinstance(body, Mapping) else None
    if found is not None:
        yield Finding(found[0], {"level": found[1]})


def gemini_budget_out_of_range(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """A thinkingBudget amount outside params.minimum to params.maximum."""
    minimum, maximum = int(rule.params.get("minimum", 1)), int(rule.params["maximum"])
    found = budget_out_of_range(body, minimum, maximum) if isinstance(body, Mapping) else None
    if found is not None:
        yield Finding(f"generationConfig.thinkingConfig.{found[0]}",
                      {"budget": found[1], "minimum": minimum, "maximum": maximum})


def _thinking_of_type(kind: str, doc: str) -> Detector:
    """A detector of Anthropic thinking whose `type` is `kind` (the rule's models refuse it)."""
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        thinking = body.get("thinking") if isinstance(body, Mapping) else None
        if isinstance(thinking, Mapping) and thinking.get("type") == kind:
            yield Finding("thinking.type")

    detect.__doc__ = doc
    return detect


anthropic_budget_unsupported = _thinking_of_type(
    "enabled", "Thinking of type enabled (a token budget): the rule's models take adaptive only.")
anthropic_adaptive_unsupported = _thinking_of_type(
    "adaptive", "Thinking of type adaptive: the rule's models take a token budget only.")
