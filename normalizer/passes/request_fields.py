"""Request options another vendor takes and the target does not know at all."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.request_fields import unknown_fields

RULE = "unknown-request-field"


def drop_unknown_request_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes top-level request fields the target does not know (rule unknown-request-field,
    params.known): a field the target takes under another name (params.use: Mistral's
    random_seed for seed) is renamed, lossless, where the request does not set that name
    already; any other is left out, one lossy change per field, said with its value (the
    target answers as if it had not been asked: a sampling setting such as top_k, or another
    vendor's thinking switch, no longer applies). A body written for vLLM, Ollama, DeepSeek
    or Mistral and sent to OpenAI brings them.

    Rejected by: OpenAI "Unrecognized request argument supplied: top_k"
    (xlinx/sd-webui-decadetw-auto-prompt-llm#29), "... thinking" (nashsu/llm_wiki#336);
    Groq "property 'think' is unsupported" (fathah/hermes-desktop#863); Mistral 422
    "Extra inputs are not permitted" at ["body", "store"] (Gitlawb/openclaude#739).

    Before: model gpt-4.1-mini, top_k 40, temperature 0.2
    After:  model gpt-4.1-mini, temperature 0.2
    """
    rule = profile.copy_for(RULE, policy.model)
    unknown = [] if rule is None else unknown_fields(draft.options, rule.params)
    if rule is None or not unknown:
        return draft, ()
    known, names = rule.params.get("known") or (), rule.params.get("use") or {}
    options = {k: v for k, v in draft.options.items() if k not in unknown}
    changes: list[Change] = []
    for key in unknown:
        sent, other = draft.options[key], names.get(key)
        if other in known and other not in draft.options:
            options[other] = sent
            changes.append(Change("drop_unknown_request_fields", "rename-request-field",
                                  f"{key} {sent!r} sent as {other}, {profile.provider}'s name "
                                  "for it", key, True))
            continue
        changes.append(Change("drop_unknown_request_fields", "drop-unknown-request-field",
                              f"{key} {sent!r} left out: {profile.provider} does not know the "
                              "field and refuses the request", key, False))
    return replace(draft, options=JsonMap(options)), tuple(changes)
