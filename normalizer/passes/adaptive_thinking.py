"""Options passes: a thinking budget for a model that takes adaptive thinking only, and
adaptive thinking for a model that takes a budget only."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.thinking_budget import enabled_budget
from normalizer.thinking_options import budget_for_effort, effort_for_budget

RULE = "thinking-budget-unsupported"


def _thinking_of_type(draft: Draft, profile: Profile, policy: Policy, rule_id: str,
                      kind: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The thawed options and their thinking object, where a copy of `rule_id` holds for
    the model and the request's thinking has type `kind`; else None."""
    if profile.copy_for(rule_id, policy.model) is None:
        return None
    options = thaw(draft.options)
    thinking = options.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") != kind:
        return None
    return options, thinking


def adapt_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes thinking with a token budget for a model that takes adaptive thinking only (rule
    thinking-budget-unsupported, for a named model the rule's copy names): thinking becomes
    {type: adaptive}, and the budget an `output_config.effort`, the level of our table whose
    budget covers it (normalizer/thinking_options.py), unless the request sets one. Lossy,
    said: the model decides how much to think at that level. A budget crossed from another
    vendor's effort or budget (every Anthropic thinking our conversion writes has one), or
    kept in a history written for Claude 4.6 and earlier, is where it comes from.

    Rejected by: Anthropic, in these words: "thinking.type.enabled" is not supported for this
    model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking
    behavior. (earendil-works/pi#3297, claude-opus-4-7)

    Before: model claude-opus-4-7, thinking {type: enabled, budget_tokens: 24576}
    After:  model claude-opus-4-7, thinking {type: adaptive}, output_config {effort: high}
    """
    found = _thinking_of_type(draft, profile, policy, RULE, "enabled")
    if found is None:
        return draft, ()
    options, thinking = found
    budget = enabled_budget(options)
    kept = {k: v for k, v in thinking.items() if k not in ("type", "budget_tokens")}
    options["thinking"] = {"type": "adaptive", **kept}
    config: dict[str, Any] = dict(options.get("output_config") or {})
    level, table = config.get("effort"), ""
    if level is None and budget is not None:
        level, table = effort_for_budget(budget), " (our table)"
        options["output_config"] = {**config, "effort": level}
    what = f"a budget of {budget} tokens" if budget is not None else "type enabled"
    at = f" at effort {level!r}{table}" if level is not None else ""
    change = Change("adapt_thinking", "adaptive-thinking",
                    f"thinking with {what} sent as adaptive thinking{at}: {policy.model} "
                    "takes adaptive thinking only", "thinking", False)
    return replace(draft, options=JsonMap(options)), (change,)


ADAPTIVE_RULE = "thinking-adaptive-unsupported"


def budget_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes adaptive thinking for a model that takes thinking with a token budget only (rule
    thinking-adaptive-unsupported, for a named model the rule's copy names): thinking becomes
    {type: enabled} with the budget our table gives the request's `output_config.effort`
    (normalizer/thinking_options.py; medium's where it sets none). Lossy, said: the model
    thinks up to a fixed budget instead of deciding. An app that asks Claude 4.6 and later
    for adaptive thinking and hands some turns to Haiku 4.5 (a subagent, a summary) sends it
    there unchanged. The effort stays for the passes that follow: a model that takes no
    effort has it dropped by drop_effort, after this pass has read it.

    Rejected by: Anthropic "adaptive thinking is not supported on this model" (pensarai/apex#890,
    claude-haiku-4-5; diegosouzapw/OmniRoute#1563).

    Before: model claude-haiku-4-5, thinking {type: adaptive}, output_config {effort: low}
    After:  model claude-haiku-4-5, thinking {type: enabled, budget_tokens: 1024},
            output_config {effort: low}
    """
    found = _thinking_of_type(draft, profile, policy, ADAPTIVE_RULE, "adaptive")
    if found is None:
        return draft, ()
    options, thinking = found
    config = options.get("output_config")
    level = config.get("effort") if isinstance(config, dict) else None
    budget = budget_for_effort(level if isinstance(level, str) else "medium")
    kept = {k: v for k, v in thinking.items() if k != "type"}
    options["thinking"] = {"type": "enabled", "budget_tokens": budget, **kept}
    at = f"effort {level!r}" if isinstance(level, str) else "no effort (medium's)"
    change = Change("budget_thinking", "budget-thinking",
                    f"adaptive thinking sent as thinking with a budget of {budget} tokens, our "
                    f"table's for {at}: {policy.model} takes thinking with a budget only",
                    "thinking", False)
    return replace(draft, options=JsonMap(options)), (change,)
