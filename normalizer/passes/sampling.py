"""Options passes: sampling parameters a model pins to one value, or takes none of."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.sampling import unfixed, unsupported

RULE = "sampling-parameter-fixed"
UNSUPPORTED = "sampling-parameter-unsupported"


def drop_unfixed_sampling(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a sampling parameter sent with another value than the one the model takes
    (rule sampling-parameter-fixed, for the models it names: `policy.model`; an unknown
    model keeps what was sent): the parameter is left out, so the model uses its own
    value, as the vendor's clients do. Lossy: the value asked for is not the one used (it
    never could be).

    Rejected by: Moonshot "invalid temperature: only 1 is allowed for this model"
    (countbot-ai/CountBot#61, kimi-k2.5), "invalid top_p: only 0.95 is allowed for this
    model" (CherryHQ/cherry-studio#12691); OpenAI "Unsupported value: 'temperature' does not
    support 0.5 with this model. Only the default (1) value is supported."
    (diffbot/code-gpt-docs#445, gpt-5).

    Before: model kimi-k3, temperature 0.2, top_p 0.9
    After:  model kimi-k3
    """
    rule = profile.copy_for(RULE, policy.model) if policy.model else None
    if rule is None:
        return draft, ()
    found = unfixed(draft.options, rule.params, policy.model)
    if not found:
        return draft, ()
    dropped = {f.field for f in found}
    changes = tuple(Change(
        "drop_unfixed_sampling", "drop-unfixed-sampling",
        f"{f.field} {f.sent!r} left out: {policy.model} takes only {f.allowed!r}, which it "
        "uses when none is sent", f.field, lossless=False) for f in found)
    kept = {k: v for k, v in thaw(draft.options).items() if k not in dropped}
    return replace(draft, options=JsonMap(kept)), changes


def drop_unsupported_sampling(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes sampling parameters sent to a model that takes none (rule
    sampling-parameter-unsupported, params.fields, for the models it names: `policy.model`;
    an unknown model keeps what was sent): each is left out, and the model samples as it
    does by default. Lossy: the value asked for is not used (it never could be). Apps send
    their one temperature to every model.

    Rejected by: Anthropic "`temperature` is deprecated for this model."
    (UKGovernmentBEIS/inspect_ai#3721, claude-opus-4-7).

    Before: model claude-opus-4-7, temperature 0.2
    After:  model claude-opus-4-7
    """
    rule = profile.copy_for(UNSUPPORTED, policy.model)
    if rule is None:
        return draft, ()
    found = unsupported(draft.options, rule.params)
    if not found:
        return draft, ()
    changes = tuple(Change(
        "drop_unsupported_sampling", "drop-unsupported-sampling",
        f"{field} {draft.options[field]!r} left out: {policy.model} takes no {field}", field,
        lossless=False) for field in found)
    kept = {k: v for k, v in thaw(draft.options).items() if k not in found}
    return replace(draft, options=JsonMap(kept)), changes
