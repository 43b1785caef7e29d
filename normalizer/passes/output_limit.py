"""Options passes: the output limit in the field the model takes, no higher than it writes and
no lower than the endpoint takes."""

from __future__ import annotations

from dataclasses import replace

from normalizer.json_values import set_at
from normalizer.model import Change, JsonMap, thaw
from normalizer.output_limit import old_field, over_limit, under_limit
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

# OpenAI's reasoning models refuse max_tokens; Mistral refuses max_completion_tokens.
RULES = ("max-tokens-field-unsupported", "max-completion-tokens-unsupported")


def move_max_tokens(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an output limit sent in a field the model refuses (rules
    max-tokens-field-unsupported and max-completion-tokens-unsupported, params.field and
    params.use, for the models a copy names: `policy.model`; an unknown model keeps what was
    sent, unless the copy holds for every model): the limit moves to the field the
    model takes. Lossless: the same limit, in the other field. Where the request already
    sends that field, its value is kept and the old field left out (lossy if they differ:
    the two limits cannot both be sent).

    Rejected by: OpenAI "Unsupported parameter: 'max_tokens' is not supported with this
    model. Use 'max_completion_tokens' instead." (griptape-ai/ComfyUI-Griptape#312, gpt-5;
    teilomillet/gollm#33, o1 and o3-mini); Mistral, the other way round, 422 "Extra inputs
    are not permitted" at ["body", "max_completion_tokens"] (editor-code-assistant/eca#231).

    Before: model gpt-5, max_tokens 1024
    After:  model gpt-5, max_completion_tokens 1024
    """
    # A copy naming models needs the model; the two rules never hold for one request.
    copies = (profile.copy_for(rule_id, policy.model) for rule_id in RULES)
    found = next((hit for hit in (old_field(draft.options, rule.params) for rule in copies
                                  if rule is not None) if hit is not None), None)
    if found is None:
        return draft, ()
    options = {k: v for k, v in thaw(draft.options).items() if k != found.field}
    kept = options.get(found.use)
    if kept is None:
        options[found.use] = found.sent
        change = Change("move_max_tokens", "move-max-tokens",
                        f"{found.field} {found.sent!r} sent as {found.use}: {policy.model} "
                        f"takes the output limit in {found.use} only", found.field, True)
    else:
        change = Change("move_max_tokens", "move-max-tokens",
                        f"{found.field} {found.sent!r} left out: {policy.model} takes the "
                        f"output limit in {found.use} only, and the request sets it to "
                        f"{kept!r}", found.field, kept == found.sent)
    return replace(draft, options=JsonMap(options)), (change,)


TOO_LARGE = "max-tokens-too-large"
TOO_SMALL = "max-tokens-too-small"


def fit_max_tokens(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an output limit above the most the model writes (rule max-tokens-too-large,
    params.maximum, for the models it names: `policy.model`; an unknown model keeps what was
    sent): the limit is lowered to that most. Lossless: the model could never write more.
    Apps keep one limit for every model, and a vendor switch carries it along. And one below
    the least the endpoint takes (rule max-tokens-too-small, params.minimum, any model): the
    limit is raised to that least. Lossy, said: the reply may run a few tokens longer than
    asked (a classifier's max_tokens of 1 crossing from Anthropic).

    Rejected by: Anthropic "max_tokens: 200000 > 64000, which is the maximum allowed number
    of output tokens for claude-sonnet-4-5-20250929" (BerriAI/litellm#15715); OpenAI
    "max_tokens is too large: 20480. This model supports at most 16384 completion tokens,
    whereas you provided 20480." (tailcallhq/forgecode#1185, gpt-4o); DeepSeek "Invalid
    max_tokens value, the valid range of max_tokens is [1, 8192]" (deepseek-ai/DeepSeek-V3#69);
    the Responses API "Invalid 'max_output_tokens': integer below minimum value. Expected a
    value >= 16, but got 10 instead." (vectorize-io/hindsight#58, Azure's).

    Before: model gpt-4o, max_tokens 64000
    After:  model gpt-4o, max_tokens 16384
    """
    large = profile.copy_for(TOO_LARGE, policy.model)
    small = profile.copy_for(TOO_SMALL, policy.model)
    found = [(over, True) for over in
             (over_limit(draft.options, profile.protocol, large.params) if large else [])]
    found += [(under, False) for under in
              (under_limit(draft.options, profile.protocol, small.params) if small else [])]
    if not found:
        return draft, ()
    options = thaw(draft.options)
    changes = []
    for crossed, lowered in found:
        set_at(options, crossed.path, crossed.bound)
        where = ".".join(crossed.path)
        changes.append(
            Change("fit_max_tokens", "fit-max-tokens",
                   f"{where} {crossed.sent} lowered to {crossed.bound}: {policy.model} writes "
                   f"at most {crossed.bound} tokens", where, True) if lowered else
            Change("fit_max_tokens", "raise-max-tokens",
                   f"{where} {crossed.sent} raised to {crossed.bound}: the target takes no "
                   f"limit below {crossed.bound} tokens", where, False))
    return replace(draft, options=JsonMap(options)), tuple(changes)
