"""Arguments pass: tool calls whose arguments are text where the protocol needs an object."""

from __future__ import annotations

from dataclasses import replace

from normalizer.errors import ArgumentsJSONError
from normalizer.model import Change, JsonMap, Message, Part, ToolCall
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.tools import parse_arguments

PASS = "parse_string_arguments"
SHOWN = 200  # characters of unparseable text quoted in a change (the rest is elided)


def parse_string_arguments(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a tool call whose arguments are a string (the raw text of a streamed call that
    was cut mid-arguments, or whose JSON was invalid: `normalizer.streaming` keeps that text)
    for a protocol whose call arguments must be a JSON object. Text that parses to a JSON
    object becomes that object; anything else becomes `{}`, and the change quotes the text.

    Rejected by: Anthropic "messages.{index}.content.{block}.tool_use.input: Input should be a
    valid dictionary"; Gemini (functionCall.args is a Struct; its text is unknown, and
    google-genai refuses the request before sending). See their profiles.

    Before: assistant(call get_weather arguments='{"city": "Pa')
    After:  assistant(call get_weather arguments={})
    Lossless when the text parsed to an object; lossy when it was replaced by `{}`.
    A target that rejects only empty strings (rule tool-arguments-empty, xAI: "The arguments
    to a tool_call with ID '…' are not a valid JSON string. …") gets only those fixed.
    """
    only_blank = not profile.enforces("tool-arguments-not-object")
    if not any(isinstance(c.arguments, str) for m in draft.history.messages
               for c in m.tool_calls):
        return draft, ()  # the common case: every call's arguments are an object already
    changes: list[Change] = []
    messages: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        parts: list[Part] = []
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolCall) and isinstance(part.arguments, str) \
                    and not (only_blank and part.arguments.strip()):
                part, change = _as_object(part, f"messages[{i}].parts[{j}]")
                changes.append(change)
            parts.append(part)
        changed = any(a is not b for a, b in zip(parts, message.parts, strict=True))
        messages.append(replace(message, parts=tuple(parts)) if changed else message)
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), tuple(changes)


def _as_object(call: ToolCall, where: str) -> tuple[ToolCall, Change]:
    text = str(call.arguments)
    who = f"call {call.id or '(no id)'} of {call.name!r}"
    try:
        parsed = parse_arguments(text, where)
    except ArgumentsJSONError as exc:
        shown = text if len(text) <= SHOWN else text[:SHOWN] + "…"
        return replace(call, arguments=JsonMap()), Change(
            PASS, "replace-invalid-arguments",
            f"{who}: arguments {shown!r} are not a JSON object ({exc.reason}); sent {{}}",
            where, lossless=False)
    return replace(call, arguments=parsed), Change(
        PASS, "parse-string-arguments", f"{who}: arguments text parsed into a JSON object",
        where, lossless=True)
