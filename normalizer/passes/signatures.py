"""Gemini 3 thought signatures on function calls the target did not produce itself.

Gemini 3 rejects a call turn whose first functionCall part carries no `thoughtSignature`
(rule thought-signature-missing; litellm #16893: "Function call is missing a
thought_signature in functionCall parts."). Calls that came from another vendor, or that an
application built by hand, have none, and a signature made for another model cannot be
verified (rule thought-signature-invalid). Google documents a placeholder for exactly these
histories:

  https://ai.google.dev/gemini-api/docs/thought-signatures#faqs — "You can set the following
  dummy signatures of either "context_engineering_is_the_way_to_go" or
  "skip_thought_signature_validator"";
  https://cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures#using-rest-or-manual-handling
  — "You can set thought_signature to skip_thought_signature_validator".

(both quoted from pydantic-ai's Gemini model, which cites them; we use the value both pages
name; a profile may list others in the rule's `params.placeholders`, the first is used).
The Gemini wire module keeps a call's signature in `ToolCall.extras["thought_signature"]`
as the string sent on the wire.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, History, Message, Part, ToolCall
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import same_pairing
from normalizer.profiles import Profile

PLACEHOLDER_SIGNATURE = "skip_thought_signature_validator"
SIGNATURE_KEY = "thought_signature"
_PASS = "add_placeholder_thought_signatures"


def add_placeholder_thought_signatures(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes call turns without a thought signature (thought-signature-missing) and calls
    signed for another vendor (thought-signature-invalid) for targets that enforce them.
    A foreign signature (the message's `origin` is known and is not the target) is replaced
    by the placeholder (lossy: the foreign signature is dropped); a call turn where no call
    carries a signature gets the placeholder on its first call, as Gemini itself signs only
    the first of parallel calls (lossless: nothing is removed). With the rule's
    `params.scope: every`, every unsigned call gets one instead.
    Before: model turn [functionCall get_weather] (from Anthropic). After: the same part with
    thoughtSignature "skip_thought_signature_validator"."""
    rule = profile.rule("thought-signature-missing")
    if rule is None or not rule.enforced or not rule.applies_to(policy.model, when_unknown=True):
        return draft, ()
    every = profile.param("thought-signature-missing", "scope", "first") == "every"
    accepted = tuple(profile.param("thought-signature-missing", "placeholders", ())) or (
        PLACEHOLDER_SIGNATURE,)
    messages: list[Message] = []
    changes: list[Change] = []
    pairs: list[tuple[Message, Message]] = []  # (old, new): see `same_pairing`
    for i, message in enumerate(draft.history.messages):
        if message.role == "assistant" and message.tool_calls:
            # A signature is only valid for the model that issued it.
            foreign = message.origin not in (None, profile.provider)
            signed, found = _sign_turn(i, message, foreign=foreign, every=every,
                                       placeholder=accepted[0], accepted=accepted)
            if found:
                changes.extend(found)
                pairs.append((message, signed))
                message = signed
        messages.append(message)
    if not changes:
        return draft, ()
    # The signed turns hold the same calls (ids, names, order) with other extras: they pair
    # as before, so the next pairing index takes their blocks over (Gemini signs most turns).
    same_pairing(pairs)
    return replace(draft, history=History(tuple(messages), draft.history.extras)), tuple(changes)


def _sign_turn(i: int, message: Message, *, foreign: bool, every: bool, placeholder: str,
               accepted: tuple[str, ...]) -> tuple[Message, list[Change]]:
    parts: list[Part] = list(message.parts)
    changes: list[Change] = []
    for j, part in enumerate(parts):
        if not isinstance(part, ToolCall):
            continue
        current = part.extras.get(SIGNATURE_KEY)
        if current is not None and foreign and current not in accepted:
            parts[j] = _signed(part, placeholder)
            changes.append(Change(_PASS, "replace-foreign-thought-signature",
                                  f"call {part.name!r}: signature from {message.origin!r} "
                                  "replaced by Google's placeholder", _where(i, j), False))
    calls = [j for j, p in enumerate(parts) if isinstance(p, ToolCall)]
    unsigned = [j for j in calls if parts[j].extras.get(SIGNATURE_KEY) is None]
    targets = unsigned if every else (calls[:1] if len(unsigned) == len(calls) else [])
    for j in targets:
        call = parts[j]
        assert isinstance(call, ToolCall)
        parts[j] = _signed(call, placeholder)
        changes.append(Change(_PASS, "add-placeholder-thought-signature",
                              f"call {call.name!r} had no thought signature; added Google's "
                              f"placeholder {placeholder!r}", _where(i, j), True))
    return (message.with_renamed_parts(tuple(parts)) if changes else message), changes


def _signed(call: ToolCall, placeholder: str) -> ToolCall:
    return call.with_extras(call.extras.merged(**{SIGNATURE_KEY: placeholder}))


def _where(i: int, j: int) -> str:
    return f"messages[{i}].parts[{j}]"
