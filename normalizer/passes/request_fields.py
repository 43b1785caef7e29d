"""Request options another vendor takes and the target does not know, or takes in
another place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.request_fields import moved_fields, spellings, unknown_fields

RULE = "unknown-request-field"
MOVED_RULE = "moved-request-field"


def drop_unknown_request_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes top-level request fields the target does not know (rule unknown-request-field,
    params.known): a field the target takes under another name (params.use: Mistral's
    random_seed for seed) is renamed, lossless, where the request does not set that name
    already; a field the target reads inside an object (params.nest: Gemini's temperature,
    in generationConfig) is moved there, lossless, where that object does not set it
    already (in either of its spellings); any other is left out, one lossy change per field,
    said with its value (the target answers as if it had not been asked: a sampling setting
    such as top_k, or another vendor's thinking switch, no longer applies). A body written
    for vLLM, Ollama, DeepSeek or Mistral and sent to OpenAI brings them, and OpenAI's
    options sent to Anthropic or Gemini.

    Rejected by: OpenAI "Unrecognized request argument supplied: top_k"
    (xlinx/sd-webui-decadetw-auto-prompt-llm#29), "... thinking" (nashsu/llm_wiki#336);
    Groq "property 'think' is unsupported" (fathah/hermes-desktop#863); Mistral 422
    "Extra inputs are not permitted" at ["body", "store"] (Gitlawb/openclaude#739);
    Cerebras "body.store: property 'body.store' is unsupported" (openclaw/openclaw#51058);
    Fireworks "Extra inputs are not permitted, field: 'vl_high_resolution_images', value:
    True." (web-infra-dev/midscene#1322); Anthropic "response_format: Extra inputs are not
    permitted" (amrit110/oli#7); Gemini 'Invalid JSON payload received. Unknown name
    "temperature": Cannot find field.' (nashsu/llm_wiki#49).

    Before: model gpt-4.1-mini, top_k 40, temperature 0.2
    After:  model gpt-4.1-mini, temperature 0.2
    """
    rule = profile.copy_for(RULE, policy.model)
    unknown = [] if rule is None else unknown_fields(draft.options, rule.params)
    if rule is None or not unknown:
        return draft, ()
    # Where the target takes the field: under another name (params.use) or inside an
    # object (params.nest); both are placed the same way.
    places = {**{k: (v, _RENAMED) for k, v in (rule.params.get("use") or {}).items()},
              **{k: (v, _NESTED) for k, v in (rule.params.get("nest") or {}).items()}}
    lists = frozenset(rule.params.get("lists") or ())
    options = {k: v for k, v in draft.options.items() if k not in unknown}
    changes: list[Change] = []
    for key in unknown:
        if "." in key:  # a key inside a known object (params.known_within)
            changes.append(_drop_within(options, key, profile.provider))
            continue
        if key in places:
            place, codes = places[key]
            changes.append(_place(options, key, draft.options[key], place, profile.provider,
                                  codes, lists))
            continue
        changes.append(Change("drop_unknown_request_fields", "drop-unknown-request-field",
                              f"{key} {thaw(draft.options[key])!r} left out: "
                              f"{profile.provider} does not know the field and refuses the "
                              "request", key, False))
    return replace(draft, options=JsonMap(options)), tuple(changes)


def _drop_within(options: dict[str, Any], key: str, provider: str) -> Change:
    """Leaves `object.name` out of `options`, and the object with it when nothing else is
    left in it (what an empty one means to the vendor is not known)."""
    outer, name = key.split(".", 1)
    value = options[outer][name]
    rest = {k: v for k, v in options[outer].items() if k != name}
    if rest:
        options[outer] = rest
    else:
        del options[outer]
    return Change("drop_unknown_request_fields", "drop-unknown-request-field",
                  f"{key} {thaw(value)!r} left out{'' if rest else f' (and {outer} with it)'}: "
                  f"{provider} does not know the field and refuses the request", key, False)


class _Codes(NamedTuple):
    """The pass and the fix codes a placed field is reported under."""

    pass_name: str
    placed: str  # lossless: the field is where the target reads it
    dropped: str  # lossy: the place is taken already


_RENAMED = _Codes("drop_unknown_request_fields", "rename-request-field",
                  "drop-unknown-request-field")
_NESTED = _Codes("drop_unknown_request_fields", "nest-request-field",
                 "drop-unknown-request-field")
_MOVED = _Codes("move_request_fields", "move-request-field", "drop-moved-request-field")


def move_request_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes top-level fields the target takes in another place (rule moved-request-field,
    params.moved: field -> new path): each is moved there, lossless, where the request does
    not set that place already (else it is left out, lossy: the request's own setting
    wins). Apps that move from Chat Completions to the Responses API keep Chat's names.

    Rejected by: OpenAI's Responses API "Unsupported parameter: 'reasoning_effort'. In the
    Responses API, this parameter has moved to 'reasoning.effort'. ..." (lobehub/lobehub#8116).

    Before: model gpt-5-mini, reasoning_effort "low"
    After:  model gpt-5-mini, reasoning {effort: "low"}
    """
    rule = profile.copy_for(MOVED_RULE, policy.model)
    moved = [] if rule is None else moved_fields(draft.options, rule.params)
    if rule is None or not moved:
        return draft, ()
    options = {k: v for k, v in draft.options.items() if k not in dict(moved)}
    changes = tuple(_place(options, key, draft.options[key], to, profile.provider, _MOVED)
                    for key, to in moved)
    return replace(draft, options=JsonMap(options)), changes


def _place(options: dict[str, Any], key: str, value: Any, place: str, provider: str,
           codes: _Codes, lists: frozenset[str] = frozenset()) -> Change:
    """Put `key`'s value at `place` in `options`: a top-level name, or an object and a name
    ("generationConfig.temperature"), under the spelling of that object the request uses
    already; left out where that place is set already, or its object is not an object. A
    string bound for a field of `lists` becomes a one-item list (OpenAI's `stop` takes
    either, Anthropic's stop_sequences and Gemini's stopSequences a list only)."""
    sent, listed = thaw(value), ""
    if isinstance(value, str) and place.rsplit(".", 1)[-1] in lists:
        value, listed = (value,), " (as a one-item list)"
    if "." not in place:
        if place in options:
            return Change(codes.pass_name, codes.dropped,
                          f"{key} {sent!r} left out: {provider} reads it as {place}, which "
                          "the request sets already", key, False)
        options[place] = value
        return Change(codes.pass_name, codes.placed,
                      f"{key} {sent!r} sent as {place}{listed}, where {provider} reads it", key,
                      True)
    parent, name = place.split(".", 1)
    at = next((k for k in spellings(parent) if k in options), parent)
    holder = options.get(at, {})
    if not isinstance(holder, Mapping) or any(k in holder for k in spellings(name)):
        why = f"{at} sets {name} already" if isinstance(holder, Mapping) \
            else f"{at} is not an object"
        return Change(codes.pass_name, codes.dropped,
                      f"{key} {sent!r} left out: {provider} reads it inside {at}, and {why}",
                      key, False)
    options[at] = JsonMap({**holder, name: value})
    return Change(codes.pass_name, codes.placed,
                  f"{key} {sent!r} sent as {at}.{name}{listed}, where {provider} reads it", key,
                  True)
