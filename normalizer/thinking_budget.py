"""Thinking budgets a vendor refuses, read off a request in its own protocol, and what fits.

Anthropic's enabled thinking takes a token budget of at least 1,024 that is below
`max_tokens` (the budget counts toward it): "thinking.enabled.budget_tokens: Input should be
greater than or equal to 1024" (themaximalist/llm.js#30), "`max_tokens` must be greater
than `thinking.budget_tokens`." (liuw1535/antigravity2api-nodejs#149). A budget crossed
from another vendor (a Gemini budget of 512, an OpenAI effort written as 24,576 tokens
beside a small `max_completion_tokens`) breaks either.

Gemini takes a thinking budget or a thinking level, not both ("You can only set only one
of thinking budget and thinking level.", sterlp/eclipse-peon-ai#115), and the models that
always think refuse a budget of 0 ("Budget 0 is invalid. This model only works in thinking
mode.", snailyp/gemini-balance#206). Each Gemini 2.5 model takes budgets in a range of its
own (Pro 128 to 32,768, Flash up to 24,576, Flash-Lite 512 to 24,576; 0 switches thinking
off and -1 lets the model decide): "The thinking budget (52428) is invalid."
(RooCodeInc/Roo-Code#4399, gemini-2.5-pro).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

ANTHROPIC_MIN_BUDGET: Final = 1024


def enabled_budget(request: Mapping[str, Any]) -> int | None:
    """The budget of an Anthropic request's enabled thinking, or None."""
    thinking = request.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") != "enabled":
        return None
    budget = thinking.get("budget_tokens")
    return budget if isinstance(budget, int) and not isinstance(budget, bool) else None


def budget_below_minimum(request: Mapping[str, Any], minimum: int) -> int | None:
    """The enabled thinking budget when it is below `minimum`, else None."""
    budget = enabled_budget(request)
    return budget if budget is not None and budget < minimum else None


def budget_not_below_cap(request: Mapping[str, Any],
                         default: int | None = None) -> tuple[int, int] | None:
    """(budget, max_tokens) when the enabled thinking budget is not below `max_tokens`, or
    below `default` where the request gives none (a draft's options: the renderer's)."""
    budget = enabled_budget(request)
    cap = request.get("max_tokens", default)
    if budget is None or not isinstance(cap, int) or isinstance(cap, bool):
        return None
    return (budget, cap) if budget >= cap else None


def fitting_budget(cap: int, minimum: int) -> int | None:
    """A budget below `cap` for one that is not: half of `cap` (our choice: the other half
    is left for the reply, where `budget = cap - 1` would leave one token), at least
    `minimum`; None where no budget of at least `minimum` is below `cap`."""
    if cap <= minimum:
        return None
    return max(minimum, cap // 2)


def gemini_config(request: Mapping[str, Any]) -> Mapping[str, Any]:
    """A Gemini request's `generationConfig.thinkingConfig` ({} where it has none)."""
    config = request.get("generationConfig")
    thinking = config.get("thinkingConfig") if isinstance(config, Mapping) else None
    return thinking if isinstance(thinking, Mapping) else {}


# Gemini's JSON reads a field by its lowerCamel name or its proto name; google-genai sends
# the proto names inside thinkingConfig (`thinking_budget`, `thinking_level`).
BUDGET: Final = ("thinkingBudget", "thinking_budget")
LEVEL: Final = ("thinkingLevel", "thinking_level")
INCLUDE: Final = ("includeThoughts", "include_thoughts")


def config_field(config: Mapping[str, Any], names: tuple[str, ...]) -> tuple[str, Any] | None:
    """The first of a field's spellings that `config` sets (not null), and its value."""
    return next(((n, config[n]) for n in names if config.get(n) is not None), None)


def budget_and_level(request: Mapping[str, Any]) -> bool:
    """Whether a Gemini request sets both a thinking budget and a thinking level."""
    config = gemini_config(request)
    return config_field(config, BUDGET) is not None and config_field(config, LEVEL) is not None


def budget_off(request: Mapping[str, Any]) -> bool:
    """Whether a Gemini request switches thinking off with a budget of 0."""
    found = config_field(gemini_config(request), BUDGET)
    return found is not None and found[1] == 0 and not isinstance(found[1], bool)


# Gemini budgets that are settings rather than amounts: thinking off, and the model decides.
GEMINI_OFF, GEMINI_DYNAMIC = 0, -1


def budget_out_of_range(request: Mapping[str, Any], minimum: int, maximum: int
                        ) -> tuple[str, int] | None:
    """(spelling, budget) of a Gemini request's thinking budget when it is an amount outside
    `minimum`..`maximum` (0 and -1 are settings, not amounts), else None."""
    found = config_field(gemini_config(request), BUDGET)
    if found is None or not isinstance(found[1], int) or isinstance(found[1], bool):
        return None
    name, budget = found
    if budget in (GEMINI_OFF, GEMINI_DYNAMIC) or minimum <= budget <= maximum:
        return None
    return name, budget


def with_thinking_config(request: Mapping[str, Any], config: Mapping[str, Any]
                         ) -> dict[str, Any]:
    """A Gemini request with `config` as its thinkingConfig (left out where empty, and the
    generationConfig with it where nothing else is in it)."""
    generation = dict(request.get("generationConfig") or {})
    if config:
        generation["thinkingConfig"] = dict(config)
    else:
        generation.pop("thinkingConfig", None)
    out = dict(request)
    if generation:
        out["generationConfig"] = generation
    else:
        out.pop("generationConfig", None)
    return out
