"""Options pass: a reasoning effort sent to a model that does not reason."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "reasoning-effort-unsupported"


def drop_reasoning_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a reasoning effort the model refuses because it does not reason (rule
    reasoning-effort-unsupported, for a model the rule names: `policy.model`): Chat's
    `reasoning_effort`, Responses' `reasoning` (its effort and summary) is left out.
    Lossless: such a model answers as it would with no effort at all. An effort arrives
    this way from another vendor's thinking settings (normalizer/thinking_options.py) or an
    app that sends one setting to every model.

    Rejected by: OpenAI Chat "Unrecognized request argument supplied: reasoning_effort"
    (davidmigloz/langchain_dart#712, gpt-4o-mini); Responses "Unsupported parameter:
    'reasoning.effort' is not supported with this model." (RageAgainstThePixel/OpenAI-DotNet#500,
    gpt-4o).

    Before: model gpt-4.1-mini, reasoning_effort "low"
    After:  model gpt-4.1-mini
    """
    rule = profile.rule(RULE)
    if rule is None or not rule.enforced or not rule.applies_to(policy.model,
                                                                 when_unknown=False):
        return draft, ()
    key = "reasoning" if profile.protocol == "openai_responses" else "reasoning_effort"
    value = draft.options.get(key)
    effort = value.get("effort") if key == "reasoning" and hasattr(value, "get") else value
    if effort is None:
        return draft, ()
    options = {k: v for k, v in thaw(draft.options).items() if k != key}
    change = Change("drop_reasoning_effort", "drop-reasoning-effort",
                    f"reasoning effort {effort!r} left out: {policy.model} does not reason "
                    "and refuses the field", key, True)
    return replace(draft, options=JsonMap(options)), (change,)
