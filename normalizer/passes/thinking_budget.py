"""Options passes: thinking budgets the target refuses (normalizer/thinking_budget.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.protocols import ANTHROPIC_MAX_TOKENS as DEFAULT_MAX_TOKENS
from normalizer.thinking_budget import (
    ANTHROPIC_MIN_BUDGET,
    BUDGET,
    LEVEL,
    budget_and_level,
    budget_below_minimum,
    budget_not_below_cap,
    budget_off,
    budget_out_of_range,
    config_field,
    fitting_budget,
    gemini_config,
    with_thinking_config,
)
from normalizer.thinking_options import budget_for_effort

TOO_SMALL = "thinking-budget-too-small"
OVER_CAP = "thinking-budget-exceeds-max-tokens"
BOTH = "thinking-budget-and-level"
OFF = "thinking-off-unsupported"
LEVEL_ONLY = "thinking-level-unsupported"
RANGE = "thinking-budget-out-of-range"
_WHERE = "thinking.budget_tokens"


def fit_thinking_budget(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an enabled thinking budget the target refuses (rules thinking-budget-too-small,
    thinking-budget-exceeds-max-tokens). A budget below the minimum is raised to it. A
    budget not below the request's `max_tokens` is lowered to half of it (at least the
    minimum): `max_tokens` bounds thinking and reply together, as OpenAI's
    max_completion_tokens does, so the caller's bound is kept and the budget gives way;
    where no allowed budget is below it, thinking is switched off. Where the request gives
    no `max_tokens`, the renderer's default (256 tokens) is ours, not the caller's: it is
    raised to the budget plus that default instead. Each is said; lowering the budget or
    switching thinking off is lossy, raising either is not.

    Rejected by: Anthropic "thinking.enabled.budget_tokens: Input should be greater than or
    equal to 1024" (themaximalist/llm.js#30), "`max_tokens` must be greater than
    `thinking.budget_tokens`. Please consult our documentation at ..."
    (liuw1535/antigravity2api-nodejs#149).

    Before: max_tokens 4000, thinking {type: enabled, budget_tokens: 24576}
    After:  max_tokens 4000, thinking {type: enabled, budget_tokens: 2000}
    """
    options = thaw(draft.options)
    changes: list[Change] = []
    small = profile.rule(TOO_SMALL)
    minimum = ANTHROPIC_MIN_BUDGET
    if small is not None and small.enforced:
        minimum = int(small.params.get("minimum", minimum))
        budget = budget_below_minimum(options, minimum)
        if budget is not None:
            options = _with_budget(options, minimum)
            changes.append(Change("fit_thinking_budget", "raise-thinking-budget",
                                  f"thinking budget of {budget} tokens raised to {minimum}, "
                                  "the least the target takes", _WHERE, True))
    if profile.enforces(OVER_CAP):
        options, said = _under_cap(options, minimum)
        changes += said
    if not changes:
        return draft, ()
    return replace(draft, options=JsonMap(options)), tuple(changes)


def _with_budget(options: dict[str, Any], budget: int) -> dict[str, Any]:
    return {**options, "thinking": {**options["thinking"], "budget_tokens": budget}}


def _under_cap(options: dict[str, Any], minimum: int) -> tuple[dict[str, Any], list[Change]]:
    found = budget_not_below_cap(options, DEFAULT_MAX_TOKENS)
    if found is None:
        return options, []
    budget, cap = found
    if "max_tokens" not in options:
        raised = budget + DEFAULT_MAX_TOKENS
        return {**options, "max_tokens": raised}, [Change(
            "fit_thinking_budget", "raise-max-tokens",
            f"max_tokens not given: set to {raised} (the thinking budget of {budget} tokens "
            f"and the {DEFAULT_MAX_TOKENS} the renderer leaves for the reply), since the "
            "target counts thinking toward max_tokens and refuses a budget not below it",
            "max_tokens", True)]
    fitted = fitting_budget(cap, minimum)
    if fitted is None:
        return {**options, "thinking": {"type": "disabled"}}, [Change(
            "fit_thinking_budget", "disable-thinking",
            f"thinking switched off: max_tokens {cap} leaves no room for the least budget "
            f"the target takes ({minimum} tokens, below max_tokens)", "thinking", False)]
    return _with_budget(options, fitted), [Change(
        "fit_thinking_budget", "lower-thinking-budget",
        f"thinking budget of {budget} tokens lowered to {fitted}: the target counts "
        f"thinking toward max_tokens ({cap}) and refuses a budget not below it",
        _WHERE, False)]


