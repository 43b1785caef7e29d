"""Options pass: thinking parameters in a form or combination the target refuses."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.thinking_params import conflicts, resolved

RULE = "thinking-param-conflict"
_SAID = {
    "object": ("thinking {sent!r} written as the object the target takes", True),
    "with_effort": ("reasoning_effort {sent!r} left out: the target refuses it beside its "
                    "own thinking switch, which is kept", False),
    "always_on": ("thinking type {sent!r} left out: {model} always thinks and refuses "
                  "another value, so it thinks as it would have", False),
}


def resolve_thinking_params(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes thinking parameters in a form or combination the target refuses (rule
    thinking-param-conflict, each copy for the models it names: `policy.model`): a
    boolean `thinking` becomes `{"type": "enabled"}` or `{"type": "disabled"}` (lossless),
    `reasoning_effort` beside the vendor's own switch is left out, and thinking off for a
    model that always thinks is left out (both lossy, said).

    Rejected by: Moonshot "the thinking field in the request (expected type object) is
    illegal, and bool is not acceptable" (LionSR/TeXRA#1905), "cannot specify both
    'thinking' and 'reasoning_effort'" (HKUDS/nanobot#3939), "invalid thinking: only
    type=enabled is allowed for this model" (vercel/ai's kimi-k2.7-code recording).

    Before: model kimi-k2.6, thinking true, reasoning_effort "high"
    After:  model kimi-k2.6, thinking {"type": "enabled"}
    """
    options = thaw(draft.options)
    changes: list[Change] = []
    for rule in profile.rules:
        if rule.id != RULE or not rule.enforced \
                or not rule.applies_to(policy.model, when_unknown=False):
            continue
        for found in conflicts(options, rule.params):
            said, lossless = _SAID[found.check]
            changes.append(Change("resolve_thinking_params", "resolve-thinking-param",
                                  said.format(sent=found.sent, model=policy.model),
                                  found.field, lossless))
            options = resolved(options, found)
    if not changes:
        return draft, ()
    return replace(draft, options=JsonMap(options)), tuple(changes)
