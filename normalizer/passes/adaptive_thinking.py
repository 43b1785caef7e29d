"""Options pass: a thinking budget for a model that takes adaptive thinking only."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.thinking_budget import enabled_budget
from normalizer.thinking_options import effort_for_budget

RULE = "thinking-budget-unsupported"


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
    if profile.copy_for(RULE, policy.model) is None:
        return draft, ()
    options = thaw(draft.options)
    thinking = options.get("thinking")
    if not isinstance(thinking, dict) or thinking.get("type") != "enabled":
        return draft, ()
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
