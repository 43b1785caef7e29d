"""Request options another vendor takes and the target does not know at all."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "unknown-request-field"


def drop_unknown_request_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes top-level request fields the target does not know (rule unknown-request-field,
    params.known): each is left out, one lossy change per field, said with its value (the
    target answers as if it had not been asked: a sampling setting such as top_k, or another
    vendor's thinking switch, no longer applies). A body written for vLLM, Ollama, DeepSeek
    or Mistral and sent to OpenAI brings them.

    Rejected by: OpenAI "Unrecognized request argument supplied: top_k"
    (xlinx/sd-webui-decadetw-auto-prompt-llm#29), "... thinking" (nashsu/llm_wiki#336).

    Before: model gpt-4.1-mini, top_k 40, temperature 0.2
    After:  model gpt-4.1-mini, temperature 0.2
    """
    rule = profile.copy_for(RULE, policy.model)
    known = frozenset(rule.params.get("known") or ()) if rule is not None else frozenset()
    unknown = [k for k in draft.options if k not in known] if known else []
    if not unknown:
        return draft, ()
    options = JsonMap({k: v for k, v in draft.options.items() if k not in unknown})
    changes = tuple(Change("drop_unknown_request_fields", "drop-unknown-request-field",
                           f"{key} {draft.options[key]!r} left out: {profile.provider} does not "
                           "know the field and refuses the request", key, False)
                    for key in unknown)
    return replace(draft, options=options), changes
