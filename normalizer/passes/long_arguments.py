"""Calls pass: a call's arguments longer than the vendor takes in one string (rule
tool-arguments-too-long)."""

from __future__ import annotations

from dataclasses import replace

from normalizer.json_values import CompactEncoder
from normalizer.model import Change, JsonMap, Part, ToolCall
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import with_parts_replaced
from normalizer.profiles import Profile

RULE = "tool-arguments-too-long"
SHOWN = 2000  # characters of the old arguments kept, so the model still sees what it called
NOTE = "[the arguments of this call, {length} characters, were left out: the target takes " \
       "at most {limit} in one string]"
_ENCODE = CompactEncoder().encode  # the renderers' canonical form of arguments


def leave_out_long_arguments(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    r"""Fixes a call whose arguments, as sent, are longer than the target takes in one
    string (rule tool-arguments-too-long, params.max_length): the arguments become an
    object holding a note that says so (`left_out`) and their first 2,000 characters
    (`start`). The call keeps its id, its name and its result, so the pairing holds and the
    model still reads what it called and what came back.

    Rejected by: OpenAI Responses "Invalid 'input[15].arguments': string too long. Expected
    a string with maximum length 1048576, but got a string with length 1524940 instead."
    (openai/codex#13270: a session that every later request, compaction included, failed;
    the fix users found was to replace that one string with a short placeholder).

    Before: function_call apply_patch, arguments of 1,524,940 characters
    After:  function_call apply_patch, arguments {"left_out": "[the arguments of this call,
            1,524,940 characters, were left out: …]", "start": "{\"patch\":\"*** Begin…"}
    Lossy: the arguments past their start are gone.
    """
    if not profile.enforces(RULE):
        return draft, ()
    limit = int(profile.param(RULE, "max_length"))
    new: dict[tuple[int, int], Part] = {}
    changes: list[Change] = []
    for m, message in enumerate(draft.history.messages):
        if message.role != "assistant" or not message.tool_calls:
            continue
        for j, part in enumerate(message.parts):
            if type(part) is not ToolCall or _surely_short(part.arguments, limit):  # type: ignore[union-attr]
                continue
            sent = _sent(part)  # type: ignore[arg-type]
            if len(sent) <= limit:
                continue
            new[m, j] = _left_out(part, sent, limit)  # type: ignore[arg-type]
            changes.append(Change(
                "leave_out_long_arguments", "leave-out-long-arguments",
                f"left out the arguments of call {part.id!r} to {part.name!r} "  # type: ignore[union-attr]
                f"({len(sent):,} characters; the target takes at most {limit:,} in one "
                "string): a note saying so and their start (up to 2,000 characters) stand in "
                "for them",
                f"messages[{m}].parts[{j}].arguments", lossless=False))
    return with_parts_replaced(draft, new), tuple(changes)


def _surely_short(arguments: JsonMap | str, limit: int) -> bool:
    """Whether arguments of one level (nearly every call's) cannot reach `limit` as JSON,
    told without encoding them: a character takes at most six (an escape such as u001f),
    a scalar other than a string at most 32, and each key and value its punctuation.
    False where unsure."""
    if type(arguments) is str:
        return len(arguments) <= limit
    budget = limit - 2
    for key, value in arguments._data.items():  # type: ignore[union-attr]
        kind = type(value)
        if kind is str:
            budget -= 6 * (len(key) + len(value)) + 6
        elif kind is int or kind is float or kind is bool or value is None:
            budget -= 6 * len(key) + 36
        else:  # nested: measured by encoding
            return False
    return budget >= 0


def _sent(call: ToolCall) -> str:
    """The call's arguments string as it will be sent: the body's own string while the
    arguments are still the ones parsed from it, else the canonical JSON."""
    arguments, wire = call.arguments, call.wire_arguments
    if isinstance(arguments, str):
        return arguments
    if wire is not None and getattr(arguments, "source", None) is wire:
        return wire
    return _ENCODE(arguments._data)


def _left_out(call: ToolCall, text: str, limit: int) -> ToolCall:
    """The call with a note and the start of `text`, its arguments as sent, in their place,
    as much of the start as keeps the whole within `limit`."""
    note = NOTE.format(length=f"{len(text):,}", limit=f"{limit:,}")
    stand_in = {"left_out": note, "start": text[:SHOWN]}
    while len(_ENCODE(stand_in)) > limit and stand_in["start"]:  # a limit under 2,000 or so
        over = len(_ENCODE(stand_in)) - limit
        stand_in["start"] = stand_in["start"][:max(len(stand_in["start"]) - over, 0)]
    if len(_ENCODE(stand_in)) > limit:  # not even the note fits
        stand_in = {}
    return replace(call, arguments=JsonMap(stand_in), wire_arguments=None)
