"""Request pass: a system prompt sent beside a stored conversation the vendor continues."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "instructions-with-previous-response"
_PASS = "drop_instructions_beside_previous_response"


def drop_instructions_beside_previous_response(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes `instructions` sent with `previous_response_id` (rule
    instructions-with-previous-response): the instructions go, the stored conversation's
    own system prompt is used. OpenAI takes the pair (its instructions are not carried over
    from one response to the next, so OpenAI clients send them every turn); xAI documents
    that `instructions` "cannot be used with previous_response_id (previous response's
    system prompt will be used)" and refuses the pair.

    Rejected by: xAI Responses "Argument not supported: instructions and
    previous_response_id together" (10-X-eng/vibecad#4, 2026-07).

    Before: previous_response_id "resp_1", instructions "Be brief.", input [user "Next?"]
    After:  previous_response_id "resp_1", input [user "Next?"]
    Lossy: instructions that differ from the stored conversation's are not applied; the
    change names them.
    """
    if not profile.enforces(RULE) or draft.options.get("previous_response_id") is None:
        return draft, ()
    messages = draft.history.messages
    if not messages or messages[0].extras.get("instructions") is not True:
        return draft, ()
    said = " ".join(getattr(part, "text", "") for part in messages[0].parts)
    change = Change(_PASS, "drop-instructions-beside-previous-response",
                    f"removed the instructions {_short(said)!r}: the target continues the "
                    "stored conversation (previous_response_id) with its own system prompt "
                    "and takes no instructions beside it", "messages[0]", lossless=False)
    return replace(draft, history=replace(draft.history, messages=messages[1:])), (change,)


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"