def fix_gemini_thinking_config(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a Gemini thinkingConfig the target refuses (rules thinking-level-unsupported,
    thinking-budget-and-level, thinking-off-unsupported). A level sent to a model that takes
    a budget only (`policy.model`, the rule's models: Gemini 2.5) becomes our table's budget
    for it (normalizer/thinking_options.py: low 1,024, medium 8,192, high 24,576), or is left
    out where the request sets a budget already. Of a budget and a level, the budget is
    kept: every Gemini thinking model takes a budget (Gemini 3 for compatibility), while a
    level is refused by Gemini 2.5. A budget of 0, for a model that always thinks (the
    rule's models), becomes the least budget it takes (params.minimum): as little thinking
    as it allows. All lossy, said.

    Rejected by: Gemini "Thinking level is not supported for this model."
    (Kilo-Org/kilocode#4490, gemini-2.5-flash), "You can only set only one of thinking
    budget and thinking level." (sterlp/eclipse-peon-ai#115), "Budget 0 is invalid. This
    model only works in thinking mode." (snailyp/gemini-balance#206, gemini-2.5-pro).

    Before: model gemini-2.5-flash, thinkingConfig {thinkingLevel: "high"}
    After:  model gemini-2.5-flash, thinkingConfig {thinkingBudget: 24576}
    """
    options = thaw(draft.options)
    changes: list[Change] = []
    if profile.copy_for(LEVEL_ONLY, policy.model) is not None:
        options, said = _level_as_budget(options, policy.model)
        changes.extend(said)
    if profile.enforces(BOTH) and budget_and_level(options):
        config, name, level = _without_level(options)
        budget = (config_field(config, BUDGET) or ("", None))[1]
        options = with_thinking_config(options, config)
        changes.append(Change("fix_gemini_thinking_config", "drop-thinking-level",
                              f"thinking level {level!r} left out beside a thinking budget "
                              f"of {budget}: the target takes one of them, and every "
                              "Gemini thinking model takes a budget",
                              f"generationConfig.thinkingConfig.{name}", False))
    off = profile.copy_for(OFF, policy.model)
    if off is not None and budget_off(options):
        least = int(off.params.get("minimum", 128))
        config = dict(gemini_config(options))
        name = (config_field(config, BUDGET) or (BUDGET[0], 0))[0]
        options = with_thinking_config(options, {**config, name: least})
        changes.append(Change("fix_gemini_thinking_config", "keep-thinking-on",
                              f"thinking budget 0 raised to {least}: {policy.model} always "
                              "thinks, and this is the least budget it takes",
                              f"generationConfig.thinkingConfig.{name}", False))
    if not changes:
        return draft, ()
    return replace(draft, options=JsonMap(options)), tuple(changes)


def _without_level(options: dict[str, Any]) -> tuple[dict[str, Any], str, Any]:
    """The request's thinkingConfig without its level (either spelling), and the level's
    spelling and value ("" and None where it sets none)."""
    config = dict(gemini_config(options))
    name, level = config_field(config, LEVEL) or ("", None)
    for spelling in LEVEL:
        config.pop(spelling, None)
    return config, name, level


def _level_as_budget(options: dict[str, Any], model: str | None
                     ) -> tuple[dict[str, Any], list[Change]]:
    """`options` with its thinking level, which `model` does not take, written as a budget
    in the same spelling, or left out beside a budget the request sets already."""
    if config_field(gemini_config(options), LEVEL) is None:
        return options, []
    config, name, level = _without_level(options)
    where = f"generationConfig.thinkingConfig.{name}"
    if config_field(config, BUDGET) is not None:
        return with_thinking_config(options, config), [Change(
            "fix_gemini_thinking_config", "drop-thinking-level",
            f"thinking level {level!r} left out: {model} takes a thinking budget, not a "
            "level, and the request sets a budget", where, False)]
    budget = budget_for_effort(str(level).lower())
    config[BUDGET[LEVEL.index(name)]] = budget  # camelCase for camelCase, as sent
    return with_thinking_config(options, config), [Change(
        "fix_gemini_thinking_config", "thinking-level-as-budget",
        f"thinking level {level!r} written as a budget of {budget} tokens (our table): "
        f"{model} takes a thinking budget, not a level", where, False)]


def fit_gemini_thinking_budget(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a Gemini thinking budget outside the range the model takes (rule
    thinking-budget-out-of-range, each copy for the models it names, `policy.model`): the
    nearest end of the range, params.minimum or params.maximum. Lossy, said: the model
    thinks more or less than asked. A budget kept from another Gemini model (2.5 Pro's
    32,768 sent to 2.5 Flash) or set by an app for every model is where it comes from; one
    crossed from another vendor is already at most 24,576 (normalizer/thinking_options.py).

    Rejected by: Gemini "The thinking budget (52428) is invalid." (RooCodeInc/Roo-Code#4399,
    gemini-2.5-pro, whose budgets run from 128 to 32,768).

    Before: model gemini-2.5-pro, thinkingConfig {thinkingBudget: 52428}
    After:  model gemini-2.5-pro, thinkingConfig {thinkingBudget: 32768}
    """
    rule = profile.copy_for(RANGE, policy.model)
    if rule is None:
        return draft, ()
    minimum, maximum = int(rule.params.get("minimum", 1)), int(rule.params["maximum"])
    options = thaw(draft.options)
    found = budget_out_of_range(options, minimum, maximum)
    if found is None:
        return draft, ()
    name, budget = found
    fitted = maximum if budget > maximum else minimum
    options = with_thinking_config(options, {**gemini_config(options), name: fitted})
    change = Change("fit_gemini_thinking_budget", "fit-thinking-budget-range",
                    f"thinking budget of {budget} tokens written as {fitted}: "
                    f"{policy.model} takes budgets from {minimum} to {maximum}",
                    f"generationConfig.thinkingConfig.{name}", False)
    return replace(draft, options=JsonMap(options)), (change,)
