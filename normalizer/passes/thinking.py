"""Thinking across a vendor switch: whose reasoning a target may receive, and what
Anthropic demands of the turn in progress.

A thinking part is *kept* only where it can be valid: the target takes reasoning input at
all, and either the target itself produced it (`Thinking.vendor`, else `Message.origin`, is
the profile's provider) or nobody signed it and the target takes unsigned reasoning. Every
other part is foreign: dropped, or turned into assistant text under
`Policy.foreign_thinking = "as-text"` (redacted and empty thinking has no text to keep and
is always dropped).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace

from normalizer.model import (
    Change,
    History,
    Message,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    thaw,
)
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import same_pairing
from normalizer.passes.item_ids import detach_from_reasoning, reasoning_item_id
from normalizer.profiles import Profile
from normalizer.signature_shape import issued_by_shape

# The message field a protocol carries Thinking in when it is not a block of its own: a
# profile's unknown-message-field `params.allowed` says whether the vendor knows it.
_REASONING_FIELD = {"openai_chat": "reasoning_content"}
# The other name some Chat vendors use for the same field (Cerebras documents `reasoning`
# as its replay field; Groq and OpenRouter send it).
_OTHER_FIELD = {"openai_chat": "reasoning"}
_DROP = "drop_foreign_thinking"
_TURN = "repair_thinking_turn"


def takes_reasoning_input(profile: Profile, model: str | None = None) -> bool:
    """False for targets that reject reasoning sent back (Groq, Cerebras: "property
    'reasoning_content' is unsupported"; Mistral: "Reasoning input is not enabled for this
    model"), as their profiles say, and for the models a reasoning-input-unsupported rule
    names (OpenAI Responses: gpt-4.1, which does not reason). Where the model is not known,
    the one the body will name is asked about: the profile's default, which `render` writes
    when it is given none (OpenAI Responses: gpt-4.1-mini)."""
    if profile.copy_for("reasoning-input-unsupported", model or profile.default_model):
        return False
    allowed = profile.param("unknown-message-field", "allowed")  # {role: [field, ...]}
    field = _REASONING_FIELD.get(profile.protocol)
    if field is None or not isinstance(allowed, Mapping) or "assistant" not in allowed:
        return True
    return field in allowed["assistant"]


def _other_field(profile: Profile) -> str | None:
    """The other reasoning field name, where the profile allows it and not the usual one."""
    allowed = profile.param("unknown-message-field", "allowed")
    other = _OTHER_FIELD.get(profile.protocol)
    if other is None or not isinstance(allowed, Mapping):
        return None
    fields = allowed.get("assistant") or ()
    return other if other in fields and _REASONING_FIELD[profile.protocol] not in fields \
        else None


def _keeps(part: Thinking, message: Message, profile: Profile) -> bool:
    producer = part.vendor or message.origin
    if producer == profile.provider:
        return part.signature is not None or not profile.enforces("thinking-signature-missing")
    return (producer is None and part.signature is None and not part.redacted
            and not profile.enforces("thinking-signature-missing"))


def as_text(part: Thinking) -> Text | None:
    """The visible form of a thinking part under "as-text" (None: nothing to keep). Wrapped
    in <thinking> tags so the reader (and the model) can tell it from the answer."""
    if part.redacted or not part.text.strip():
        return None
    return Text(f"<thinking>\n{part.text}\n</thinking>")


def _convert(i: int, j: int, part: Thinking, policy: Policy, why: str,
             code: str) -> tuple[Part | None, Change]:
    text = as_text(part) if policy.foreign_thinking == "as-text" else None
    where = f"messages[{i}].parts[{j}]"
    if text is None:
        return None, Change(_DROP, f"drop-{code}", f"dropped thinking: {why}", where, False)
    return text, Change(_DROP, f"{code}-as-text", f"thinking turned into text: {why}", where,
                        False)


def drop_foreign_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes thinking the target cannot take: another vendor's signed blocks (Anthropic:
    "messages.N.content.0: Invalid `signature` in `thinking` block"; Gemini: "Corrupted
    thought signature."), unsigned reasoning
    where a signature is required ("….thinking.signature: Field required"), and any
    reasoning sent to a target that rejects reasoning input (Groq, Cerebras, Mistral).
    Where it leaves out a Responses target's own reasoning item that has an id (gpt-4.1
    takes none), the items after it in its turn go by value: by id, OpenAI would look for
    the reasoning they came after ("Item 'fc_…' of type 'function_call' was provided without
    its required 'reasoning' item: 'rs_…'.", cline/cline#12242).
    Before: assistant [Thinking(vendor="gemini"), ToolCall] for Anthropic. After: assistant
    [ToolCall] (or [Text("<thinking>…</thinking>"), ToolCall] under as-text). Lossy: the
    reasoning (and always its signature) is removed or demoted to text."""
    takes_input = takes_reasoning_input(profile, policy.model)
    other = _other_field(profile)  # read once, not per part
    messages: list[Message] = []
    changes: list[Change] = []
    pairs: list[tuple[Message, Message]] = []  # (old, new): see `same_pairing`
    for i, message in enumerate(draft.history.messages):
        for part in message.parts:  # a loop, not any(...): this runs for every message
            if isinstance(part, Thinking):
                break
        else:
            messages.append(message)  # only thinking is ever dropped or converted
            continue
        parts: list[Part] = []
        gone: str | None = None  # the id of the target's own reasoning item just dropped
        for j, part in enumerate(message.parts):
            # Reasoning that came in the field the target documents (Cerebras `reasoning`)
            # goes back as it came.
            own = message.extras.get("reasoning_field") == other is not None
            verdict = _why_not(part, message, profile, takes_input or own)
            if verdict is None or not isinstance(part, Thinking):
                if gone is not None and not isinstance(part, Thinking):
                    part, detached = detach_from_reasoning(part, gone, _DROP,
                                                           f"messages[{i}].parts[{j}]")
                    changes.extend(() if detached is None else (detached,))
                else:
                    gone = None  # a kept reasoning item leads the items after it
                parts.append(part)
                continue
            new, change = _convert(i, j, part, policy, *verdict)
            changes.append(change)
            parts.extend(() if new is None else (new,))
            gone = _paired_id(part, message, profile)
        same = len(parts) == len(message.parts) and all(
            a is b for a, b in zip(parts, message.parts, strict=True))
        if same:
            messages.append(message)
            continue
        messages.append(message.with_parts(tuple(parts)))
        if not message.tool_results:  # results keep their part indexes: see below
            pairs.append((message, messages[-1]))
    if not changes:
        return draft, ()
    # A message without results that lost or demoted its thinking holds the same calls in
    # the same order (thinking sits beside calls, in assistant messages) and pairs as
    # before, so the next pairing index takes its block over (a message with results could
    # see their part indexes move: left to the index).
    same_pairing(pairs)
    return replace(draft, history=History(tuple(messages), draft.history.extras)), tuple(changes)


def _paired_id(part: Thinking, message: Message, profile: Profile) -> str | None:
    """The id of a dropped reasoning item whose turn's items the target would pair with it:
    the target's own item (it holds the stored response) on the Responses wire."""
    if profile.protocol != "openai_responses" or (part.vendor or message.origin) != \
            profile.provider:
        return None
    return reasoning_item_id(part)


def _why_not(part: Part, message: Message, profile: Profile,
             takes_input: bool) -> tuple[str, str] | None:
    """(why, change code stem) when `part` is thinking the target cannot take, else None."""
    if not isinstance(part, Thinking):
        return None
    if not takes_input:
        return f"{profile.provider} takes no reasoning input", "unsupported-reasoning"
    if _keeps(part, message, profile):
        return _misshapen(part, profile)
    producer = part.vendor or message.origin
    if producer is None and part.signature is not None:
        return "signed by an unknown vendor; the signature cannot be verified", \
            "foreign-thinking"
    if producer is None:
        return f"reasoning of unknown origin; {profile.provider} needs a signature", \
            "foreign-thinking"
    if producer == profile.provider:
        return f"no signature; {profile.provider} needs one", "foreign-thinking"
    return f"made by {producer!r}; only {producer!r} can verify it", "foreign-thinking"


def _misshapen(part: Thinking, profile: Profile) -> tuple[str, str] | None:
    """A block kept as the target's own whose signature is not of the shape the target
    issues (thinking-signature-invalid, params.first_bytes): check() rejects it, so it
    cannot be sent as it is."""
    first_bytes = profile.param("thinking-signature-invalid", "first_bytes")
    if part.redacted or part.signature is None or first_bytes is None:
        return None
    if issued_by_shape(part.signature, (int(b) for b in first_bytes)):
        return None
    return (f"its signature is not of the shape {profile.provider} issues; it cannot be "
            "verified", "foreign-thinking")


def turn_in_progress(history: History) -> int | None:
    """Index of the assistant message of the turn in progress: the last assistant message
    when only tool-result messages follow it (an unfinished tool loop) or nothing does."""
    for i in range(len(history.messages) - 1, -1, -1):
        message = history.messages[i]
        if message.role == "assistant":
            return i
        if message.role != "tool" or any(not _is_result(p) for p in message.parts):
            return None
    return None


def _is_result(part: Part) -> bool:
    return not isinstance(part, Text)


def repair_thinking_turn(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Makes the turn in progress (the last assistant message, when only tool results follow)
    valid for the request's thinking mode (`Policy.thinking`).

    Thinking on (thinking-block-required; Anthropic: "messages.1.content.0.type: Expected
    `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a
    final `assistant` message must start with a thinking block …"): thinking parts later in
    the message move to its front (lossless); with none at all — the loop was started by
    another vendor or with thinking off — the unfinished tool loop is closed: its calls become
    assistant text and its results one user text message, so a new turn starts and the model
    may think in it (lossy: the calls and results are no longer structured).
    Thinking off (thinking-when-disabled; "… When thinking is disabled, an `assistant`
    message in the final position cannot contain `thinking` …"): the message's thinking is
    dropped, or turned into text under `Policy.foreign_thinking = "as-text"` (lossy)."""
    at = turn_in_progress(draft.history)
    if at is None:
        return draft, ()
    if policy.thinking == "on" and profile.enforces("thinking-block-required"):
        return _thinking_first(draft, at)
    if policy.thinking != "on" and profile.enforces("thinking-when-disabled"):
        return _without_thinking(draft, at, policy)
    return draft, ()


def _with_message(draft: Draft, at: int, new: tuple[Message, ...], upto: int) -> Draft:
    messages = draft.history.messages
    history = replace(draft.history, messages=(*messages[:at], *new, *messages[upto:]))
    return replace(draft, history=history)


def _thinking_first(draft: Draft, at: int) -> tuple[Draft, tuple[Change, ...]]:
    message = draft.history.messages[at]
    if not message.tool_calls or (message.parts and isinstance(message.parts[0], Thinking)):
        return draft, ()
    thoughts = tuple(p for p in message.parts if isinstance(p, Thinking))
    if thoughts:
        rest = tuple(p for p in message.parts if not isinstance(p, Thinking))
        moved = replace(message, parts=thoughts + rest)
        return _with_message(draft, at, (moved,), at + 1), (Change(
            _TURN, "move-thinking-first", f"moved {len(thoughts)} thinking part(s) to the start "
            "of the turn in progress", f"messages[{at}]", True),)
    return _close_tool_loop(draft, at)


def _close_tool_loop(draft: Draft, at: int) -> tuple[Draft, tuple[Change, ...]]:
    messages = draft.history.messages
    message = messages[at]
    said = [p for p in message.parts if isinstance(p, Text)]
    calls = [_call_text(p) for p in message.parts if isinstance(p, ToolCall)]
    assistant = replace(message, parts=(*said, Text("\n".join(calls))))
    results = [_result_text(r) for m in messages[at + 1:] for r in m.tool_results]
    new: tuple[Message, ...] = (assistant,)
    if results:
        new += (Message("user", (Text("\n".join(results)),)),)
    change = Change(_TURN, "close-tool-turn-as-text",
                    f"thinking is on but the unfinished tool loop has no thinking: {len(calls)} "
                    f"call(s) and {len(results)} result(s) written as text so a new turn starts",
                    f"messages[{at}:]", False)
    return _with_message(draft, at, new, len(messages)), (change,)


def _call_text(call: ToolCall) -> str:
    args = call.arguments if isinstance(call.arguments, str) else json.dumps(
        thaw(call.arguments), ensure_ascii=False, sort_keys=True)
    return f"[tool call {call.id or ''}] {call.name}({args})"


def _result_text(result: ToolResult) -> str:
    label = "tool error" if result.is_error else "tool result"
    return f"[{label} {result.call_id or ''}] {result.name or ''}: {result.text}"


def _without_thinking(draft: Draft, at: int, policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    message = draft.history.messages[at]
    parts: list[Part] = []
    changes: list[Change] = []
    for j, part in enumerate(message.parts):
        if not isinstance(part, Thinking):
            parts.append(part)
            continue
        new, change = _convert(at, j, part, policy, "thinking is off and this is the turn in "
                               "progress", "final-thinking")
        changes.append(replace(change, pass_name=_TURN))
        if new is not None:
            parts.append(new)
    if not changes:
        return draft, ()
    return _with_message(draft, at, (replace(message, parts=tuple(parts)),), at + 1), tuple(
        changes)
