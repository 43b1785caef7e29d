"""Options pass: a reasoning effort sent to a model that does not reason."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.thinking_budget import with_thinking_config
from normalizer.thinking_options import thinking_field

RULE = "reasoning-effort-unsupported"


def drop_reasoning_effort(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a reasoning effort the model refuses because it does not reason (rule
    reasoning-effort-unsupported, for a model the rule names: `policy.model`): Chat's
    `reasoning_effort`, Responses' `reasoning` (its effort and summary), Gemini's
    `thinkingConfig`, Anthropic's enabled or adaptive `thinking` is left out.
    Lossless: such a model answers as it would with no effort at all. An effort arrives
    this way from another vendor's thinking settings (normalizer/thinking_options.py) or an
    app that sends one setting to every model.

    Rejected by: OpenAI Chat "Unrecognized request argument supplied: reasoning_effort"
    (davidmigloz/langchain_dart#712, gpt-4o-mini); Responses "Unsupported parameter:
    'reasoning.effort' is not supported with this model." (RageAgainstThePixel/OpenAI-DotNet#500,
    gpt-4o); Gemini "thinking_config is not supported." (Gemini 2.0,
    immersive-translate/immersive-translate#2976); Anthropic "'claude-3-5-sonnet-20241022'
    does not support thinking." (anthropics/claude-code#2245).

    Before: model gpt-4.1-mini, reasoning_effort "low"
    After:  model gpt-4.1-mini
    """
    rule = profile.rule(RULE)
    if rule is None or not rule.enforced or not rule.applies_to(policy.model,
                                                                 when_unknown=False):
        return draft, ()
    options = thaw(draft.options)
    found = thinking_field(options, profile.protocol)
    if found is None:
        return draft, ()
    where, sent = found
    if profile.protocol == "gemini":
        options = with_thinking_config(options, {})
    else:  # the whole field: Responses' `reasoning` with its effort and summary
        key = where.split(".")[0]
        options = {k: v for k, v in options.items() if k != key}
    change = Change("drop_reasoning_effort", "drop-reasoning-effort",
                    f"reasoning setting {sent!r} left out: {policy.model} does not reason "
                    "and refuses the field", where, True)
    return replace(draft, options=JsonMap(options)), (change,)

